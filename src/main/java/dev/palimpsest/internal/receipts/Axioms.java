package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.yaml.Ontology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An ontology's axioms as rule tables looked up by predicate, in both directions: forward (what a
 * triple with predicate p lets one conclude) and backward (which premises conclude a triple with
 * predicate p). Sub-property p ⊑ q; inverse p ≡ q⁻ (symmetric); two-step chains p1∘p2 ⊑ q (a
 * transitive p is the chain p∘p ⊑ p). Immutable after construction; thread-safe.
 */
final class Axioms {
    private final Map<String, List<String>> sub = new HashMap<>();
    private final Map<String, List<String>> subBack = new HashMap<>();
    private final Map<String, List<String>> inv = new HashMap<>();
    private final Map<String, List<String>> invBack = new HashMap<>();
    private final Map<String, List<String[]>> byFirst = new HashMap<>();
    private final Map<String, List<String[]>> bySecond = new HashMap<>();
    private final Map<String, List<String[]>> chainBack = new HashMap<>();

    Axioms(Ontology ontology) {
        ontology.subproperty().forEach((p, q) -> {
            sub.computeIfAbsent(p, k -> new ArrayList<>()).add(q);
            subBack.computeIfAbsent(q, k -> new ArrayList<>()).add(p);
        });
        ontology.inverse().forEach((p, q) -> {
            addInverse(p, q);
            addInverse(q, p);
        });
        for (Ontology.Chain c : ontology.chainRules()) {
            String p1 = c.of().get(0);
            String p2 = c.of().get(1);
            byFirst.computeIfAbsent(p1, k -> new ArrayList<>()).add(new String[] {p2, c.implies()});
            bySecond.computeIfAbsent(p2, k -> new ArrayList<>()).add(new String[] {p1, c.implies()});
            chainBack.computeIfAbsent(c.implies(), k -> new ArrayList<>()).add(new String[] {p1, p2});
        }
    }

    private void addInverse(String p, String q) {
        List<String> l = inv.computeIfAbsent(p, k -> new ArrayList<>());
        if (!l.contains(q)) {
            l.add(q);
            invBack.computeIfAbsent(q, k -> new ArrayList<>()).add(p);
        }
    }

    /** The super-properties q of p (p ⊑ q): (s p o) gives (s q o). */
    List<String> sub(String p) {
        return sub.getOrDefault(p, List.of());
    }

    /** The sub-properties of p: (s q o) with q ⊑ p gives (s p o). */
    List<String> subBack(String p) {
        return subBack.getOrDefault(p, List.of());
    }

    /** The inverses q of p: (s p o) gives (o q s). */
    List<String> inv(String p) {
        return inv.getOrDefault(p, List.of());
    }

    /** The properties whose inverse is p. */
    List<String> invBack(String p) {
        return invBack.getOrDefault(p, List.of());
    }

    /** Chains whose first step is p: {second step, conclusion}. */
    List<String[]> byFirst(String p) {
        return byFirst.getOrDefault(p, List.of());
    }

    /** Chains whose second step is p: {first step, conclusion}. */
    List<String[]> bySecond(String p) {
        return bySecond.getOrDefault(p, List.of());
    }

    /** Chains concluding p: {first step, second step}. */
    List<String[]> chainBack(String p) {
        return chainBack.getOrDefault(p, List.of());
    }
}
