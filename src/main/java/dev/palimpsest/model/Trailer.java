package dev.palimpsest.model;

import java.util.Objects;

/**
 * One {@code Key: value} trailer of a commit message.
 *
 * <p>Immutable and thread-safe; neither part may be null.
 */
public record Trailer(String key, String value) {
    public Trailer {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
