package dev.palimpsest.internal.write;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Rule;
import java.util.HashMap;
import java.util.Map;

/**
 * The gate's claim and supersession rules: the per-fact ones (a claim's triple and source, no
 * self-supersession) through the shared {@link dev.palimpsest.internal.rules.ClaimRules}, which
 * the audit replays; and, at write time only (it needs the history at the parent), that a fact
 * never supersedes a fact that a live fact (or another fact of the same transaction) already
 * supersedes. Not thread-safe (one per gate).
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
            if (!dev.palimpsest.internal.rules.ClaimRules.notSelfSuperseding(id, s.target(), s.role(),
                    (rule, msg) -> gate.violation(rule, subject, msg))) {
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
        String s = gate.index.liveSuperseder(target.value(), gate.parent.commit());
        return s == null ? null : FactId.of(s);
    }

    /** The claim rules of the fact {@code f} that {@code a} writes; true when none broke. */
    boolean claim(Operation.Assert a, Fact f) {
        String subject = "fact " + f.id();
        return dev.palimpsest.internal.rules.ClaimRules.claim(f, a.refs().stream().map(RefSpec::role).toList(),
                (rule, msg) -> gate.violation(rule, subject, msg));
    }
}
