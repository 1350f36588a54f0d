package dev.palimpsest.bench;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.internal.receipts.Liveness;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.eclipse.jgit.lib.ObjectId;

/**
 * {@code bench receipts}: on a seeded PolyGraph-shaped graph ({@link ReceiptsGraphGen}), ingest and
 * entail it, then measure the cleanup plan (set arithmetic only) for retract-source of 61 sources
 * and revoke-relation of one predicate, the whole cascade as one signed commit, receipt evaluation
 * at a historical commit, incremental entailment after one new assertion against a full recompute,
 * the bytes receipts take, and cleanup's correctness against the generator's ground truth beside
 * the deployed baseline. Not thread-safe.
 */
public final class ReceiptsBench {
    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path workDir;
    private final PrintWriter log;
    private final Map<String, Object> result = new LinkedHashMap<>();

    public ReceiptsBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    public Map<String, Object> run(long seed, int samples) throws IOException, PalimpsestException {
        ReceiptsGraphGen gen = ReceiptsGraphGen.paperSized(seed);
        Path dir = Files.createTempDirectory(workDir, "bench-receipts-");
        StoreOptions opts = StoreOptions.defaults().withFsync(false);
        try (Store store = Store.initializer(dir.resolve("store.git"))
                .home(new KeyHome(dir.resolve("home"))).actor(ACTOR).options(opts).create()) {
            byte[] batch = gen.batchYaml().getBytes(StandardCharsets.UTF_8);
            long t = System.nanoTime();
            long cp = cpu();
            IngestResult ing = store.receipts().ingest(ACTOR, batch, false);
            put("ingest_ms", ms(t), "ingest of " + ing.kinds() + " (" + batch.length / 1024 + " KiB batch), one commit" + cpuNote(cp));
            t = System.nanoTime();
            cp = cpu();
            EntailResult ent = store.receipts().entail(ACTOR);
            put("entail_full_ms", ms(t), "entail from scratch: " + ent.edges() + " entailed edges written as one commit" + cpuNote(cp));
            CommitId built = store.head();
            result.put("artifacts", gen.artifacts.size() + ent.edges());
            result.put("entailed_edges", ent.edges());
            result.put("assertions", gen.assertions.size());
            try (GitRepo repo = GitRepo.open(store.gitDir(), false)) {
                PredicateIndex index = PredicateIndex.open(repo);
                ObjectId builtId = ObjectId.fromString(built.hex());
                t = System.nanoTime();
                ReceiptGraph g = ReceiptGraph.load(repo, index, builtId, new FactCache());
                put("load_cold_ms", ms(t), "receipts of " + g.size() + " nodes, " + g.units() + " receipts, "
                        + g.bundles() + " bundles loaded at a commit (cold: every file decoded)");
                Cleanup c = new Cleanup(g);
                List<FactId> docs = gen.retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
                int[] srcRoots = c.sourceRoots(docs);
                int[] relRoots = c.predicateRoots("regulates");
                put("plan_retract_source_61_us", arithmetic(c, srcRoots, samples), "cleanup plan, set arithmetic only, "
                        + "retract-source of " + docs.size() + " sources (" + srcRoots.length + " roots), p50");
                put("plan_revoke_relation_us", arithmetic(c, relRoots, samples), "cleanup plan, set arithmetic only, "
                        + "revoke-relation regulates (" + relRoots.length + " roots), p50");
                long[] full = new long[Math.max(5, samples / 20)];
                CleanupPlan plan = null;
                for (int i = 0; i < full.length; i++) {
                    long s = System.nanoTime();
                    plan = c.plan(dev.palimpsest.model.Withdrawal.RETRACT_SOURCE, docs.stream().map(FactId::value).toList(), "bench", srcRoots);
                    full[i] = System.nanoTime() - s;
                }
                put("plan_materialised_us", Stats.of(full).p50Millis() * 1e3, "the same plan materialised (ids, layers, "
                        + "sentence revisions): " + plan.roots().size() + " roots, " + plan.removals().size()
                        + " removals, " + plan.revisions().size() + " revisions, p50");
                storage(g);
                table4(gen, g, c, docs, srcRoots, relRoots, seed);
                store.receipts().report(built);
                t = System.nanoTime();
                CleanupPlan real = store.receipts().planRetractSource(docs, "retracted (bench)");
                long planned = System.nanoTime();
                long cpuApply = cpu();
                CommitResult landed = store.receipts().apply(ACTOR, real);
                put("cascade_commit_ms", (System.nanoTime() - planned) / 1e6, "the whole cascade as one signed commit ("
                        + landed.retracted().size() + " retractions, " + (landed.written().size()) + " revisions)" + cpuNote(cpuApply));
                put("cascade_plan_api_ms", (planned - t) / 1e6, "planning through the API on a warm store");
                t = System.nanoTime();
                ReceiptGraph past = ReceiptGraph.load(repo, index, builtId, new FactCache());
                put("historical_cold_ms", ms(t), "receipts at the pre-retraction commit, loaded cold");
                FactCache warm = new FactCache();
                ReceiptGraph.load(repo, index, builtId, warm);
                t = System.nanoTime();
                ReceiptGraph again = ReceiptGraph.load(repo, index, builtId, warm);
                put("historical_warm_ms", ms(t), "the same, blobs already decoded (tree walk + arrays)");
                long[] ev = new long[samples];
                for (int i = 0; i < samples; i++) {
                    long s = System.nanoTime();
                    Liveness.at(again);
                    ev[i] = System.nanoTime() - s;
                }
                put("evaluate_us", Stats.of(ev).p50Millis() * 1e3, "evaluating liveness of every artifact at that commit, p50");
                java.util.Set<FactId> truthEdges = correctness(store, gen, landed.id(), past);
                rederiveAudit(store, docs, built);
                t = System.nanoTime();
                EntailResult re = store.receipts().entail(ACTOR);
                put("entail_after_cascade_ms", ms(t), "entail after the cascade (incremental): " + re.added()
                        + " re-derived, " + re.retracted() + " retracted");
                ReceiptGraph now = ReceiptGraph.load(repo, index, ObjectId.fromString(store.head().hex()), warm);
                int live = 0;
                int wrong = 0;
                for (int n = 0; n < now.size(); n++) {
                    var f = now.fact(n);
                    if (f != null && now.isLive(n) && EntailSync.isEntailedEdge(f)) {
                        live++;
                        wrong += truthEdges.contains(f.id()) ? 0 : 1;
                    }
                }
                int missing = truthEdges.size() - (live - wrong);
                result.put("edges_after_entail_wrong", wrong + missing);
                log.printf("    after entail: %d entailed edges live; %d leaked, %d missing against the recomputation%n",
                        live, wrong, missing);
                warmCascades(store, repo, builtId, docs, Math.max(3, samples / 100));
                entailment(gen, seed, samples);
            }
        } finally {
            CommitBench.deleteTree(dir);
        }
        return result;
    }

