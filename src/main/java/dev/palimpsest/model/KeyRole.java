package dev.palimpsest.model;

import java.util.Locale;

/**
 * The role of an actor's key: {@code agent} or {@code human}. Roles are recorded for later
 * policies and grant nothing today. Immutable and thread-safe.
 */
public enum KeyRole {
    /** A software agent. */
    AGENT,
    /** A person. */
    HUMAN;

    /** The role's name as stored and printed: {@code agent} or {@code human}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role named {@code value}, case-insensitively.
     *
     * @throws IllegalArgumentException when {@code value} is null or names no role
     */
    public static KeyRole parse(String value) {
        if (value != null) {
            for (KeyRole r : values()) {
                if (r.value().equalsIgnoreCase(value)) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("role '" + value + "' is invalid: it must be agent or human");
    }

    @Override
    public String toString() {
        return value();
    }
}
