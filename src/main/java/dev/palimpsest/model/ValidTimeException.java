package dev.palimpsest.model;

import java.util.Objects;

/**
 * Thrown by a {@link Validity} that cannot be stored: a bound that is not a whole-second instant of
 * the years 1 to 9999 ({@link Rule#VALID_TIME_MALFORMED}) or a start not before the end ({@link
 * Rule#VALID_TIME_INVERTED}); write paths report it under {@link #rule()}.
 */
public final class ValidTimeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final Rule rule;

    public ValidTimeException(Rule rule, String message) {
        super(message);
        this.rule = Objects.requireNonNull(rule, "rule");
    }

    /** The rule the value breaks. */
    public Rule rule() {
        return rule;
    }
}