    /**
     * The same cascade landed again {@code runs} times in this process (main is moved back to the
     * pre-retraction commit before each): the commit cost once the JIT has compiled the write path,
     * as in a long-running service, against the first (cold) run above.
     */
    private void warmCascades(Store store, GitRepo repo, ObjectId built, List<FactId> docs, int runs)
            throws IOException, PalimpsestException {
        long[] wall = new long[runs];
        long[] cpus = new long[runs];
        int files = 0;
        for (int i = 0; i < runs; i++) {
            ObjectId tip = repo.head();
            if (new dev.palimpsest.internal.git.RefCas(repo, repo.pool()).update(tip, built, false)
                    != dev.palimpsest.internal.git.RefCas.Result.UPDATED) {
                throw new IllegalStateException("could not move main back for a warm cascade run");
            }
            CleanupPlan plan = store.receipts().planRetractSource(docs, "retracted (bench, warm run " + i + ")");
            long cp = cpu();
            long t = System.nanoTime();
            CommitResult r = store.receipts().apply(ACTOR, plan);
            wall[i] = System.nanoTime() - t;
            cpus[i] = cpu() - cp;
            files = r.retracted().size();
        }
        put("cascade_commit_warm_ms", Stats.of(wall).p50Millis(), "the same cascade (" + files + " retractions) "
                + "landed again, JIT warm, p50 of " + runs + " runs [" + String.format("%.0f", Stats.of(cpus).p50Millis())
                + " ms CPU of this thread]");
    }

