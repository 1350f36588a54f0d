package dev.palimpsest.model;

/**
 * Thrown when a write could not land because the timeline kept moving under it (every
 * compare-and-swap retry lost), or the target is in a state the write does not allow.
 *
 * <p>Immutable once thrown and safe to share between threads; the message is never null.
 */
public class ConflictException extends PalimpsestException {
    private static final long serialVersionUID = 1L;

    public ConflictException(String message) {
        super(message);
    }
}
