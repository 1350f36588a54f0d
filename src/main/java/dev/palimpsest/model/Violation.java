package dev.palimpsest.model;

import java.util.Objects;

/**
 * One broken rule found by the reference gate or by input validation: the rule's name, the
 * subject it concerns (a fact id, a ref, a field) and a readable message. Immutable.
 */
public record Violation(String rule, String subject, String message) {
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return subject + ": " + message + " [" + rule + "]";
    }
}
