package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.yaml.Ontology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;

/**
 * Entailment under the ontology's axioms (sub-property, inverse, two-step chains, transitivity as
 * the chain p∘p ⊑ p), maintained incrementally. A triple's rank is 0 when some live assertion
 * states it, else 1 + the least, over its derivations, of the largest premise rank (its shortest
 * derivation depth); triples of rank >= 1 are the entailed edges. An edge's derivations are the
 * rule instances whose premises all have a smaller rank, so receipts never form cycles.
 *
 * <p>Changes (assertions added or removed) are applied by delete-and-rederive over the affected
 * region only: the forward closure of the changed triples, re-ranked by a Knuth-style least-rank
 * propagation with everything outside the region fixed. The state is a function of the live
 * assertions alone, so an incremental result equals a from-scratch one. The applied state can be
 * exported and restored without re-evaluating rules ({@link #export()}, {@link #restore}), which is
 * how it outlives a process ({@link EntailStateFile}). Not thread-safe.
 */
public final class Entailer {
    /** A subject-predicate-object triple. */
    public record Triple(String s, String p, String o) {
        String key() {
            return s + '\u0000' + p + '\u0000' + o;
        }
    }

    /**
     * An entailer's applied state: the present triples, their ranks (same order; 0 asserted, >= 1
     * entailed) and the assertions (id -> triple). Immutable (copied).
     */
    public record State(List<Triple> triples, int[] ranks, Map<String, Triple> assertions) {
        public State {
            triples = List.copyOf(triples);
            ranks = ranks.clone();
            assertions = Map.copyOf(assertions);
            if (ranks.length != triples.size()) {
                throw new IllegalArgumentException(triples.size() + " triples but " + ranks.length + " ranks");
            }
        }
    }

    /** One rule instance: its premises (triple ids). */
    record Derivation(int[] premises) {}

    private final Axioms axioms;

    private final Map<String, Integer> ids = new HashMap<>();
    private final List<Triple> triples = new ArrayList<>();
    private int[] rank = new int[1024];
    private final Map<Integer, TreeSet<String>> asserted = new HashMap<>();
    private final Map<String, Integer> assertionTriple = new HashMap<>();
    private final Map<String, Set<Integer>> out = new HashMap<>();
    private final Map<String, Set<Integer>> in = new HashMap<>();
    private final Set<Integer> seeds = new LinkedHashSet<>();

    public Entailer(Ontology ontology) {
        this.axioms = new Axioms(ontology);
    }

    /** Records that assertion {@code id} states {@code t}; takes effect at {@link #apply()}. */
    public void addAssertion(String id, Triple t) {
        if (assertionTriple.containsKey(id)) {
            return;
        }
        int tid = intern(t);
        assertionTriple.put(id, tid);
        asserted.computeIfAbsent(tid, k -> new TreeSet<>()).add(id);
        seeds.add(tid);
    }

    /** Records that assertion {@code id} is gone; takes effect at {@link #apply()}. */
    public void removeAssertion(String id) {
        Integer tid = assertionTriple.remove(id);
        if (tid == null) {
            return;
        }
        TreeSet<String> set = asserted.get(tid);
        set.remove(id);
        if (set.isEmpty()) {
            asserted.remove(tid);
        }
        seeds.add(tid);
    }

    /** The triple assertion {@code id} states as recorded, or null when none is recorded. */
    public Triple assertion(String id) {
        Integer tid = assertionTriple.get(id);
        return tid == null ? null : triples.get(tid);
    }

    /** The recorded assertions: id -> triple (a copy). */
    public Map<String, Triple> assertions() {
        Map<String, Triple> out = new HashMap<>();
        assertionTriple.forEach((id, t) -> out.put(id, triples.get(t)));
        return out;
    }

    /**
     * The applied state: every present triple (asserted or entailed) with its rank, and the recorded
     * assertions. Restoring it ({@link #restore}) gives an entailer that behaves exactly like this one.
     *
     * @throws IllegalStateException when changes are recorded but not applied yet
     */
    public State export() {
        if (!seeds.isEmpty()) {
            throw new IllegalStateException("changes are recorded but not applied");
        }
        List<Triple> present = new ArrayList<>();
        int[] ranks = new int[triples.size()];
        for (int t = 0; t < triples.size(); t++) {
            if (rank[t] >= 0) {
                ranks[present.size()] = rank[t];
                present.add(triples.get(t));
            }
        }
        return new State(present, Arrays.copyOf(ranks, present.size()), assertions());
    }