    private double arithmetic(Cleanup c, int[] roots, int samples) {
        for (int i = 0; i < 200; i++) {
            c.after(roots);
        }
        long[] n = new long[samples];
        for (int i = 0; i < samples; i++) {
            long s = System.nanoTime();
            c.after(roots);
            n[i] = System.nanoTime() - s;
        }
        return Stats.of(n).p50Millis() * 1e3;
    }

    private void storage(ReceiptGraph g) {
        long graph = 0;
        long receipts = 0;
        long flat = 0;
        long labels = 0;
        for (int n = 0; n < g.size(); n++) {
            var f = g.fact(n);
            if (f == null || !g.isLive(n)) {
                continue;
            }
            long bytes = dev.palimpsest.internal.yaml.FactCodec.encode(f).length;
            graph += bytes;
            var gr = f.grounding();
            if (gr.receipt() == null && gr.sentences().isEmpty()) {
                continue;
            }
            var bare = new dev.palimpsest.model.Fact(f.id(), f.kind(), f.body(), f.confidence(), f.refs(), f.pooled(),
                    new dev.palimpsest.model.Grounding(gr.subject(), gr.predicate(), gr.object(), null, List.of(), false));
            long textOfSentences = gr.sentences().stream().mapToLong(s -> s.text().length() + 12).sum();
            receipts += bytes - dev.palimpsest.internal.yaml.FactCodec.encode(bare).length - textOfSentences;
            java.util.TreeSet<String> members = new java.util.TreeSet<>();
            List<dev.palimpsest.model.Receipt> rs = new ArrayList<>();
            if (gr.receipt() != null) {
                rs.add(gr.receipt());
            }
            gr.sentences().forEach(s -> rs.add(s.receipt()));
            rs.forEach(r -> r.members().forEach(m -> members.add(m.value())));
            for (var r : rs) {
                labels += 2 + r.bundles().stream().mapToLong(b -> 3 + b.stream().mapToLong(p -> p.id().value().length() + 3)
                        .sum()).sum();
            }
            flat += "provenance:\n".length() + members.stream().mapToLong(m -> m.length() + 5).sum();
        }
        put("graph_bytes", graph, "bytes of every fact file (sources are not decoded: assertions and artifacts)");
        put("receipt_bytes", receipts, "bytes of the receipt blocks as stored (pinned members: id, commit, blob)");
        put("label_json_bytes", labels, "the same labels as JSON id lists, unpinned (the paper's measure)");
        put("flat_provenance_bytes", flat, "bytes of a flat provenance list (distinct member ids per artifact)");
    }

