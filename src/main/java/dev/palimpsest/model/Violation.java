package dev.palimpsest.model;

import java.util.Objects;

/**
 * One broken rule found by the reference gate or by input validation: the {@link Rule}, the
 * subject it concerns (a fact id, a ref, a field) and a readable message. Immutable; no component
 * may be null.
 */
public record Violation(Rule rule, String subject, String message) {
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return subject + ": " + message + " [" + rule.id() + "]";
    }
}
