package dev.palimpsest.internal.yaml;

/** A file does not follow the store format; the message names the file's problem. */
public final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public FormatException(String message) {
        super(message);
    }
}
