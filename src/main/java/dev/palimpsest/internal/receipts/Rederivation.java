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
 * The re-derivation audit of a withdrawal at one commit: every live artifact is put to an oracle —
 * would it still be concluded from the corpus that survives? — and the oracle's decision is compared
 * with what the receipts' set arithmetic does to it (kept, possibly revised, or removed). The oracle
 * is shown the surviving corpus relevant to the artifact: the surviving members of its receipt and
 * every other surviving assertion on the entities it is about, in one list, so that a receipt that
 * omits a withdrawn member or a live alternative is not graded against itself. A sentence summary is
 * audited per sentence: the sentences the plan keeps are each put to the oracle (a dropped sentence
 * is not held against the plan); a removed one is put sentence by sentence too, and is alive when any
 * sentence is. Entailed edges are decided by the symbolic oracle: entailment recomputed from the
 * surviving assertions under the commit's axioms. Merges, summaries and model-authored edges go to the
 * given {@link Oracle}, {@code draws} times per question: alive when the share of alive answers is at
 * least 1 - tau, dead when the share of dead answers is, undecided otherwise (an answer that is neither
 * counts for neither). A second oracle, when given, decides the same questions and its agreement with
 * the first is reported per layer. Stateless; arguments must not be null unless documented.
 */
public final class Rederivation {
    /** The most other surviving assertions on an artifact's entities shown beside its receipt's survivors. */
    public static final int MAX_CONTEXT = 40;

    /** One question about an artifact: its whole text ({@code sentence} -1) or one sentence of a summary. */
    public record Claim(int sentence, String text) {}

    /**
     * One graded artifact as the oracle sees it: its id, layer and fact, whether the plan keeps it,
     * the receipt members that survive ({@code evidence}, each with its fact: null for a source
     * document), those the withdrawal kills ({@code lost}), the other surviving assertions on the
     * entities it is about ({@code context}), and the {@code claims} put to the oracle.
     */
    public record Graded(FactId id, Layer layer, Fact fact, boolean kept, Map<FactId, Fact> evidence,
            List<FactId> lost, Map<FactId, Fact> context, List<Claim> claims) {
        /** An artifact asked about as a whole, without context beyond its receipt. */
        public Graded(FactId id, Layer layer, Fact fact, boolean kept, Map<FactId, Fact> evidence, List<FactId> lost) {
            this(id, layer, fact, kept, evidence, lost, Map.of(), List.of(new Claim(-1, text(fact))));
        }

        /** The surviving corpus shown to the oracle: the receipt's survivors and the context, by id. */
        public java.util.SortedMap<FactId, Fact> corpus() {
            java.util.TreeMap<FactId, Fact> all = new java.util.TreeMap<>(context);
            all.putAll(evidence);
            return all;
        }

        /** True when the claims are sentences of a summary the plan removes: alive when any sentence is. */
        boolean anySentence() {
            return !kept && claims.size() > 1;
        }
    }

    /** An oracle asked about one claim of one graded artifact: TRUE alive, FALSE dead, null no usable answer. */
    @FunctionalInterface
    public interface Oracle {
        Boolean draw(Graded artifact, Claim claim, int draw);
    }

    private Rederivation() {}

    /** The text of {@code f} put to an oracle: an edge's triple, a summary's sentences, a merge's body. */
    public static String text(Fact f) {
        var g = f.grounding();
        if (g.hasTriple()) {
            return g.subject() + " " + g.predicate() + " " + g.object();
        }
        if (!g.sentences().isEmpty()) {
            StringBuilder s = new StringBuilder();
            for (dev.palimpsest.model.Sentence x : g.sentences()) {
                s.append(s.length() == 0 ? "" : " ").append(x.text());
            }
            return s.toString();
        }
        return f.body();
    }

