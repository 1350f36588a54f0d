package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.Withdrawal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The re-derivation audit of a withdrawal at one commit: the artifacts its roots touch (a bundle of
 * theirs lost a member) are each put to an oracle — is the artifact still supported by the evidence
 * that survives? — and the oracle's decision is compared with what the receipts' set arithmetic
 * does to it (kept, possibly revised, or removed). Entailed edges are decided by the symbolic oracle:
 * entailment recomputed from the surviving assertions under the commit's axioms. Merges, summaries and
 * model-authored edges go to the given {@link Oracle}, {@code draws} times each: alive when the share
 * of alive answers is at least 1 - tau, dead when the share of dead answers is, undecided otherwise
 * (an answer that is neither counts for neither). Stateless; arguments must not be null unless
 * documented.
 */
public final class Rederivation {
    /**
     * One graded artifact as the oracle sees it: its id, layer and fact, whether the plan keeps it,
     * the receipt members that survive ({@code evidence}, each with its fact: null for a source
     * document) and those the withdrawal kills ({@code lost}).
     */
    public record Graded(FactId id, Layer layer, Fact fact, boolean kept, Map<FactId, Fact> evidence,
            List<FactId> lost) {}

    /** An oracle asked about one graded artifact: TRUE alive, FALSE dead, null no usable answer. */
    @FunctionalInterface
    public interface Oracle {
        Boolean draw(Graded artifact, int draw);
    }

    private Rederivation() {}

    /**
     * Every artifact (merge, edge, summary) live at the graph's commit, by id, with what the
     * withdrawal of {@code roots} leaves of its receipts. Untouched artifacts are graded too: a leak
     * through a receipt that omits a withdrawn member is kept and untouched, and only the oracle can
     * see it.
     */
    public static List<Graded> graded(Cleanup c, int[] roots) {
        ReceiptGraph g = c.graph();
        Liveness l = c.after(roots);
        Set<Integer> isRoot = new HashSet<>();
        for (int r : roots) {
            isRoot.add(r);
        }
        List<Graded> out = new ArrayList<>();
        for (int n = 0; n < g.size(); n++) {
            if (!g.live[n] || g.kind[n] < ReceiptGraph.MERGE || isRoot.contains(n)) {
                continue;
            }
            Map<FactId, Fact> evidence = new java.util.TreeMap<>();
            Set<FactId> lost = new java.util.TreeSet<>();
            for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
                for (int b = g.unitFirstBundle[u]; b < g.unitFirstBundle[u + 1]; b++) {
                    for (int i = g.bundleStart[b]; i < g.bundleStart[b + 1]; i++) {
                        int m = g.members[i];
                        if (l.dead.get(m)) {
                            lost.add(g.ids.get(m));
                        } else {
                            evidence.put(g.ids.get(m), g.facts[m]);
                        }
                    }
                }
            }
            out.add(new Graded(g.ids.get(n), Layer.parse(ReceiptGraph.LAYER[g.kind[n]]), g.facts[n], !l.dead.get(n),
                    java.util.Collections.unmodifiableMap(evidence), List.copyOf(lost)));
        }
        out.sort(java.util.Comparator.comparing(Graded::id));
        return out;
    }

    /** The ids of the entailed edges that entailment from the assertions surviving {@code roots} still derives. */
    public static Set<FactId> entailedAfter(Cleanup c, int[] roots) {
        ReceiptGraph g = c.graph();
        Set<String> dead = new HashSet<>();
        for (int r : roots) {
            dead.add(g.ids.get(r).value());
        }
        Entailer e = new Entailer(g.config.ontology());
        EntailSync.assertions(g).forEach((id, t) -> {
            if (!dead.contains(id)) {
                e.addAssertion(id, t);
            }
        });
        e.apply();
        Set<FactId> out = new HashSet<>();
        e.entailed().forEach(t -> out.add(EntailSync.edgeId(t)));
        return out;
    }

    /**
     * The audit of the withdrawal {@code operation} of {@code targets} whose roots are {@code roots}:
     * per layer, every live artifact decided and compared with the plan. {@code judge} may be null:
     * the artifacts it would decide are then ungraded. The caller has checked {@code draws >= 1} and
     * {@code 0 <= tau < 0.5} (the API refuses others with the rule book's invalid-argument rule).
     */
    public static RederiveReport audit(Cleanup c, Withdrawal operation, List<String> targets, int[] roots, int draws,
            double tau, Oracle judge) {
        Set<FactId> derivable = null;
        Map<Layer, Tally> tallies = new EnumMap<>(Layer.class);
        for (Layer layer : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
            tallies.put(layer, new Tally());
        }
        for (Graded t : graded(c, roots)) {
            Tally tally = tallies.get(t.layer());
            Boolean alive;
            if (t.layer() == Layer.EDGE && EntailSync.isEntailedEdge(t.fact())) {
                if (derivable == null) {
                    derivable = entailedAfter(c, roots);
                }
                alive = derivable.contains(t.id());
                tally.symbolic = true;
            } else if (judge == null) {
                tally.ungraded++;
                tally.graded++;
                continue;
            } else {
                alive = decide(judge, t, draws, tau);
                tally.judged = true;
            }
            tally.add(t, alive);
        }
        Map<Layer, RederiveReport.LayerAudit> layers = new EnumMap<>(Layer.class);
        tallies.forEach((layer, t) -> layers.put(layer, t.audit()));
        return new RederiveReport(dev.palimpsest.model.CommitId.of(c.graph().commit().name()), operation, targets,
                draws, tau, layers);
    }

    /** The oracle's decision on {@code t} over {@code draws} draws: TRUE alive, FALSE dead, null undecided. */
    public static Boolean decide(Oracle oracle, Graded t, int draws, double tau) {
        int alive = 0;
        int dead = 0;
        for (int d = 0; d < draws; d++) {
            Boolean v = oracle.draw(t, d);
            if (Boolean.TRUE.equals(v)) {
                alive++;
            } else if (Boolean.FALSE.equals(v)) {
                dead++;
            }
        }
        // the fewest votes that are at least draws * (1 - tau), with room for the double's rounding
        int need = (int) Math.ceil(draws * (1.0 - tau) - 1e-9);
        if (alive >= need) {
            return Boolean.TRUE;
        }
        return dead >= need ? Boolean.FALSE : null;
    }

    private static final class Tally {
        int graded;
        int alive;
        int dead;
        int undecided;
        int ungraded;
        int agree;
        boolean symbolic;
        boolean judged;
        final List<FactId> leaky = new ArrayList<>();
        final List<FactId> over = new ArrayList<>();

        void add(Graded t, Boolean decided) {
            graded++;
            if (decided == null) {
                undecided++;
                return;
            }
            if (decided) {
                alive++;
            } else {
                dead++;
            }
            if (t.kept() && !decided) {
                leaky.add(t.id());
            } else if (!t.kept() && decided) {
                over.add(t.id());
            } else {
                agree++;
            }
        }

        RederiveReport.LayerAudit audit() {
            String oracle = symbolic && judged ? "symbolic+judge" : symbolic ? "symbolic" : judged ? "judge" : "none";
            return new RederiveReport.LayerAudit(oracle, graded, alive, dead, undecided, ungraded, leaky.size(),
                    over.size(), agree, leaky, over);
        }
    }
}
