package dev.palimpsest.internal.write;

import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.RefPin;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Rule;
import java.util.HashMap;
import java.util.Map;

/**
 * The gate's claim and supersession rules (checked at write time only): a claim (kind
 * {@code entity-claim}) states a triple whose subject, predicate and object each normalise to a
 * non-empty {@link EntityKey}, and cites at least one source (ref role {@code source}); a fact
 * never supersedes itself, nor a fact that a live fact (or another fact of the same transaction)
 * already supersedes. Not thread-safe (one per gate).
 */
final class ClaimRules {
    private final ReferenceGate gate;
    /** Target -> the fact of this transaction that supersedes it. */
    private final Map<FactId, FactId> supersededHere = new HashMap<>();

    ClaimRules(ReferenceGate gate) {
        this.gate = gate;
    }

    /** Supersession checks of the new refs {@code refs} of fact {@code id} (asserted or revised). */
    void supersessions(FactId id, java.util.List<RefSpec> refs) {
        java.util.Set<FactId> seen = new java.util.HashSet<>();
        for (RefSpec s : refs) {
            if (!RefRole.SUPERSEDES.equals(s.role()) || !seen.add(s.target())) {
                continue; // a repeated ref is a duplicate-ref, reported once by the ref rules
            }
            String subject = "ref " + id + " -> " + s.target();
            if (s.target().equals(id)) {
                gate.violation(Rule.SELF_SUPERSESSION, subject, "fact " + id + " cannot supersede itself: a "
                        + "correction is a new fact with its own id, so the old one survives to be pointed at");
                continue;
            }
            FactId successor = supersededHere.putIfAbsent(s.target(), id);
            if (successor == null) {
                successor = liveSuccessor(s.target());
            }
            if (successor != null) {
                gate.violation(Rule.ALREADY_SUPERSEDED, subject, s.target() + " was already superseded by "
                        + successor);
            }
        }
    }

    /** The live fact at the parent that supersedes {@code target}, or null (smallest id when several). */
    private FactId liveSuccessor(FactId target) {
        FactId best = null;
        for (String citer : gate.index.citers(target)) {
            FactState st = gate.versions.state(FactId.of(citer));
            if (st == null || !st.live()) {
                continue;
            }
            for (RefPin r : st.refs()) {
                if (r.target().equals(target.value()) && RefRole.SUPERSEDES.value().equals(r.role())) {
                    FactId f = FactId.of(citer);
                    if (best == null || f.value().compareTo(best.value()) < 0) {
                        best = f;
                    }
                }
            }
        }
        return best;
    }

    /** The claim rules of the fact {@code f} that {@code a} writes; true when none broke. */
    boolean claim(Operation.Assert a, Fact f) {
        if (!Kind.ENTITY_CLAIM.equals(f.kind())) {
            return true;
        }
        String subject = "fact " + f.id();
        boolean ok = true;
        var g = f.grounding();
        if (!g.hasTriple()) {
            gate.violation(Rule.CLAIM_TRIPLE, subject, "a claim states one triple: subject, predicate, object");
            ok = false;
        } else {
            for (String[] part : new String[][] {{"subject", g.subject()}, {"predicate", g.predicate()},
                    {"object", g.object()}}) {
                if (EntityKey.of(part[1]).isEmpty()) {
                    gate.violation(Rule.CLAIM_TRIPLE, subject, "the claim's " + part[0] + " '" + part[1]
                            + "' holds no word character (its normalised key is empty)");
                    ok = false;
                }
            }
        }
        if (a.refs().stream().noneMatch(r -> RefRole.SOURCE.equals(r.role()))) {
            gate.violation(Rule.CLAIM_SOURCE, subject, "a claim cites at least one source (ref role 'source')");
            ok = false;
        }
        return ok;
    }
}
