package dev.palimpsest.internal.yaml;

import java.util.Objects;

/**
 * The store configuration file {@code palimpsest.yaml}: format, layout, the flat-summary receipt
 * policy ({@code trust} or {@code distrust}; null means the default, distrust, and is not written)
 * and the ontology's axioms ({@link Ontology#EMPTY} when none, not written). Immutable.
 */
public record StoreConfig(int format, String layout, String policy, Ontology ontology,
        java.util.SortedSet<String> multiValued) {
    public static final int FORMAT = 1;
    public static final String LAYOUT = "sha256-2x2";
    public static final String TRUST = "trust";
    public static final String DISTRUST = "distrust";

    public StoreConfig(int format, String layout) {
        this(format, layout, null, Ontology.EMPTY);
    }

    /** A config without multi-valued predicates. */
    public StoreConfig(int format, String layout, String policy, Ontology ontology) {
        this(format, layout, policy, ontology, null);
    }

    public StoreConfig {
        Objects.requireNonNull(layout, "layout");
        if (policy != null && !policy.equals(TRUST) && !policy.equals(DISTRUST)) {
            throw new IllegalArgumentException("policy must be 'trust' or 'distrust', got '" + policy + "'");
        }
        ontology = ontology == null ? Ontology.EMPTY : ontology;
        java.util.TreeSet<String> mv = new java.util.TreeSet<>();
        for (String p : multiValued == null ? java.util.Set.<String>of() : multiValued) {
            String key = dev.palimpsest.model.EntityKey.of(p);
            if (key.isEmpty() || !key.equals(p)) {
                throw new IllegalArgumentException("multi_valued predicate '" + p + "' is not a normalised "
                        + "non-empty predicate key (expected '" + key + "')");
            }
            mv.add(key);
        }
        multiValued = java.util.Collections.unmodifiableSortedSet(mv);
    }

    /** The same config with {@code more} predicates (normalised with {@code EntityKey}) declared multi-valued. */
    public StoreConfig withMultiValued(java.util.Collection<String> more) {
        java.util.TreeSet<String> mv = new java.util.TreeSet<>(multiValued);
        for (String p : more) {
            mv.add(dev.palimpsest.model.EntityKey.of(p));
        }
        return new StoreConfig(format, layout, policy, ontology, mv);
    }

    public static StoreConfig current() {
        return new StoreConfig(FORMAT, LAYOUT);
    }

    /** True when flat summary receipts are distrusted: every touched flat summary is removed. */
    public boolean distrustFlat() {
        return !TRUST.equals(policy);
    }

    public StoreConfig with(String newPolicy, Ontology more) {
        return new StoreConfig(format, layout, newPolicy == null ? policy : newPolicy,
                more == null ? ontology : ontology.merge(more), multiValued);
    }
}
