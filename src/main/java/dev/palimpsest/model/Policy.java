package dev.palimpsest.model;

import java.util.Locale;

/**
 * How a store treats a flat summary receipt that lost a member: {@link #TRUST} keeps the summary
 * alive while some bundle is; {@link #DISTRUST} (the default) removes it as soon as any bundle is
 * hit. Immutable and thread-safe.
 */
public enum Policy {
    /** Alive while some bundle is alive. */
    TRUST,
    /** Removed as soon as any bundle is hit. */
    DISTRUST;

    /** The policy's name as stored in {@code palimpsest.yaml} and printed: {@code trust} or {@code distrust}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The policy named {@code value} (exact, lower case).
     *
     * @throws IllegalArgumentException when {@code value} is null or names no policy
     */
    public static Policy parse(String value) {
        for (Policy p : values()) {
            if (p.value().equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException("policy must be 'trust' or 'distrust', got '" + value + "'");
    }

    @Override
    public String toString() {
        return value();
    }
}
