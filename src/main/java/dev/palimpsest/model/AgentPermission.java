package dev.palimpsest.model;

import java.util.Locale;

/**
 * What a store may let {@code agent} keys do that is refused to them by default
 * ({@code agents_may} in {@code palimpsest.yaml}): {@link #OVERRIDE_HUMAN} to retract or supersede
 * a fact whose version a {@code human} key wrote, {@link #RETRACT_SNAPSHOT} to retract a dated
 * snapshot (a fact that a live fact supersedes). A {@code human} key may always do both.
 * Immutable and thread-safe.
 */
public enum AgentPermission {
    /** Retract or supersede a fact whose version a human key wrote. */
    OVERRIDE_HUMAN,
    /** Retract a dated snapshot: a fact that a live fact supersedes. */
    RETRACT_SNAPSHOT;

    /** The permission's name as stored in {@code palimpsest.yaml}: {@code override-human} or {@code retract-snapshot}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The permission named {@code value} (exact, lower case).
     *
     * @throws IllegalArgumentException when {@code value} is null or names no permission
     */
    public static AgentPermission parse(String value) {
        for (AgentPermission p : values()) {
            if (p.value().equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException("agents_may entry '" + value + "' is invalid: it must be override-human or "
                + "retract-snapshot");
    }

    @Override
    public String toString() {
        return value();
    }
}
