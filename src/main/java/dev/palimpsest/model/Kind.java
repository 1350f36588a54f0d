package dev.palimpsest.model;

/**
 * The kind of a fact ({@code claim}, {@code source}, {@code hypothesis}, ...); matches
 * {@code [a-z][a-z0-9_-]{0,31}}. The kind decides the folder a fact is stored in.
 *
 * <p>Immutable; rejects null and malformed values with an {@link IllegalArgumentException}.
 */
public record Kind(String value) {
    public static final Kind CLAIM = new Kind("claim");
    public static final Kind SOURCE = new Kind("source");
    public static final Kind HYPOTHESIS = new Kind("hypothesis");

    public Kind {
        Ids.require("kind", value, Ids.TOKEN, "[a-z][a-z0-9_-]{0,31}");
    }

    public static Kind of(String value) {
        return new Kind(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
