package dev.palimpsest.model;

/**
 * The identity of a fact, stable across its versions; matches {@code [a-z0-9][a-z0-9._-]{0,79}}.
 *
 * <p>Immutable and thread-safe; the constructor rejects null and malformed values with an
 * {@link IllegalArgumentException} naming the offending value.
 */
public record FactId(String value) implements Comparable<FactId> {
    public FactId {
        Ids.require("fact id", value, Ids.FACT_ID, "[a-z0-9][a-z0-9._-]{0,79}");
        if (value.contains("..")) {
            throw new IllegalArgumentException("fact id '" + value + "' is invalid: it must not contain '..'");
        }
    }

    public static FactId of(String value) {
        return new FactId(value);
    }

    @Override
    public int compareTo(FactId o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
