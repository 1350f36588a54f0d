package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.Withdrawal;
import dev.palimpsest.model.Policy;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.LayerCounts;
import dev.palimpsest.model.ReceiptReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Cleanup as set arithmetic over one commit's receipts: the roots of a withdrawal (a document and
 * its assertions, every assertion using a predicate, or facts retracted by id), the cascade that
 * follows from them, and the per-layer report. Thread-safe once built (the baseline is copied for each plan).
 */
public final class Cleanup {

    private final ReceiptGraph g;
    private final Liveness baseline;
    private final Map<Integer, int[]> bySource = new HashMap<>();
    private final Map<String, int[]> byPredicate = new HashMap<>();

    /** Cleanup under the trust policy of the graph's commit. */
    public Cleanup(ReceiptGraph g) {
        this(g, Liveness.policyOf(g));
    }

    /** Cleanup under {@code policy} instead of the commit's own (a dry run or a benchmark). */
    public Cleanup(ReceiptGraph g, dev.palimpsest.model.TrustPolicy policy) {
        this.g = g;
        this.baseline = Liveness.at(g, policy);
        Map<Integer, ReceiptGraph.IntList> src = new HashMap<>();
        Map<String, ReceiptGraph.IntList> pred = new HashMap<>();
        for (int n = 0; n < g.size(); n++) {
            if (g.kind[n] == ReceiptGraph.ASSERTION && g.live[n] && g.facts[n] != null) {
                if (g.sourceOf[n] != -1) {
                    src.computeIfAbsent(g.sourceOf[n], k -> new ReceiptGraph.IntList()).add(n);
                }
                pred.computeIfAbsent(g.facts[n].grounding().predicate(), k -> new ReceiptGraph.IntList()).add(n);
            }
        }
        src.forEach((k, v) -> bySource.put(k, v.toArray()));
        pred.forEach((k, v) -> byPredicate.put(k, v.toArray()));
    }

    public ReceiptGraph graph() {
        return g;
    }

    /** The trust policy this cleanup plans under. */
    public dev.palimpsest.model.TrustPolicy policy() {
        return baseline.policy;
    }

    public Liveness baseline() {
        return baseline;
    }

    /** The live root nodes of retracting {@code docs}: each live document and its live assertions. */
    public int[] sourceRoots(List<FactId> docs) {
        ReceiptGraph.IntList out = new ReceiptGraph.IntList();
        for (FactId d : docs) {
            int n = g.find(d);
            if (n < 0) {
                continue;
            }
            if (g.live[n]) {
                out.add(n);
            }
            for (int a : bySource.getOrDefault(n, new int[0])) {
                out.add(a);
            }
        }
        return out.toArray();
    }

    /** The live assertions using {@code predicate}. */
    public int[] predicateRoots(String predicate) {
        return byPredicate.getOrDefault(predicate, new int[0]).clone();
    }

    /** The set arithmetic alone: the baseline with {@code roots} killed, propagated. */
    public Liveness after(int[] roots) {
        Liveness l = baseline.copy();
        l.kill(roots, roots.length);
        return l;
    }

