package dev.palimpsest.model;

import java.util.Locale;

/**
 * A receipt layer: {@link #ASSERTION} (one document stating one typed triple) and the derived
 * artifacts {@link #MERGE}, {@link #EDGE} and {@link #SUMMARY}. Immutable and thread-safe.
 */
public enum Layer {
    /** One source document stating one typed triple. */
    ASSERTION,
    /** An entity-identity claim. */
    MERGE,
    /** A triple, entailed or model-authored. */
    EDGE,
    /** Text over a community. */
    SUMMARY;

    /** The layer's name as printed, also the kind of its facts: {@code assertion}, {@code merge}, ... */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind of the facts of this layer. */
    public Kind kind() {
        return Kind.of(value());
    }

    /**
     * The layer named {@code value} (exact, lower case).
     *
     * @throws IllegalArgumentException when {@code value} is null or names no layer
     */
    public static Layer parse(String value) {
        for (Layer l : values()) {
            if (l.value().equals(value)) {
                return l;
            }
        }
        throw new IllegalArgumentException("layer '" + value + "' is not one of assertion, merge, edge, summary");
    }

    @Override
    public String toString() {
        return value();
    }
}