    /**
     * An entailer in {@code state} under {@code ontology}, without evaluating any rule: the ranks are
     * taken as given and only the lookup maps are rebuilt (linear in the state's size).
     *
     * @throws IllegalArgumentException when the state is inconsistent: a triple given twice, a negative
     *     rank, an assertion of a triple that is absent or not of rank 0, or a rank-0 triple nothing asserts
     */
    public static Entailer restore(Ontology ontology, State state) {
        Entailer e = new Entailer(ontology);
        for (int i = 0; i < state.triples().size(); i++) {
            Triple t = state.triples().get(i);
            int r = state.ranks()[i];
            if (r < 0 || e.ids.containsKey(t.key())) {
                throw new IllegalArgumentException("triple " + t + " is given twice or with a negative rank");
            }
            int tid = e.intern(t);
            e.rank[tid] = r;
            e.index(tid);
        }
        state.assertions().forEach((id, t) -> {
            Integer tid = e.ids.get(t.key());
            if (tid == null || e.rank[tid] != 0) {
                throw new IllegalArgumentException("assertion " + id + " states " + t + ", which is not of rank 0");
            }
            e.assertionTriple.put(id, tid);
            e.asserted.computeIfAbsent(tid, k -> new TreeSet<>()).add(id);
        });
        for (int t = 0; t < e.triples.size(); t++) {
            if (e.rank[t] == 0 && !e.asserted.containsKey(t)) {
                throw new IllegalArgumentException("triple " + e.triples.get(t) + " has rank 0 but no assertion");
            }
        }
        return e;
    }

    /** Applies the recorded changes; returns the region: every triple whose rank or derivations may have changed. */
    public Set<Triple> apply() {
        if (seeds.isEmpty()) {
            return Set.of();
        }
        Set<Integer> region = closure(seeds);
        seeds.clear();
        rerank(region);
        Set<Triple> outSet = new HashSet<>();
        region.forEach(t -> outSet.add(triples.get(t)));
        return outSet;
    }

    /** Every entailed triple (rank >= 1). */
    public List<Triple> entailed() {
        List<Triple> outList = new ArrayList<>();
        for (int t = 0; t < triples.size(); t++) {
            if (rank[t] >= 1) {
                outList.add(triples.get(t));
            }
        }
        return outList;
    }

    /** The triple's rank: 0 asserted, >= 1 entailed, -1 neither. */
    public int rank(Triple t) {
        Integer id = ids.get(t.key());
        return id == null ? -1 : rank[id];
    }

    /**
     * The alternative derivations of an entailed triple, each expanded to member names: a premise of
     * rank 0 becomes one of its assertions (each a separate alternative), a premise of rank >= 1 the
     * name {@code edgeName} gives it. Empty for a triple that is not entailed.
     */
    public List<List<String>> bundles(Triple t, java.util.function.Function<Triple, String> edgeName) {
        Integer id = ids.get(t.key());
        if (id == null || rank[id] < 1) {
            return List.of();
        }
        int r = rank[id];
        List<List<String>> outList = new ArrayList<>();
        for (Derivation d : derivations(id)) {
            boolean lower = true;
            for (int p : d.premises()) {
                lower &= rank[p] >= 0 && rank[p] < r;
            }
            if (!lower) {
                continue;
            }
            List<List<String>> partial = new ArrayList<>();
            partial.add(new ArrayList<>());
            for (int p : d.premises()) {
                Collection<String> alts = rank[p] == 0 ? asserted.get(p) : List.of(edgeName.apply(triples.get(p)));
                List<List<String>> next = new ArrayList<>();
                for (List<String> base : partial) {
                    for (String a : alts) {
                        List<String> b = new ArrayList<>(base);
                        if (!b.contains(a)) {
                            b.add(a);
                        }
                        next.add(b);
                    }
                }
                partial = next;
            }
            outList.addAll(partial);
        }
        return outList;
    }

    private int intern(Triple t) {
        Integer id = ids.get(t.key());
        if (id != null) {
            return id;
        }
        int n = triples.size();
        triples.add(t);
        ids.put(t.key(), n);
        if (n == rank.length) {
            rank = Arrays.copyOf(rank, n * 2);
        }
        rank[n] = -1;
        return n;
    }

    private boolean present(int t) {
        return rank[t] >= 0;
    }

    private void index(int t) {
        Triple x = triples.get(t);
        out.computeIfAbsent(x.s() + '\u0000' + x.p(), k -> new HashSet<>()).add(t);
        in.computeIfAbsent(x.o() + '\u0000' + x.p(), k -> new HashSet<>()).add(t);
    }

    private void unindex(int t) {
        Triple x = triples.get(t);
        Set<Integer> o = out.get(x.s() + '\u0000' + x.p());
        if (o != null) {
            o.remove(t);
        }
        Set<Integer> i = in.get(x.o() + '\u0000' + x.p());
        if (i != null) {
            i.remove(t);
        }
    }