    /** The full plan of a withdrawal with these roots (roots are retracted as roots, never again as removals). */
    public CleanupPlan plan(Withdrawal operation, List<String> targets, String reason, int[] roots) {
        Liveness l = after(roots);
        java.util.BitSet isRoot = new java.util.BitSet(g.size());
        for (int r : roots) {
            isRoot.set(r);
        }
        List<FactId> rootIds = Arrays.stream(roots).boxed().distinct()
                .sorted(Comparator.comparingInt((Integer r) -> g.kind[r]).thenComparing(r -> g.ids.get(r)))
                .map(g.ids::get).toList();
        List<Integer> removed = new ArrayList<>();
        List<CleanupPlan.Revision> revisions = new ArrayList<>();
        List<FactId> touched = new ArrayList<>();
        for (int n = 0; n < g.size(); n++) {
            byte k = g.kind[n];
            if (!g.live[n] || k < ReceiptGraph.MERGE || isRoot.get(n)) {
                continue;
            }
            if (l.dead.get(n)) {
                removed.add(n);
            } else if (l.partlyDead(n)) {
                List<Integer> dropped = new ArrayList<>();
                for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
                    if (l.unitDead(u)) {
                        dropped.add(g.unitSentence[u]);
                    }
                }
                revisions.add(new CleanupPlan.Revision(g.ids.get(n), dropped, g.sentenceCount[n] - dropped.size()));
            } else if (l.touched.get(n)) {
                touched.add(g.ids.get(n));
            }
        }
        removed.sort(Comparator.comparingInt((Integer n) -> g.kind[n]).thenComparing(n -> g.ids.get(n)));
        List<CleanupPlan.Removal> removals = new ArrayList<>(removed.size());
        for (int n : removed) {
            String why = l.policy.distrusts(Layer.parse(ReceiptGraph.LAYER[g.kind[n]])) && !allUnitsDead(l, n)
                    ? "receipt touched (" + ReceiptGraph.LAYER[g.kind[n]] + " receipts distrusted)"
                    : g.flat[n] && l.policy.flat() == Policy.DISTRUST && !l.unitDead(g.firstUnit[n])
                    ? "flat summary receipt touched (policy distrust)" : "no live bundle";
            removals.add(new CleanupPlan.Removal(g.ids.get(n), Layer.parse(ReceiptGraph.LAYER[g.kind[n]]), why));
        }
        return new CleanupPlan(CommitId.of(g.commit.name()), operation, targets, reason,
                l.policy.flat(), rootIds, removals, revisions, touched);
    }

    private boolean allUnitsDead(Liveness l, int n) {
        for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
            if (!l.unitDead(u)) {
                return false;
            }
        }
        return true;
    }

    /** True when {@code id} is a live artifact without a live bundle or with dead sentences (cleanup pending). */
    public boolean pending(FactId id) {
        int n = g.find(id);
        return n >= 0 && g.live[n] && g.kind[n] >= ReceiptGraph.MERGE && (!baseline.alive(n) || baseline.partlyDead(n));
    }

    /**
     * The cascade {@code plan} (a plan without roots) restricted to the artifacts {@code keep} accepts:
     * its removals and revisions of other artifacts are left out (they stay pending).
     */
    public static CleanupPlan restrict(CleanupPlan plan, java.util.function.Predicate<FactId> keep) {
        return new CleanupPlan(plan.at(), plan.operation(), plan.targets(), plan.reason(), plan.policy(), plan.roots(),
                plan.removals().stream().filter(r -> keep.test(r.id())).toList(),
                plan.revisions().stream().filter(r -> keep.test(r.id())).toList(), plan.touched());
    }

    /** The fact of a live node, as decoded (null for sources and plain facts). */
    public Fact fact(FactId id) {
        int n = g.find(id);
        return n < 0 ? null : g.facts[n];
    }

    /** Alive, dead, touched and pending per layer at the graph's commit. */
    public ReceiptReport report() {
        int[][] c = new int[6][4];
        Liveness l = baseline;
        for (int n = 0; n < g.size(); n++) {
            byte k = g.kind[n];
            if (k < ReceiptGraph.ASSERTION) {
                continue;
            }
            boolean alive = g.live[n] && l.alive(n);
            c[k][alive ? 0 : 1]++;
            if (alive && l.touched.get(n)) {
                c[k][2]++;
            }
            if (g.live[n] && (!alive || l.partlyDead(n))) {
                c[k][3]++;
            }
        }
        TreeMap<Layer, LayerCounts> layers = new TreeMap<>();
        for (byte k = ReceiptGraph.ASSERTION; k <= ReceiptGraph.SUMMARY; k++) {
            layers.put(Layer.parse(ReceiptGraph.LAYER[k]), new LayerCounts(c[k][0], c[k][1], c[k][2], c[k][3]));
        }
        return new ReceiptReport(CommitId.of(g.commit.name()), g.config.distrustFlat() ? Policy.DISTRUST : Policy.TRUST, layers);
    }
}
