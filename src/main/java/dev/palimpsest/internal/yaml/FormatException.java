package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.Rule;

/**
 * A file does not follow the store format; the message names the file's problem and {@link #rule()}
 * the rule it breaks ({@code malformed-file} unless a more precise rule applies, such as {@code
 * valid-time-malformed}).
 */
public final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;
    private final Rule rule;

    public FormatException(String message) {
        this(message, Rule.MALFORMED_FILE);
    }

    public FormatException(String message, Rule rule) {
        super(message);
        this.rule = rule;
    }

    /** The rule the file breaks. */
    public Rule rule() {
        return rule;
    }
}
