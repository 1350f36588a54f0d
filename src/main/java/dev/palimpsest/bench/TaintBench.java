package dev.palimpsest.bench;

import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.internal.receipts.Liveness;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.TrustPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Table 4 of the paper on the generated graph: for one deletion (the assertions {@code dead}, whose
 * roots in the graph are {@code roots}), every retrievable unit (an assertion, an entailed edge, a
 * merge, a flat summary, one sentence of a sentence summary) is indexed once with BM25 (Lucene's
 * default similarity; a unit's text is its triple, or the triples its artifact truly rests on), a
 * workload of entity-name queries is run, and per policy the top 10 of the units the policy still
 * serves are scored: tainted@10 is the share of queries whose top 10 holds a unit the generator's
 * truth calls dead (entailment recomputed for edges), recall@10 the mean share of the perfect
 * maintainer's top 10 (exactly the truly dead units removed) that the policy returns. Policies:
 * deployed (the withdrawn assertions only, no cascade), trust (every receipt believed), distrust (the
 * failing layer, summaries, ignored: touched summaries removed) and label-free (every touched
 * artifact removed). Not thread-safe.
 */
public final class TaintBench {
    /** The paper's Table 4 and §6.4 (label-free: 0.0% tainted, up to 1.6 points of recall lost). */
    static final Map<String, double[]> PAPER = Map.of(
            "deployed", new double[] {28.0, 89.3, 36.8, 86.8},
            "trust", new double[] {0.8, 99.9, 2.1, 99.8},
            "distrust", new double[] {0.4, 99.9, 0.8, 99.8},
            "label-free", new double[] {0.0, 98.4, 0.0, 98.4});

    static final List<String> POLICIES = List.of("deployed", "trust", "distrust", "label-free");
    static final int K = 10;
    private static final int DEPTH = 3000;

    /** One retrievable unit: graph node, sentence (-1 whole), text, truly dead. */
    private record Unit(int node, int sentence, String text, boolean dead) {}

    private final ReceiptsGraphGen gen;
    private final ReceiptGraph g;
    private final PrintWriter log;

    public TaintBench(ReceiptsGraphGen gen, ReceiptGraph g, PrintWriter log) {
        this.gen = gen;
        this.g = g;
        this.log = log;
    }

    /** The workload's queries: up to {@code count} distinct entity names drawn with {@code seed}. */
    public List<String> queries(long seed, int count) {
        TreeSet<String> names = new TreeSet<>();
        gen.assertions.forEach(a -> {
            names.add(a.triple().s());
            names.add(a.triple().o());
        });
        List<String> all = new ArrayList<>(names);
        java.util.Collections.shuffle(all, new Random(seed));
        return List.copyOf(all.subList(0, Math.min(count, all.size())));
    }

    /**
     * The table for one deletion: per policy {@code tainted_at_10}, {@code recall_at_10} (percent) and
     * {@code removed} (units no longer served), plus the query count.
     */
    public Map<String, Object> measure(String operation, Set<String> dead, int[] roots, List<String> queries) {
        Map<String, ReceiptsGraphGen.Assertion> byId = new HashMap<>();
        gen.assertions.forEach(a -> byId.put(a.id(), a));
        Map<String, ReceiptsGraphGen.Artifact> arts = new HashMap<>();
        gen.artifacts.forEach(a -> arts.put(a.id(), a));
        Entailer truth = new Entailer(ReceiptsGraphGen.ONTOLOGY);
        gen.assertions.stream().filter(a -> !dead.contains(a.id())).forEach(a -> truth.addAssertion(a.id(), a.triple()));
        truth.apply();
        Set<FactId> liveEdges = new HashSet<>();
        truth.entailed().forEach(t -> liveEdges.add(EntailSync.edgeId(t)));
        List<Unit> units = new ArrayList<>();
        for (int n = 0; n < g.size(); n++) {
            Fact f = g.fact(n);
            if (f == null || !g.isLive(n)) {
                continue;
            }
            String id = f.id().value();
            if (Kind.ASSERTION.equals(f.kind()) || Kind.EDGE.equals(f.kind())) {
                var gr = f.grounding();
                String text = gr.subject() + " " + gr.predicate() + " " + gr.object();
                boolean isDead = Kind.ASSERTION.equals(f.kind()) ? dead.contains(id)
                        : EntailSync.isEntailedEdge(f) && !liveEdges.contains(f.id());
                units.add(new Unit(n, -1, text, isDead));
                continue;
            }
            ReceiptsGraphGen.Artifact a = arts.get(id);
            if (a == null) {
                continue;
            }
            List<Boolean> alive = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (List<List<String>> sentence : a.sentences()) {
                alive.add(sentence.stream().anyMatch(b -> b.stream().noneMatch(dead::contains)));
                StringBuilder t = new StringBuilder();
                sentence.stream().flatMap(List::stream).distinct().forEach(m -> {
                    var tr = byId.get(m).triple();
                    t.append(t.length() == 0 ? "" : ". ").append(tr.s()).append(' ').append(tr.p()).append(' ')
                            .append(tr.o());
                });
                texts.add(t.toString());
            }
            if (a.kind().equals("merge") || a.flat()) {
                units.add(new Unit(n, -1, String.join(". ", texts), alive.contains(false)));
            } else {
                for (int i = 0; i < texts.size(); i++) {
                    units.add(new Unit(n, i, texts.get(i), !alive.get(i)));
                }
            }
        }
        Map<String, boolean[]> served = new LinkedHashMap<>();
        boolean[] deployed = new boolean[units.size()];
        boolean[] perfect = new boolean[units.size()];
        for (int u = 0; u < units.size(); u++) {
            Unit x = units.get(u);
            deployed[u] = !(Kind.ASSERTION.equals(g.fact(x.node()).kind()) && x.dead());
            perfect[u] = !x.dead();
        }
        served.put("deployed", deployed);
        served.put("trust", servedUnder(TrustPolicy.TRUST_ALL, roots, units));
        served.put("distrust", servedUnder(TrustPolicy.DEFAULT.with(Layer.SUMMARY, false), roots, units));
        served.put("label-free", servedUnder(TrustPolicy.LABEL_FREE, roots, units));
        List<int[]> ranked = rank(units, queries);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queries", queries.size());
        out.put("units", units.size());
        out.put("truly_dead_units", (int) units.stream().filter(Unit::dead).count());
        for (String policy : POLICIES) {
            boolean[] s = served.get(policy);
            int tainted = 0;
            double recall = 0;
            int withTruth = 0;
            for (int[] hits : ranked) {
                List<Integer> top = top(hits, s);
                List<Integer> ideal = top(hits, perfect);
                if (top.stream().anyMatch(u -> units.get(u).dead())) {
                    tainted++;
                }
                if (!ideal.isEmpty()) {
                    withTruth++;
                    recall += (double) top.stream().filter(ideal::contains).count() / ideal.size();
                }
            }
            int removed = 0;
            for (boolean b : s) {
                removed += b ? 0 : 1;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tainted_at_10", round(100.0 * tainted / Math.max(1, ranked.size())));
            row.put("recall_at_10", round(withTruth == 0 ? 100.0 : 100.0 * recall / withTruth));
            row.put("removed", removed);
            out.put(policy, row);
        }
        print(operation, out);
        return out;
    }

    private boolean[] servedUnder(TrustPolicy policy, int[] roots, List<Unit> units) {
        Liveness l = new Cleanup(g, policy).after(roots);
        boolean[] s = new boolean[units.size()];
        for (int u = 0; u < units.size(); u++) {
            Unit x = units.get(u);
            s[u] = l.alive(x.node()) && (x.sentence() < 0 || !l.sentenceDead(x.node(), x.sentence()));
        }
        return s;
    }

    private static List<Integer> top(int[] hits, boolean[] served) {
        List<Integer> out = new ArrayList<>(K);
        for (int u : hits) {
            if (served[u]) {
                out.add(u);
                if (out.size() == K) {
                    break;
                }
            }
        }
        return out;
    }

    /** Per query, the units in BM25 order (the first {@value #DEPTH}); deletion filters this list, as a Lucene delete would. */
    private static List<int[]> rank(List<Unit> units, List<String> queries) {
        try (Analyzer an = new StandardAnalyzer(); ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(an))) {
                for (int u = 0; u < units.size(); u++) {
                    Document d = new Document();
                    d.add(new StoredField("u", u));
                    d.add(new TextField("text", units.get(u).text(), Field.Store.NO));
                    w.addDocument(d);
                }
            }
            List<int[]> out = new ArrayList<>();
            try (DirectoryReader r = DirectoryReader.open(dir)) {
                IndexSearcher s = new IndexSearcher(r);
                var stored = s.storedFields();
                for (String q : queries) {
                    BooleanQuery.Builder b = new BooleanQuery.Builder();
                    try (TokenStream ts = an.tokenStream("text", q)) {
                        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                        ts.reset();
                        while (ts.incrementToken()) {
                            b.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
                        }
                        ts.end();
                    }
                    ScoreDoc[] hits = s.search(b.build(), DEPTH).scoreDocs;
                    int[] us = new int[hits.length];
                    for (int i = 0; i < hits.length; i++) {
                        us[i] = stored.document(hits[i].doc).getField("u").numericValue().intValue();
                    }
                    out.add(us);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double round(double v) {
        return Math.round(v * 10.0) / 10.0;
    }

    @SuppressWarnings("unchecked")
    private void print(String operation, Map<String, Object> out) {
        int col = operation.equals("retract-source") ? 0 : 2;
        log.printf("  Table 4, %s (%s queries, BM25 top %d over %s units, %s truly dead):%n", operation,
                out.get("queries"), K, out.get("units"), out.get("truly_dead_units"));
        log.printf("    %-11s %12s %12s %9s   %s%n", "policy", "tainted@10", "recall@10", "removed", "paper tainted / recall");
        for (String p : POLICIES) {
            Map<String, Object> row = (Map<String, Object>) out.get(p);
            double[] paper = PAPER.get(p);
            log.printf("    %-11s %11.1f%% %11.1f%% %9d   %.1f%% / %s%n", p, (double) row.get("tainted_at_10"),
                    (double) row.get("recall_at_10"), (int) row.get("removed"), paper[col],
                    p.equals("label-free") ? ">= 98.4%" : paper[col + 1] + "%");
        }
        log.flush();
    }
}
