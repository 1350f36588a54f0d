package dev.palimpsest.model;

import java.util.Objects;

/**
 * An entity memory knows: its normalised {@link EntityKey} and how many facts live at the commit
 * asked about name it as their subject or object (a fact naming it as both counts once).
 */
public record KnownEntity(String key, int facts) {
    public KnownEntity {
        Objects.requireNonNull(key, "key");
        if (key.isBlank()) {
            throw new IllegalArgumentException("an entity key must not be blank");
        }
        if (facts < 1) {
            throw new IllegalArgumentException("an entity is named by at least one fact, got " + facts);
        }
    }
}
