package dev.palimpsest.model;

/**
 * Thrown by a value built from text that cannot be stored ({@link Text#require}); write paths report
 * it as rule {@code invalid-text}.
 */
public final class InvalidTextException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidTextException(String message) {
        super(message);
    }
}