    /** Table 4: tainted@10 and recall@10 of BM25 search after each deletion, per cleanup policy. */
    private void table4(ReceiptsGraphGen gen, ReceiptGraph g, Cleanup c, List<FactId> docs, int[] srcRoots,
            int[] relRoots, long seed) {
        long t = System.nanoTime();
        TaintBench tb = new TaintBench(gen, g, log);
        List<String> queries = tb.queries(seed, 300);
        java.util.Set<String> retracted = new java.util.HashSet<>();
        java.util.Set<String> revoked = new java.util.HashSet<>();
        for (var a : gen.assertions) {
            if (gen.retracted.contains(a.doc())) {
                retracted.add(a.id());
            }
            if (a.triple().p().equals("regulates")) {
                revoked.add(a.id());
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("retract_source", tb.measure("retract-source", retracted, srcRoots, queries));
        m.put("revoke_relation", tb.measure("revoke-relation", revoked, relRoots, queries));
        result.put("table4", m);
        put("table4_ms", ms(t), "Table 4 (two deletions, four policies, " + queries.size() + " queries)");
    }

    private java.util.Set<FactId> correctness(Store store, ReceiptsGraphGen gen, CommitId after, ReceiptGraph past)
            throws PalimpsestException {
        java.util.Set<String> deadAssertions = new java.util.HashSet<>();
        for (var a : gen.assertions) {
            if (gen.retracted.contains(a.doc())) {
                deadAssertions.add(a.id());
            }
        }
        Truth t = groundTruth(gen, deadAssertions, id -> store.factLiveAtCommit(id, after), past);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("leaked", layers(t.leaked()));
        m.put("over_deleted", layers(t.over()));
        m.put("deployed_leaked", layers(t.deployedLeak()));
        m.put("trust_policy_flat_summaries_leaked", t.trustLeak());
        result.put("correctness", m);
        log.printf("  correctness after retract-source of %d sources (ground truth: faithful receipts, entailment recomputed):%n",
                gen.retracted.size());
        log.printf("    cascade leaked: %s | over-deleted: %s%n", layers(t.leaked()), layers(t.over()));
        log.printf("    deployed baseline (assertions only, no cascade) leaves live but dead: %s%n", layers(t.deployedLeak()));
        log.printf("    trusting flat summary receipts would keep %d dead flat summaries (distrust: 0)%n", t.trustLeak());
        log.flush();
        return t.truthEdges();
    }

    /**
     * The re-derivation audit of the same retract-source at the pre-retraction commit, without a
     * judge: entailed edges decided by the symbolic oracle (merges and summaries ungraded), against
     * the ground-truth table's edge column.
     */
    private void rederiveAudit(Store store, List<FactId> docs, CommitId built) throws PalimpsestException {
        long t = System.nanoTime();
        dev.palimpsest.model.RederiveReport r = store.rederivations().retractSource(docs, built, 5, 0.2, dev.palimpsest.model.AuditOracles.NONE);
        var edge = r.layers().get(dev.palimpsest.model.Layer.EDGE);
        put("rederive_audit_ms", ms(t), "re-derivation audit of the retract-source (symbolic oracle, no judge): "
                + edge.graded() + " graded entailed edges, leaky " + edge.leaky() + ", over-deleted "
                + edge.overDeleted() + ", agree " + edge.agree());
        result.put("rederive_audit_edge_over_deleted", edge.overDeleted());
        result.put("rederive_audit_edge_leaky", edge.leaky());
    }

    /** A function that may fail with a store error. */
    @FunctionalInterface
    public interface Kept {
        boolean test(FactId id) throws PalimpsestException;
    }

    /**
     * The ground-truth table of a cleanup: counts per layer (merge, sentence summary, flat summary,
     * edge) of artifacts {@code kept} but truly dead ({@code leaked}) and removed but truly alive
     * ({@code over}), what the deployed baseline leaves, the dead flat summaries trusting their
     * receipts would keep, and the entailed edges truly alive.
     */
    public record Truth(int[] leaked, int[] over, int[] deployedLeak, int trustLeak, java.util.Set<FactId> truthEdges) {}

    /**
     * The generator's ground truth after {@code deadAssertions} are withdrawn from the graph
     * {@code past} (receipts at the commit before): an artifact's sentence is alive when one of its
     * bundles has no dead member; a merge or flat summary is alive when every sentence is, a sentence
     * summary when any is; an entailed edge is alive when entailment from the surviving assertions
     * derives it.
     */
    public static Truth groundTruth(ReceiptsGraphGen gen, java.util.Set<String> deadAssertions, Kept keptAfter,
            ReceiptGraph past) throws PalimpsestException {
        Entailer truth = new Entailer(ReceiptsGraphGen.ONTOLOGY);
        for (var a : gen.assertions) {
            if (!deadAssertions.contains(a.id())) {
                truth.addAssertion(a.id(), a.triple());
            }
        }
        truth.apply();
        int[] leaked = new int[4];
        int[] over = new int[4];
        int[] deployedLeak = new int[4];
        int trustLeak = 0;
        for (var art : gen.artifacts) {
            boolean[] sentenceAlive = new boolean[art.sentences().size()];
            boolean anyAlive = false;
            boolean allAlive = true;
            for (int i = 0; i < sentenceAlive.length; i++) {
                sentenceAlive[i] = art.sentences().get(i).stream().anyMatch(b -> b.stream().noneMatch(deadAssertions::contains));
                anyAlive |= sentenceAlive[i];
                allAlive &= sentenceAlive[i];
            }
            boolean merge = art.kind().equals("merge");
            boolean trulyAlive = merge || art.flat() ? allAlive : anyAlive;
            boolean kept = keptAfter.test(FactId.of(art.id()));
            int layer = merge ? 0 : art.flat() ? 2 : 1;
            if (kept && !trulyAlive) {
                leaked[layer]++;
            }
            if (!kept && trulyAlive) {
                over[layer]++;
            }
            if (!trulyAlive || (!merge && !allAlive)) {
                deployedLeak[layer]++;
            }
            if (art.flat() && !allAlive) {
                var f = past.fact(past.find(FactId.of(art.id())));
                boolean trustKeeps = f.grounding().receipt().bundles().stream()
                        .anyMatch(b -> b.stream().noneMatch(p -> deadAssertions.contains(p.id().value())));
                trustLeak += trustKeeps ? 1 : 0;
            }
        }
        java.util.Set<FactId> truthEdges = new java.util.HashSet<>();
        truth.entailed().forEach(t -> truthEdges.add(EntailSync.edgeId(t)));
        for (int n = 0; n < past.size(); n++) {
            var f = past.fact(n);
            if (f == null || !past.isLive(n) || !EntailSync.isEntailedEdge(f)) {
                continue;
            }
            boolean kept = keptAfter.test(f.id());
            boolean alive = truthEdges.contains(f.id());
            leaked[3] += kept && !alive ? 1 : 0;
            over[3] += !kept && alive ? 1 : 0;
            deployedLeak[3] += alive ? 0 : 1;
        }
        return new Truth(leaked, over, deployedLeak, trustLeak, truthEdges);
    }

    private static Map<String, Integer> layers(int[] c) {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("merge", c[0]);
        m.put("sentence_summary", c[1]);
        m.put("flat_summary", c[2]);
        m.put("edge", c[3]);
        return m;
    }

    private void entailment(ReceiptsGraphGen gen, long seed, int samples) {
        long t = System.nanoTime();
        Entailer e = new Entailer(ReceiptsGraphGen.ONTOLOGY);
        for (var a : gen.assertions) {
            e.addAssertion(a.id(), a.triple());
        }
        e.apply();
        for (Entailer.Triple x : e.entailed()) {
            EntailSync.receipt(e, x);
        }
        put("entail_recompute_ms", ms(t), "full recompute in memory (closure + every receipt)");
        Random rnd = new Random(seed);
        int n = Math.max(10, samples / 50);
        long[] inc = new long[n];
        int region = 0;
        for (int i = 0; i < n; i++) {
            var base = gen.assertions.get(rnd.nextInt(gen.assertions.size())).triple();
            var other = gen.assertions.get(rnd.nextInt(gen.assertions.size())).triple();
            Entailer.Triple nt = new Entailer.Triple(base.s(), "regulates", other.o());
            long s = System.nanoTime();
            e.addAssertion("new-" + i, nt);
            var changed = e.apply();
            for (Entailer.Triple x : changed) {
                if (e.rank(x) >= 1) {
                    EntailSync.receipt(e, x);
                }
            }
            inc[i] = System.nanoTime() - s;
            region += changed.size();
            e.removeAssertion("new-" + i);
            e.apply();
        }
        put("entail_incremental_ms", Stats.of(inc).p50Millis(), "one new assertion, incremental (region re-ranked, "
                + "its receipts recomputed; mean region " + region / n + " triples), p50");
    }

    private void put(String key, Object value, String what) {
        result.put(key, value);
        log.printf("  %-28s %12s  %s%n", key, value instanceof Double d ? String.format("%.3f", d) : value, what);
        log.flush();
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    private String cpuNote(long cpuStart) {
        return String.format(" [%.0f ms CPU of this thread]", (cpu() - cpuStart) / 1e6);
    }

    private static double ms(long start) {
        return (System.nanoTime() - start) / 1e6;
    }
}