    /**
     * Every artifact (merge, edge, summary) live at the graph's commit, by id, with what the
     * withdrawal of {@code roots} leaves of its receipts and of the corpus on its entities. Untouched
     * artifacts are graded too: a leak through a receipt that omits a withdrawn member is kept and
     * untouched, and only the oracle can see it.
     */
    public static List<Graded> graded(Cleanup c, int[] roots) {
        ReceiptGraph g = c.graph();
        Liveness l = c.after(roots);
        Set<Integer> isRoot = new HashSet<>();
        for (int r : roots) {
            isRoot.add(r);
        }
        Map<String, List<Integer>> onEntity = new java.util.HashMap<>();
        for (int n = 0; n < g.size(); n++) {
            if (g.live[n] && g.kind[n] == ReceiptGraph.ASSERTION && !l.dead.get(n) && g.facts[n] != null) {
                for (String e : entities(g.facts[n])) {
                    onEntity.computeIfAbsent(e, k -> new ArrayList<>()).add(n);
                }
            }
        }
        List<Graded> out = new ArrayList<>();
        for (int n = 0; n < g.size(); n++) {
            if (!g.live[n] || g.kind[n] < ReceiptGraph.MERGE || isRoot.contains(n)) {
                continue;
            }
            Map<FactId, Fact> evidence = new java.util.TreeMap<>();
            Set<FactId> lost = new java.util.TreeSet<>();
            Set<String> about = new java.util.TreeSet<>(entities(g.facts[n]));
            for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
                for (int b = g.unitFirstBundle[u]; b < g.unitFirstBundle[u + 1]; b++) {
                    for (int i = g.bundleStart[b]; i < g.bundleStart[b + 1]; i++) {
                        int m = g.members[i];
                        if (g.facts[m] != null) {
                            about.addAll(entities(g.facts[m]));
                        }
                        if (l.dead.get(m)) {
                            lost.add(g.ids.get(m));
                        } else {
                            evidence.put(g.ids.get(m), g.facts[m]);
                        }
                    }
                }
            }
            java.util.TreeSet<Integer> near = new java.util.TreeSet<>(java.util.Comparator.comparing(g.ids::get));
            for (String e : about) {
                near.addAll(onEntity.getOrDefault(e, List.of()));
            }
            Map<FactId, Fact> context = new java.util.TreeMap<>();
            for (int m : near) {
                if (context.size() == MAX_CONTEXT) {
                    break;
                }
                if (m != n && !evidence.containsKey(g.ids.get(m))) {
                    context.put(g.ids.get(m), g.facts[m]);
                }
            }
            boolean kept = !l.dead.get(n);
            out.add(new Graded(g.ids.get(n), Layer.parse(ReceiptGraph.LAYER[g.kind[n]]), g.facts[n], kept,
                    java.util.Collections.unmodifiableMap(evidence), List.copyOf(lost),
                    java.util.Collections.unmodifiableMap(context), claims(g, l, n, kept)));
        }
        out.sort(java.util.Comparator.comparing(Graded::id));
        return out;
    }

    /**
     * The questions about node {@code n}: the whole text, or for a sentence summary (not flat) the
     * sentences the plan keeps, all of them when it removes the summary.
     */
    private static List<Claim> claims(ReceiptGraph g, Liveness l, int n, boolean kept) {
        Fact f = g.facts[n];
        List<dev.palimpsest.model.Sentence> ss = f.grounding().sentences();
        if (ss.isEmpty() || g.flat[n]) {
            return List.of(new Claim(-1, text(f)));
        }
        boolean[] dropped = new boolean[ss.size()];
        for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
            if (g.unitSentence[u] >= 0 && l.unitDead(u)) {
                dropped[g.unitSentence[u]] = true;
            }
        }
        List<Claim> out = new ArrayList<>();
        for (int i = 0; i < ss.size(); i++) {
            if (!kept || !dropped[i]) {
                out.add(new Claim(i, ss.get(i).text()));
            }
        }
        return out;
    }

    /** The normalised names {@code f} is about: its triple's subject and object, a merge's two sides. */
    static Set<String> entities(Fact f) {
        Set<String> out = new HashSet<>();
        var gr = f.grounding();
        for (String s : new String[] {gr.subject(), gr.object()}) {
            if (s != null) {
                out.add(dev.palimpsest.model.EntityKey.of(s));
            }
        }
        if (dev.palimpsest.model.Kind.MERGE.equals(f.kind()) && f.body().contains("==")) {
            for (String side : f.body().split("==")) {
                out.add(dev.palimpsest.model.EntityKey.of(side));
            }
        }
        out.remove("");
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
     * per layer, every live artifact decided and compared with the plan. {@code oracles} holds none,
     * one, or an oracle and a second one: without one the artifacts a model would decide are
     * ungraded; the second's decisions are compared with the first's. The caller has checked
     * {@code draws >= 1} and {@code 0 <= tau < 0.5} (the API refuses others with the rule book's
     * invalid-argument rule).
     */
    public static RederiveReport audit(Cleanup c, Withdrawal operation, List<String> targets, int[] roots, int draws,
            double tau, List<Oracle> oracles, String secondName) {
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
            } else if (oracles.isEmpty()) {
                tally.ungraded++;
                tally.graded++;
                continue;
            } else {
                alive = decide(oracles.get(0), t, draws, tau);
                tally.judged = true;
                if (oracles.size() > 1) {
                    tally.second(t.id(), alive, decide(oracles.get(1), t, draws, tau));
                }
            }
            tally.add(t, alive);
        }
        Map<Layer, RederiveReport.LayerAudit> layers = new EnumMap<>(Layer.class);
        tallies.forEach((layer, t) -> layers.put(layer, t.audit(oracles.size() > 1 ? secondName : null)));
        return new RederiveReport(dev.palimpsest.model.CommitId.of(c.graph().commit().name()), operation, targets,
                draws, tau, layers, c.policy());
    }

    /**
     * The oracle's decision on {@code t}: each claim decided over {@code draws} draws, then TRUE alive
     * (every claim alive, or for a removed sentence summary any), FALSE dead (any claim dead, or for a
     * removed sentence summary every one), null undecided.
     */
    public static Boolean decide(Oracle oracle, Graded t, int draws, double tau) {
        int alive = 0;
        int dead = 0;
        for (Claim claim : t.claims()) {
            Boolean v = decide(oracle, t, claim, draws, tau);
            if (Boolean.TRUE.equals(v)) {
                alive++;
            } else if (Boolean.FALSE.equals(v)) {
                dead++;
            }
        }
        int n = t.claims().size();
        if (t.anySentence()) {
            return alive > 0 ? Boolean.TRUE : dead == n ? Boolean.FALSE : null;
        }
        return dead > 0 ? Boolean.FALSE : alive == n ? Boolean.TRUE : null;
    }

    /** The oracle's decision on one claim over {@code draws} draws: TRUE alive, FALSE dead, null undecided. */
    public static Boolean decide(Oracle oracle, Graded t, Claim claim, int draws, double tau) {
        int alive = 0;
        int dead = 0;
        for (int d = 0; d < draws; d++) {
            Boolean v = oracle.draw(t, claim, d);
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
        int bothDecided;
        final List<FactId> disagree = new ArrayList<>();

        void second(FactId id, Boolean first, Boolean second) {
            if (first != null && second != null) {
                bothDecided++;
                if (!first.equals(second)) {
                    disagree.add(id);
                }
            }
        }

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

        RederiveReport.LayerAudit audit(String secondName) {
            String oracle = symbolic && judged ? "symbolic+judge" : symbolic ? "symbolic" : judged ? "judge" : "none";
            RederiveReport.Agreement a = secondName == null || !judged ? RederiveReport.Agreement.NONE
                    : new RederiveReport.Agreement(secondName, bothDecided, bothDecided - disagree.size(), disagree);
            return new RederiveReport.LayerAudit(oracle, graded, alive, dead, undecided, ungraded, leaky.size(),
                    over.size(), agree, leaky, over, a);
        }
    }
}
