package dev.palimpsest.model;

/**
 * Thrown when a fact, commit or store does not exist where the caller looked for it.
 *
 * <p>Immutable once thrown and safe to share between threads; the message names what was looked for.
 */
public class NotFoundException extends PalimpsestException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(message);
    }
}
