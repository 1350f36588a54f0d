package dev.palimpsest.model;

import java.util.Objects;

/**
 * One broken rule found by the audit: the commit it was found in, the path it concerns (null when
 * it concerns the commit itself: its signature, identity or message), the {@link Rule} and a
 * readable message. Immutable; only {@code path} may be null.
 */
public record AuditViolation(CommitId commit, String path, Rule rule, String message) {
    public AuditViolation {
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return commit.hex() + " " + (path == null ? "(commit)" : path) + ": " + message + " [" + rule.id() + "]";
    }
}
