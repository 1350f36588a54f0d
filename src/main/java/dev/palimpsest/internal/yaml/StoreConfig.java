package dev.palimpsest.internal.yaml;

import java.util.Objects;

/**
 * The store configuration file {@code palimpsest.yaml}: format, layout, the flat-summary receipt
 * policy ({@code trust} or {@code distrust}; null means the default, distrust, and is not written)
 * and the ontology's axioms ({@link Ontology#EMPTY} when none, not written), the sealing mode, the
 * retention defaults, what agent keys may do beyond the default ({@code agents_may}, values of
 * {@link dev.palimpsest.model.AgentPermission}; empty, not written, by default) and the layers whose
 * receipts cleanup ignores ({@code distrust_layers}: merge, edge, summary; empty, not written, by
 * default). Immutable.
 */
public record StoreConfig(int format, String layout, String policy, Ontology ontology,
        java.util.SortedSet<String> multiValued, String encrypt, java.util.SortedMap<String, String> retention,
        java.util.SortedSet<String> agentsMay, java.util.SortedSet<String> distrustLayers) {
    /** A config that grants agent keys nothing beyond the default and trusts every layer's receipts. */
    public StoreConfig(int format, String layout, String policy, Ontology ontology,
            java.util.SortedSet<String> multiValued, String encrypt, java.util.SortedMap<String, String> retention) {
        this(format, layout, policy, ontology, multiValued, encrypt, retention, null, null);
    }

    /** Sealing modes: every fact, facts written sensitive (the default, not written), none. */
    public static final String ENCRYPT_ALL = "all";
    public static final String ENCRYPT_SENSITIVE = "sensitive";
    public static final String ENCRYPT_NONE = "none";

    /** A config with the default sealing mode and no retention defaults. */
    public StoreConfig(int format, String layout, String policy, Ontology ontology,
            java.util.SortedSet<String> multiValued) {
        this(format, layout, policy, ontology, multiValued, null, null);
    }

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
        if (ENCRYPT_SENSITIVE.equals(encrypt)) {
            encrypt = null;
        }
        if (encrypt != null && !encrypt.equals(ENCRYPT_ALL) && !encrypt.equals(ENCRYPT_NONE)) {
            throw new IllegalArgumentException("encrypt must be 'all', 'sensitive' or 'none', got '" + encrypt + "'");
        }
        java.util.TreeMap<String, String> ret = new java.util.TreeMap<>(retention == null ? java.util.Map.of() : retention);
        for (var e : ret.entrySet()) {
            dev.palimpsest.model.Kind.of(e.getKey());
            java.time.Duration d;
            try {
                d = java.time.Duration.parse(e.getValue());
            } catch (java.time.format.DateTimeParseException bad) {
                throw new IllegalArgumentException("retention of '" + e.getKey() + "': '" + e.getValue()
                        + "' is not an ISO-8601 duration (e.g. P90D)");
            }
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("retention of '" + e.getKey() + "' must be positive");
            }
        }
        if (!ret.isEmpty() && ENCRYPT_NONE.equals(encrypt)) {
            throw new IllegalArgumentException("retention defaults need sealing: a store with encrypt 'none' "
                    + "cannot honour a deadline");
        }
        retention = java.util.Collections.unmodifiableSortedMap(ret);
        java.util.TreeSet<String> may = new java.util.TreeSet<>();
        for (String p : agentsMay == null ? java.util.Set.<String>of() : agentsMay) {
            may.add(dev.palimpsest.model.AgentPermission.parse(p).value());
        }
        agentsMay = java.util.Collections.unmodifiableSortedSet(may);
        java.util.TreeSet<String> dl = new java.util.TreeSet<>();
        for (String l : distrustLayers == null ? java.util.Set.<String>of() : distrustLayers) {
            if (!l.equals("merge") && !l.equals("edge") && !l.equals("summary")) {
                throw new IllegalArgumentException("distrust_layers lists merge, edge or summary, not '" + l + "'");
            }
            dl.add(l);
        }
        distrustLayers = java.util.Collections.unmodifiableSortedSet(dl);
    }

    /** True when {@code agents_may} grants agent keys {@code p}. */
    public boolean agentsMay(dev.palimpsest.model.AgentPermission p) {
        return agentsMay.contains(p.value());
    }

    /** The same config granting agent keys exactly {@code grants}. */
    public StoreConfig withAgentsMay(java.util.Collection<dev.palimpsest.model.AgentPermission> grants) {
        java.util.TreeSet<String> may = new java.util.TreeSet<>();
        grants.forEach(g -> may.add(g.value()));
        return new StoreConfig(format, layout, policy, ontology, multiValued, encrypt, retention, may, distrustLayers);
    }

    /** True when cleanup ignores the receipts of layer {@code layer} ({@code merge}, {@code edge}, {@code summary}). */
    public boolean distrusts(String layer) {
        return distrustLayers.contains(layer);
    }

    /** The same config with the layers of {@code trust} mapped to false distrusted and those mapped to true trusted. */
    public StoreConfig withLayerTrust(java.util.Map<String, Boolean> trust) {
        java.util.TreeSet<String> dl = new java.util.TreeSet<>(distrustLayers);
        trust.forEach((l, t) -> {
            if (t) {
                dl.remove(l);
            } else {
                dl.add(l);
            }
        });
        return new StoreConfig(format, layout, policy, ontology, multiValued, encrypt, retention, agentsMay, dl);
    }

    /** The sealing mode: {@code all}, {@code sensitive} or {@code none}. */
    public String encryptMode() {
        return encrypt == null ? ENCRYPT_SENSITIVE : encrypt;
    }

    /** The default retention of facts of {@code kind}, or null. */
    public java.time.Duration retentionOf(dev.palimpsest.model.Kind kind) {
        String d = retention.get(kind.value());
        return d == null ? null : java.time.Duration.parse(d);
    }

    /** The same config with a sealing mode and retention defaults. */
    public StoreConfig withSealing(String mode, java.util.Map<String, String> defaults) {
        return new StoreConfig(format, layout, policy, ontology, multiValued, mode,
                defaults == null ? null : new java.util.TreeMap<>(defaults), agentsMay, distrustLayers);
    }

    /** The same config with {@code more} predicates (normalised with {@code EntityKey}) declared multi-valued. */
    public StoreConfig withMultiValued(java.util.Collection<String> more) {
        java.util.TreeSet<String> mv = new java.util.TreeSet<>(multiValued);
        for (String p : more) {
            mv.add(dev.palimpsest.model.EntityKey.of(p));
        }
        return new StoreConfig(format, layout, policy, ontology, mv, encrypt, retention, agentsMay, distrustLayers);
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
                more == null ? ontology : ontology.merge(more), multiValued, encrypt, retention, agentsMay, distrustLayers);
    }
}
