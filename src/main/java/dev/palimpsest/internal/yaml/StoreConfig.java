package dev.palimpsest.internal.yaml;

import java.util.Objects;

/**
 * The store configuration file {@code palimpsest.yaml}: format, layout, the flat-summary receipt
 * policy ({@code trust} or {@code distrust}; null means the default, distrust, and is not written)
 * and the ontology's axioms ({@link Ontology#EMPTY} when none, not written). Immutable.
 */
public record StoreConfig(int format, String layout, String policy, Ontology ontology) {
    public static final int FORMAT = 1;
    public static final String LAYOUT = "sha256-2x2";
    public static final String TRUST = "trust";
    public static final String DISTRUST = "distrust";

    public StoreConfig(int format, String layout) {
        this(format, layout, null, Ontology.EMPTY);
    }

    public StoreConfig {
        Objects.requireNonNull(layout, "layout");
        if (policy != null && !policy.equals(TRUST) && !policy.equals(DISTRUST)) {
            throw new IllegalArgumentException("policy must be 'trust' or 'distrust', got '" + policy + "'");
        }
        ontology = ontology == null ? Ontology.EMPTY : ontology;
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
                more == null ? ontology : ontology.merge(more));
    }
}
