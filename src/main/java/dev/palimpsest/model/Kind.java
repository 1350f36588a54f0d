package dev.palimpsest.model;

/**
 * The kind of a fact ({@code claim}, {@code source}, {@code hypothesis}, ...); matches
 * {@code [a-z][a-z0-9_-]{0,31}}. The kind decides the folder a fact is stored in.
 *
 * <p>Immutable and thread-safe; rejects null and malformed values with an {@link IllegalArgumentException}.
 */
public record Kind(String value) {
    public static final Kind CLAIM = new Kind("claim");
    public static final Kind SOURCE = new Kind("source");
    public static final Kind HYPOTHESIS = new Kind("hypothesis");
    /** One source document stating one typed triple (lives under {@code assertions/}). */
    public static final Kind ASSERTION = new Kind("assertion");
    /** Derived artifacts, each with a receipt (they live under {@code artifacts/}). */
    public static final Kind MERGE = new Kind("merge");
    public static final Kind EDGE = new Kind("edge");
    public static final Kind SUMMARY = new Kind("summary");
    /**
     * A claim about an entity: a subject-predicate-object triple with at least one {@code source}
     * ref and an optional run (lives under {@code facts/}).
     */
    public static final Kind ENTITY_CLAIM = new Kind("entity-claim");

    public Kind {
        Ids.require("kind", value, Ids.TOKEN, "[a-z][a-z0-9_-]{0,31}");
    }

    /** True for the derived layers (merge, edge, summary), which must carry receipts. */
    public boolean isArtifact() {
        return equals(MERGE) || equals(EDGE) || equals(SUMMARY);
    }

    public static Kind of(String value) {
        return new Kind(value);
    }

    /** Equal to a kind of the same value (written out: the generated record equals is a call site the audit's hot loop pays for). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Kind k && value.equals(k.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
