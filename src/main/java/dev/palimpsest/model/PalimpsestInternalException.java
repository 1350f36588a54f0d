package dev.palimpsest.model;

/**
 * Unchecked wrapper for internal failures (I/O errors, a corrupt repository, a library fault) that
 * a caller cannot correct by changing its input.
 *
 * <p>Immutable once thrown and safe to share between threads; the cause may be null.
 */
public class PalimpsestInternalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PalimpsestInternalException(String message, Throwable cause) {
        super(message, cause);
    }

    public PalimpsestInternalException(String message) {
        super(message);
    }
}
