package dev.palimpsest.model;

/**
 * Root of the checked exceptions a caller can act on: not found, conflict, rejected input.
 *
 * <p>Messages name what is wrong. Library exceptions (JGit, BouncyCastle, Jackson) never appear in
 * public signatures; internal failures surface as {@link PalimpsestInternalException}.
 *
 * <p>Immutable once thrown and safe to share between threads; the message is never null.
 */
public abstract class PalimpsestException extends Exception {
    private static final long serialVersionUID = 1L;

    protected PalimpsestException(String message) {
        super(message);
    }

    protected PalimpsestException(String message, Throwable cause) {
        super(message, cause);
    }
}
