package dev.palimpsest.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A support label: alternative bundles of pinned members, each claimed sufficient on its own. An
 * artifact is alive at a commit iff some bundle has every member alive there.
 *
 * <p>Canonical: each bundle is sorted by member id without duplicates, bundles are distinct and
 * ordered smallest first (ties by their member ids), and there are between 1 and
 * {@link #MAX_BUNDLES}. Immutable; the constructor rejects anything else with an
 * {@link IllegalArgumentException} (use {@link #truncated} to keep the smallest bundles).
 *
 * <p>Thread-safe.
 */
public record Receipt(List<List<Pin>> bundles) {
    /** The most bundles a receipt keeps. */
    public static final int MAX_BUNDLES = 8;

    /** Smallest first, ties broken by the sorted member ids: the order truncation keeps. */
    public static final Comparator<List<Pin>> ORDER = Comparator.<List<Pin>>comparingInt(List::size)
            .thenComparing(Receipt::key);

    public Receipt {
        Objects.requireNonNull(bundles, "bundles");
        if (bundles.isEmpty()) {
            throw new IllegalArgumentException("a receipt needs at least one bundle");
        }
        if (bundles.size() > MAX_BUNDLES) {
            throw new IllegalArgumentException("a receipt has at most " + MAX_BUNDLES + " bundles, got " + bundles.size());
        }
        List<List<Pin>> canon = new ArrayList<>();
        for (List<Pin> b : bundles) {
            canon.add(canonical(b));
        }
        canon.sort(ORDER);
        for (int i = 1; i < canon.size(); i++) {
            if (key(canon.get(i)).equals(key(canon.get(i - 1)))) {
                throw new IllegalArgumentException("receipt bundle " + key(canon.get(i)) + " is given twice");
            }
        }
        bundles = List.copyOf(canon);
    }

    /**
     * The receipt keeping the {@link #MAX_BUNDLES} smallest distinct bundles (ties by member ids);
     * truncation can only make an artifact look deader, never keep dead content alive.
     */
    public static Receipt truncated(List<List<Pin>> bundles) {
        Map<String, List<Pin>> distinct = new LinkedHashMap<>();
        for (List<Pin> b : bundles) {
            List<Pin> c = canonical(b);
            distinct.putIfAbsent(key(c), c);
        }
        List<List<Pin>> all = new ArrayList<>(distinct.values());
        all.sort(ORDER);
        return new Receipt(all.subList(0, Math.min(MAX_BUNDLES, all.size())));
    }

    /** Every member id of every bundle, each once. */
    public List<FactId> members() {
        TreeMap<FactId, Boolean> ids = new TreeMap<>();
        bundles.forEach(b -> b.forEach(p -> ids.put(p.id(), true)));
        return List.copyOf(ids.keySet());
    }

    private static List<Pin> canonical(List<Pin> bundle) {
        if (bundle == null || bundle.isEmpty()) {
            throw new IllegalArgumentException("a receipt bundle must not be empty");
        }
        TreeMap<FactId, Pin> byId = new TreeMap<>();
        for (Pin p : bundle) {
            Objects.requireNonNull(p, "pin");
            Pin prev = byId.put(p.id(), p);
            if (prev != null && !prev.equals(p)) {
                throw new IllegalArgumentException("receipt bundle names " + p.id() + " twice with different pins");
            }
        }
        return List.copyOf(byId.values());
    }

    private static String key(List<Pin> bundle) {
        StringBuilder b = new StringBuilder();
        for (Pin p : bundle) {
            b.append(p.id().value()).append(' ');
        }
        return b.toString();
    }
}
