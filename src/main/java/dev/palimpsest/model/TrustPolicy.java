package dev.palimpsest.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which receipts a store's cleanup believes: {@code flat} says how a flat summary receipt that lost a
 * member is treated (see {@link Policy}); every layer in {@code distrusted} has its receipts ignored
 * altogether, so any artifact of it whose receipt names a withdrawn member is removed, whatever
 * alternative bundles it lists (§6.4 of the paper: "distrust the failing layer"). Distrusting every
 * derived layer is the label-free policy: an artifact goes as soon as its flat provenance is touched.
 * Immutable and thread-safe; nothing may be null and only merge, edge and summary can be distrusted.
 */
public record TrustPolicy(Policy flat, Set<Layer> distrusted) {
    /** The layers whose receipts a policy can distrust. */
    public static final Set<Layer> DERIVED = Collections.unmodifiableSet(EnumSet.of(Layer.MERGE, Layer.EDGE,
            Layer.SUMMARY));

    /** A store's default: flat summary receipts distrusted, every other receipt trusted. */
    public static final TrustPolicy DEFAULT = new TrustPolicy(Policy.DISTRUST, Set.of());

    /** Every receipt trusted, flat summary receipts included (the paper's "trust all labels"). */
    public static final TrustPolicy TRUST_ALL = new TrustPolicy(Policy.TRUST, Set.of());

    /** No receipt trusted: every touched derived artifact is removed (the paper's label-free policy). */
    public static final TrustPolicy LABEL_FREE = new TrustPolicy(Policy.DISTRUST, DERIVED);

    public TrustPolicy {
        Objects.requireNonNull(flat, "flat");
        Objects.requireNonNull(distrusted, "distrusted");
        EnumSet<Layer> d = EnumSet.noneOf(Layer.class);
        for (Layer l : distrusted) {
            if (!DERIVED.contains(Objects.requireNonNull(l, "layer"))) {
                throw new IllegalArgumentException("only merge, edge and summary receipts can be distrusted, not " + l);
            }
            d.add(l);
        }
        distrusted = Collections.unmodifiableSet(d);
    }

    /** True when {@code layer}'s receipts are ignored. */
    public boolean distrusts(Layer layer) {
        return distrusted.contains(layer);
    }

    /** True when no derived layer's receipts are believed. */
    public boolean labelFree() {
        return distrusted.equals(DERIVED);
    }

    /** The same policy with {@code layer}'s receipts trusted ({@code trust}) or ignored. */
    public TrustPolicy with(Layer layer, boolean trust) {
        EnumSet<Layer> d = distrusted.isEmpty() ? EnumSet.noneOf(Layer.class) : EnumSet.copyOf(distrusted);
        if (trust) {
            d.remove(layer);
        } else {
            d.add(layer);
        }
        return new TrustPolicy(flat, d);
    }

    /** The same policy with flat summary receipts treated as {@code p}. */
    public TrustPolicy withFlat(Policy p) {
        return new TrustPolicy(p, distrusted);
    }
}
