package dev.palimpsest.internal.yaml;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The axioms of the store config: transitive predicates, inverse pairs, sub-properties and
 * two-step property chains. Canonical (sorted, distinct) so equal axioms encode equally. Immutable;
 * predicates must match {@code [a-z][a-z0-9_-]{0,31}} ({@link IllegalArgumentException} otherwise).
 */
public record Ontology(List<String> transitive, SortedMap<String, String> inverse,
        SortedMap<String, String> subproperty, List<Chain> chains) {
    public static final Ontology EMPTY = new Ontology(List.of(), null, null, List.of());
    private static final Pattern PREDICATE = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

    /** {@code of[0] ∘ of[1] ⊑ implies}: (a of0 b) and (b of1 c) entail (a implies c). */
    public record Chain(List<String> of, String implies) {
        public Chain {
            of = List.copyOf(of);
            if (of.size() != 2) {
                throw new IllegalArgumentException("a property chain has exactly two predicates, got " + of);
            }
            of.forEach(Ontology::check);
            check(implies);
        }
    }

    public Ontology {
        transitive = List.copyOf(new TreeSet<>(transitive == null ? List.of() : transitive));
        inverse = sorted(inverse);
        subproperty = sorted(subproperty);
        TreeMap<String, Chain> cs = new TreeMap<>();
        for (Chain c : chains == null ? List.<Chain>of() : chains) {
            cs.put(c.of().get(0) + " " + c.of().get(1) + " " + c.implies(), c);
        }
        chains = List.copyOf(cs.values());
        transitive.forEach(Ontology::check);
        inverse.forEach((k, v) -> {
            check(k);
            check(v);
        });
        subproperty.forEach((k, v) -> {
            check(k);
            check(v);
        });
    }

    public boolean isEmpty() {
        return transitive.isEmpty() && inverse.isEmpty() && subproperty.isEmpty() && chains.isEmpty();
    }

    /** The union of both axiom sets; a key of {@code other} replaces the same key here. */
    public Ontology merge(Ontology other) {
        List<String> t = new ArrayList<>(transitive);
        t.addAll(other.transitive);
        TreeMap<String, String> inv = new TreeMap<>(inverse);
        inv.putAll(other.inverse);
        TreeMap<String, String> sub = new TreeMap<>(subproperty);
        sub.putAll(other.subproperty);
        List<Chain> c = new ArrayList<>(chains);
        c.addAll(other.chains);
        return new Ontology(t, inv, sub, c);
    }

    /** Every axiom as a chain rule: transitive p is p∘p ⊑ p. Sorted. */
    public List<Chain> chainRules() {
        List<Chain> out = new ArrayList<>(chains);
        for (String p : transitive) {
            out.add(new Chain(List.of(p, p), p));
        }
        out.sort(Comparator.comparing((Chain c) -> c.of().get(0)).thenComparing(c -> c.of().get(1))
                .thenComparing(Chain::implies));
        return out.stream().distinct().toList();
    }

    private static SortedMap<String, String> sorted(Map<String, String> m) {
        return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(m == null ? Map.of() : m));
    }

    private static void check(String p) {
        Objects.requireNonNull(p, "predicate");
        if (!PREDICATE.matcher(p).matches()) {
            throw new IllegalArgumentException("predicate '" + p + "' must match [a-z][a-z0-9_-]{0,31}");
        }
    }
}
