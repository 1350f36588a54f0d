package dev.palimpsest.model;

import java.util.Objects;

/** One {@code Key: value} trailer of a commit message. Immutable. */
public record Trailer(String key, String value) {
    public Trailer {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