    private Set<Integer> outOf(String s, String p) {
        return out.getOrDefault(s + '\u0000' + p, Set.of());
    }

    private Set<Integer> inOf(String o, String p) {
        return in.getOrDefault(o + '\u0000' + p, Set.of());
    }

    /** Calls {@code each(conclusion, otherPremise or -1)} for every rule instance using {@code t} over indexed triples. */
    private void forward(int t, java.util.function.BiConsumer<Triple, Integer> each) {
        Triple x = triples.get(t);
        for (String q : axioms.sub(x.p())) {
            each.accept(new Triple(x.s(), q, x.o()), -1);
        }
        for (String q : axioms.inv(x.p())) {
            each.accept(new Triple(x.o(), q, x.s()), -1);
        }
        for (String[] r : axioms.byFirst(x.p())) {
            for (int other : new ArrayList<>(outOf(x.o(), r[0]))) {
                each.accept(new Triple(x.s(), r[1], triples.get(other).o()), other);
            }
        }
        for (String[] r : axioms.bySecond(x.p())) {
            for (int other : new ArrayList<>(inOf(x.s(), r[0]))) {
                each.accept(new Triple(triples.get(other).s(), r[1], x.o()), other);
            }
        }
    }

    /** Every rule instance concluding {@code t} whose premises are indexed. */
    private List<Derivation> derivations(int t) {
        Triple x = triples.get(t);
        List<Derivation> ds = new ArrayList<>();
        for (String p : axioms.subBack(x.p())) {
            Integer q = ids.get(new Triple(x.s(), p, x.o()).key());
            if (q != null && present(q)) {
                ds.add(new Derivation(new int[] {q}));
            }
        }
        for (String p : axioms.invBack(x.p())) {
            Integer q = ids.get(new Triple(x.o(), p, x.s()).key());
            if (q != null && present(q)) {
                ds.add(new Derivation(new int[] {q}));
            }
        }
        for (String[] r : axioms.chainBack(x.p())) {
            for (int first : outOf(x.s(), r[0])) {
                Integer second = ids.get(new Triple(triples.get(first).o(), r[1], x.o()).key());
                if (second != null && present(second)) {
                    ds.add(new Derivation(new int[] {first, second}));
                }
            }
        }
        return ds;
    }

    /**
     * The forward closure of {@code start} over the present triples and the closure itself: every
     * triple that a rule instance with a premise in the region concludes. Newly concluded triples
     * are indexed provisionally so later steps can combine them.
     */
    private Set<Integer> closure(Set<Integer> start) {
        Set<Integer> region = new LinkedHashSet<>(start);
        ArrayDeque<Integer> queue = new ArrayDeque<>(start);
        Set<Integer> provisional = new HashSet<>();
        for (int t : start) {
            if (!present(t)) {
                provisional.add(t);
                index(t);
            }
        }
        while (!queue.isEmpty()) {
            int t = queue.poll();
            forward(t, (c, other) -> {
                int cid = intern(c);
                if (region.add(cid)) {
                    queue.add(cid);
                    if (!present(cid) && provisional.add(cid)) {
                        index(cid);
                    }
                }
            });
        }
        for (int t : region) {
            unindex(t);
        }
        return region;
    }

    /** Least ranks for the region, everything outside fixed: a bucketed Knuth/Dijkstra on 1 + max. */
    private void rerank(Set<Integer> region) {
        Map<Integer, Integer> tentative = new HashMap<>();
        for (int t : region) {
            rank[t] = -1;
        }
        PriorityQueue<long[]> pq = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                : Long.compare(a[1], b[1]));
        for (int t : region) {
            int best = asserted.containsKey(t) ? 0 : Integer.MAX_VALUE;
            if (best != 0) {
                for (Derivation d : derivations(t)) {
                    int m = 0;
                    for (int p : d.premises()) {
                        m = Math.max(m, rank[p]);
                    }
                    best = Math.min(best, m + 1);
                }
            }
            if (best != Integer.MAX_VALUE) {
                tentative.put(t, best);
                pq.add(new long[] {best, t});
            }
        }
        while (!pq.isEmpty()) {
            long[] top = pq.poll();
            int t = (int) top[1];
            int r = (int) top[0];
            if (present(t) || tentative.get(t) != r) {
                continue;
            }
            rank[t] = r;
            index(t);
            forward(t, (c, other) -> {
                Integer cid = ids.get(c.key());
                if (cid == null || present(cid) || !region.contains(cid) || (other >= 0 && !present(other))) {
                    return;
                }
                int cand = 1 + Math.max(r, other >= 0 ? rank[other] : 0);
                Integer old = tentative.get(cid);
                if (old == null || cand < old) {
                    tentative.put(cid, cand);
                    pq.add(new long[] {cand, cid});
                }
            });
        }
    }
}
