package dev.palimpsest.bench;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.search.SearchIndex;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Recall at scale: {@code facts} claims over {@code entities} entities (objects of 2-4 words from a
 * 5,000-word vocabulary; one claim in ten after the first tenth supersedes an earlier one; one in
 * fifty retracts an earlier one), a fixed or random number per signed commit; then the cold rebuild
 * of the index from git; through the public API, {@code search} (an entity; two words) and {@code
 * brief} (an entity, 500 tokens) at main and at a random past commit, then {@value #WARM_ROUNDS}
 * rounds of free-text questions in a row at main (the same process once the JIT has compiled what
 * they run); the index update per commit
 * on the writer's own path (one-fact commits and {@value #OWN_BATCH}-fact commits, each handed to
 * the index with its changes and decoded facts as the writer hands them, timed alone) and caught up
 * from git ({@code extra} commits of the history's size: diff and decode); a second history of
 * one-fact commits (as agents write) and its cold rebuild; and side by side, a rebuild-per-query
 * scan (decode every live fact at the commit into a fresh in-memory Lucene index, then search it:
 * what a snapshot index costs to keep fresh) and {@code git grep} at the commit. Wall and the
 * calling thread's CPU time.
 */
public final class SearchBench {
    /** Results (durations in the units their names say). */
    public record Result(int facts, int entities, String batch, int commits, Stats entityHead, Stats entityPast,
            Stats textHead, Stats textPast, Stats briefHead, Stats briefPast, List<Stats> cpu, Stats ownOneFact,
            Stats ownOneFactCpu, Stats ownBatch, Stats ownBatchCpu, int ownBatchFacts, double incrementalMillisPerCommit,
            double incrementalCpuMillisPerCommit, int extraCommits, double rebuildSeconds, double rebuildCpuSeconds,
            double rebuildCommitsPerSecond, double rebuildCommitsPerCpuSecond, int smallCommits,
            double smallRebuildSeconds, double smallRebuildCpuSeconds, Stats scanPerQuery, Stats gitGrep,
            double buildSeconds, Semantic semantic, List<Stats> textHeadRounds, Stats textHeadWarmCpu, boolean grown,
            List<Integer> indexSegments) {}

    /**
     * The semantic channel's costs (absent, all zero, without an embedder): the index rebuilt with
     * every version embedded (no vector cached), the files it takes, and writes that embed on the
     * writer's own path, in commits of {@link #OWN_BATCH} facts and of one fact. {@code
     * batchWritesPerSecond} is the first window of {@link #EMBED_WINDOWS} written one after another
     * ({@code batchWindows}, each its facts per second): a process's first writes, then the same
     * process once its code is compiled.
     */
    public record Semantic(String embedder, double rebuildSeconds, double embeddedPerSecond, long indexBytes,
            long vectorCacheBytes, double batchWritesPerSecond, double oneFactWritesPerSecond,
            List<Double> batchWindows) {}

    /** Facts written in commits of {@link #OWN_BATCH} in each window of writes with the semantic channel on (fewer when the store has fewer facts). */
    static final int EMBED_WRITES = 2000;
    /** The windows of writes that embed, timed one after another in the same process. */
    static final int EMBED_WINDOWS = 4;
    static final int EMBED_ONE_FACT_WRITES = 100;
    /**
     * Rounds of free-text questions asked one after another at main once the mixed samples are done,
     * each of {@code samples} questions: a long-running process's search as the JIT compiler finishes.
     */
    static final int WARM_ROUNDS = 6;

    /** The facts of each window of writes that embed for a store of {@code facts}: at most {@link #EMBED_WRITES}, whole commits. */
    static int embedWindow(int facts) {
        return Math.max(OWN_BATCH, Math.min(EMBED_WRITES, facts / OWN_BATCH * OWN_BATCH));
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory
            .getThreadMXBean();

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** The CPU time of the whole process (every thread: the read-ahead worker, Lucene's merges, GC, JIT), ns. */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static final ActorName ACTOR = ActorName.of("bench");
    /** The size of the larger commits timed on the writer's own path. */
    static final int OWN_BATCH = 100;
    private static final String[] PREDICATES = {"depends on", "times out after", "listens on", "owned by", "runs in"};
    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "do",
        "fe", "gi", "ho", "ju", "ly", "mo", "ni", "po"};
    private final Path workDir;
    private final PrintWriter log;
    private final dev.palimpsest.model.Embedder embedder;

    /** A bench without a semantic channel. */
    public SearchBench(Path workDir, PrintWriter log) {
        this(workDir, log, dev.palimpsest.model.Embedder.NONE);
    }

    /** A bench whose store searches with {@code embedder} ({@link dev.palimpsest.model.Embedder#NONE}: words only). */
    public SearchBench(Path workDir, PrintWriter log, dev.palimpsest.model.Embedder embedder) {
        this.workDir = workDir;
        this.log = log;
        this.embedder = java.util.Objects.requireNonNull(embedder, "embedder");
    }

    static String word(int i) {
        return SYLLABLES[i % 20] + SYLLABLES[(i / 20) % 20] + SYLLABLES[(i / 400) % 20] + "x";
    }

    static String entity(int e) {
        return "Service-" + e;
    }

    private static String object(Random rnd) {
        int n = 2 + rnd.nextInt(3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : " ").append(word(rnd.nextInt(5000)));
        }
        return b.toString();
    }

    /**
     * Runs the benchmark on an index rebuilt from git in one piece; each commit writes a number of
     * claims drawn uniformly from [{@code minBatch}, {@code batch}] (equal bounds: exactly {@code batch}).
     */
    public Result run(int facts, int entities, int minBatch, int batch, int samples, int extra, int smallCommits,
            long seed, boolean keep) throws IOException, PalimpsestException {
        return run(facts, entities, minBatch, batch, samples, extra, smallCommits, seed, keep, false);
    }

    /**
     * Runs the benchmark; {@code grown}: the index is open while the history is written, so it grows
     * commit by commit as agents fill a store (every write embedded on the writer's path, Lucene's
     * merges as they fall, finished when the writing store closes), and the questions are asked of
     * that index, not of one rebuilt from git (neither rebuild is timed then; {@code keep} must be
     * false).
     */
    public Result run(int facts, int entities, int minBatch, int batch, int samples, int extra, int smallCommits,
            long seed, boolean keep, boolean grown) throws IOException, PalimpsestException {
        if (keep && grown) {
            throw new IllegalArgumentException("a grown index is not kept: keep and grown exclude each other");
        }
        Path dir = Files.createTempDirectory(workDir, "bench-search-");
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path gitDir = dir.resolve("store.git");
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withEmbedder(embedder);
        Random rnd = new Random(seed);
        List<CommitId> history = new ArrayList<>();
        int[] next = {0};
        int batches = Math.max(3, extra / 10);
        boolean[] gone = new boolean[facts + extra * (batch + 1) + batches * OWN_BATCH
                + EMBED_WINDOWS * embedWindow(facts) + EMBED_ONE_FACT_WRITES + 1];
        String shape = facts + "-" + (minBatch == batch ? Integer.toString(batch) : minBatch + "-" + batch) + "-" + seed;
        Path kept = workDir.resolve("bench-search-" + shape);
        double build;
        if (keep && KeptBench.exists(kept)) {
            Built b = KeptBench.restore(kept, dir, Built.class);
            rnd = b.rnd;
            next[0] = b.next;
            gone = java.util.Arrays.copyOf(b.gone, Math.max(b.gone.length, gone.length));
            b.history.forEach(h -> history.add(CommitId.of(h)));
            build = b.seconds;
            log.printf("reused the %,d facts in %,d commits kept in %s (built in %.1f s)%n", facts, history.size() + 2,
                    kept, build);
        } else {
            long t0 = System.nanoTime();
            try (Store store = Store.initializer(gitDir).home(home).actor(ACTOR).options(opts).create()) {
                Transaction first = store.begin(ACTOR);
                first.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
                first.commit();
                if (grown) {
                    store.recall().prepare(); // from here on each commit is indexed (and embedded) as it lands
                }
                while (next[0] < facts) {
                    history.add(write(store, rnd, Math.min(size(rnd, minBatch, batch), facts - next[0]), next, gone,
                            entities, facts));
                    if (history.size() % 100 == 0) {
                        log.printf("  %,d facts in %,d commits (%.0f s)%n", next[0], history.size(),
                                (System.nanoTime() - t0) / 1e9);
                        log.flush();
                    }
                }
            }
            build = (System.nanoTime() - t0) / 1e9;
            log.printf("built %,d facts in %,d commits in %.1f s%s%n", facts, history.size() + 2, build,
                    grown ? String.format(" (%,.0f facts/s), the index open: every commit indexed%s as it landed,"
                            + " merges finished at close", facts / build, embedder.dimensions() > 0 ? " and embedded" : "")
                            : "");
            if (keep) {
                KeptBench.save(dir, kept, new Built(rnd, next[0], gone, history.stream().map(CommitId::hex).toList(),
                        build));
                log.println("kept in " + kept);
            }
        }
        log.flush();

        // cold rebuild of the search index from git (the claims index is built first, not counted)
        double rebuild = 0;
        double rebuildCpu = 0;
        int indexed = 0;
        if (!grown) {
            double[] cold = rebuild(gitDir);
            rebuild = cold[0];
            rebuildCpu = cold[1];
            indexed = (int) cold[2];
            log.printf("cold rebuild (%,d commits of %s facts): %.2f s wall, %.2f s CPU of this thread, %.2f s of the"
                    + " process (%,.0f commits/s, %,.0f facts/s wall)%n", indexed,
                    minBatch == batch ? Integer.toString(batch) : minBatch + "-" + batch, rebuild, rebuildCpu, cold[3],
                    indexed / rebuild, facts / rebuild);
            log.flush();
        }

        Stats eh;
        Stats ep;
        Stats th;
        Stats tp;
        Stats bh;
        Stats bp;
        List<Stats> cpuStats = new ArrayList<>();
        Semantic semantic = new Semantic(embedder.name(), 0, 0, 0, 0, 0, 0, List.of());
        List<Stats> rounds = new ArrayList<>();
        Stats warmCpu;
        List<Integer> segments;
        try (Store store = Store.open(gitDir, home, opts)) {
            var recall = store.recall();
            if (grown) {
                long o0 = System.nanoTime();
                recall.prepare(); // the grown index, reused
                log.printf("opened the grown index in %.2f s%n", (System.nanoTime() - o0) / 1e9);
            } else if (embedder.dimensions() > 0) {
                long e0 = System.nanoTime();
                recall.prepare(); // the index rebuilt with vectors: every version embedded, none cached
                double seconds = (System.nanoTime() - e0) / 1e9;
                semantic = new Semantic(embedder.name(), seconds, next[0] / seconds, 0, 0, 0, 0, List.of());
                log.printf("semantic channel (%s): index rebuilt with every version embedded in %.1f s (%,.0f facts/s)%n",
                        embedder.name(), seconds, next[0] / seconds);
                log.flush();
            }
            segments = segments(gitDir);
            log.printf("the index searched: %d segment(s) of %s documents%n", segments.size(), segments);
            CommitId head = store.head();
            long sink = 0;
            // the first free-text question after opening (the code paths not yet compiled), then warm-up
            // questions of every kind timed, their words drawn apart so the timed questions stay the same
            Random words = new Random(seed ^ 0x5EEDL);
            long f0 = System.nanoTime();
            sink += recall.search(SearchQuery.builder(word(words.nextInt(5000)) + " " + word(words.nextInt(5000)))
                    .build()).size();
            log.printf("first search of two words after opening: %.2f ms%n", (System.nanoTime() - f0) / 1e6);
            for (int i = 0; i < Math.min(samples, 500); i++) { // warm up
                sink += recall.search(SearchQuery.builder().entity(entity(rnd.nextInt(entities))).build()).size();
                sink += recall.brief(BriefRequest.builder().entity(entity(rnd.nextInt(entities))).maxTokens(500).build()).tokens();
                sink += recall.search(SearchQuery.builder(word(words.nextInt(5000)) + " " + word(words.nextInt(5000)))
                        .build()).size();
            }
            long[][] t = new long[6][samples];
            long[][] u = new long[6][samples];
            for (int i = 0; i < samples; i++) {
                String e = entity(rnd.nextInt(entities));
                String q = word(rnd.nextInt(5000)) + " " + word(rnd.nextInt(5000));
                CommitId past = history.get(rnd.nextInt(history.size()));
                for (int k = 0; k < 6; k++) {
                    CommitId c = k % 2 == 0 ? head : past;
                    long a = System.nanoTime();
                    long ac = cpu();
                    if (k < 2) {
                        sink += recall.search(SearchQuery.builder().entity(e).at(c).build()).size();
                    } else if (k < 4) {
                        sink += recall.search(SearchQuery.builder(q).at(c).build()).size();
                    } else {
                        sink += recall.brief(BriefRequest.builder().entity(e).maxTokens(500).at(c).build()).tokens();
                    }
                    u[k][i] = cpu() - ac;
                    t[k][i] = System.nanoTime() - a;
                }
            }
            for (int k = 0; k < 6; k++) {
                cpuStats.add(Stats.of(u[k]));
            }
            log.println("  (checksum " + sink + ")");
            eh = Stats.of(t[0]);
            ep = Stats.of(t[1]);
            th = Stats.of(t[2]);
            tp = Stats.of(t[3]);
            bh = Stats.of(t[4]);
            bp = Stats.of(t[5]);
            // the same kind of question on and on at main, as a long-running agent process asks: each round's
            // p50 shows the JIT compiler finishing the code the first rounds still ran interpreted or half-compiled
            Random again = new Random(seed ^ 0xA6A1L);
            long[] lastCpu = new long[samples];
            for (int round = 0; round < WARM_ROUNDS; round++) {
                long[] w = new long[samples];
                for (int i = 0; i < samples; i++) {
                    String q = word(again.nextInt(5000)) + " " + word(again.nextInt(5000));
                    long a = System.nanoTime();
                    long ac = cpu();
                    sink += recall.search(SearchQuery.builder(q).at(head).build()).size();
                    lastCpu[i] = cpu() - ac;
                    w[i] = System.nanoTime() - a;
                }
                rounds.add(Stats.of(w));
            }
            warmCpu = Stats.of(lastCpu);
            log.printf("search two words at main, %d rounds of %,d in a row, wall p50 of each: %s ms%n", WARM_ROUNDS,
                    samples, rounds.stream().map(x -> String.format("%.2f", x.p50Millis()))
                            .collect(java.util.stream.Collectors.joining(" / ")));
            log.println("  (checksum " + sink + ")");
            if (embedder.dimensions() > 0) {
                semantic = embeddingWrites(store, rnd, next, gone, entities, facts, history, semantic);
            }
        }
        if (embedder.dimensions() > 0) {
            semantic = new Semantic(semantic.embedder(), semantic.rebuildSeconds(), semantic.embeddedPerSecond(),
                    bytes(gitDir.resolve("palimpsest-index/search-v1")),
                    bytes(gitDir.resolve("palimpsest-index/vectors-v1")), semantic.batchWritesPerSecond(),
                    semantic.oneFactWritesPerSecond(), semantic.batchWindows());
            log.printf("semantic channel: search index %,.1f MB, vector cache %,.1f MB (%,d facts)%n",
                    semantic.indexBytes() / 1e6, semantic.vectorCacheBytes() / 1e6, next[0]);
            log.flush();
        }

        // incremental, (a) the writer's own path: each commit handed to the index as the writer hands it
        // (its changes and encoded facts), timed alone, for one-fact commits (what an agent writes) and
        // for OWN_BATCH-fact batches; (b) caught up from git (diff and decode), commits of the history's size
        long[] own = new long[extra];
        long[] ownCpu = new long[extra];
        long[] ownB = new long[batches];
        long[] ownBCpu = new long[batches];
        double incremental;
        double incrementalCpu;
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            try (SearchIndex idx = SearchIndex.open(repo, claims)) {
                try (Store writer = Store.open(gitDir, home, opts); RevWalk walk = new RevWalk(repo.repository());
                        ObjectReader reader = repo.newReader()) {
                    for (int i = 0; i < extra + batches; i++) {
                        boolean one = i < extra;
                        CommitId c = write(writer, rnd, one ? 1 : OWN_BATCH, next, gone, entities, facts);
                        history.add(c);
                        long[] t = ownTimed(repo, claims, idx, walk, reader, c);
                        if (one) {
                            own[i] = t[0];
                            ownCpu[i] = t[1];
                        } else {
                            ownB[i - extra] = t[0];
                            ownBCpu[i - extra] = t[1];
                        }
                    }
                    for (int i = 0; i < extra; i++) {
                        history.add(write(writer, rnd, size(rnd, minBatch, batch), next, gone, entities, facts));
                    }
                }
                claims.seq(repo.head()); // the claims index catches up first: not counted
                long i0 = System.nanoTime();
                long ic = cpu();
                int applied = idx.catchUpToHead();
                incremental = (System.nanoTime() - i0) / 1e6 / Math.max(1, applied);
                incrementalCpu = (cpu() - ic) / 1e6 / Math.max(1, applied);
            }
        }
        Stats ownStats = Stats.of(own);
        Stats ownCpuStats = Stats.of(ownCpu);
        Stats ownBStats = Stats.of(ownB);
        Stats ownBCpuStats = Stats.of(ownBCpu);
        log.printf("index update, the writer's own path, 1-fact commits (%d): wall %s | CPU %s%n", extra, ownStats,
                ownCpuStats);
        log.printf("index update, the writer's own path, %d-fact commits (%d): wall %s | CPU %s%n", OWN_BATCH, batches,
                ownBStats, ownBCpuStats);
        log.printf("index update, caught up from git: %.3f ms wall, %.3f ms CPU per commit (%d commits of %s facts)%n",
                incremental, incrementalCpu, extra, minBatch == batch ? Integer.toString(batch) : minBatch + "-" + batch);
        log.flush();

        // a second history shape: one fact per commit, as agents write; its cold rebuild
        double[] small = {0, 0, 0, 0};
        if (smallCommits > 0) {
            Path gitDir2 = dir.resolve("small.git");
            long s0 = System.nanoTime();
            int[] next2 = {0};
            boolean[] gone2 = new boolean[smallCommits + 1];
            try (Store store = Store.initializer(gitDir2).home(home).actor(ACTOR).options(opts).create()) {
                Transaction first = store.begin(ACTOR);
                first.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
                first.commit();
                for (int i = 0; i < smallCommits; i++) {
                    write(store, rnd, 1, next2, gone2, entities, smallCommits);
                    if ((i + 1) % 5000 == 0) {
                        log.printf("  %,d one-fact commits (%.0f s)%n", i + 1, (System.nanoTime() - s0) / 1e9);
                        log.flush();
                    }
                }
            }
            small = rebuild(gitDir2);
            log.printf("cold rebuild (%,d commits of 1 fact): %.2f s wall, %.2f s CPU of this thread, %.2f s of the"
                    + " process (%,.0f commits/s wall)%n", (int) small[2], small[0], small[1], small[3],
                    small[2] / small[0]);
            log.flush();
        }

        // side by side: a rebuild-per-query scan and git grep, at main and at random past commits
        int slow = Math.max(3, Math.min(10, samples / 100));
        long[] scan = new long[slow];
        long[] grep = new long[slow * 4];
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            for (int i = 0; i < slow; i++) {
                ObjectId c = ObjectId.fromString((i == 0 ? history.get(history.size() - 1)
                        : history.get(rnd.nextInt(history.size()))).hex());
                String q = word(rnd.nextInt(5000));
                long a = System.nanoTime();
                SearchBenchGit.scanSearch(repo, c, q);
                scan[i] = System.nanoTime() - a;
            }
        }
        for (int i = 0; i < grep.length; i++) {
            CommitId c = i == 0 ? history.get(history.size() - 1) : history.get(rnd.nextInt(history.size()));
            String q = "Service-" + rnd.nextInt(entities) + "$";
            long a = System.nanoTime();
            try {
                Proc.run(gitDir, Map.of(), null, "git", "--git-dir", gitDir.toString(), "grep", "-l", "-i", "-e", q,
                        c.hex(), "--", "facts/");
            } catch (IOException e) {
                // exit 1: no match at that commit, still a search
            }
            grep[i] = System.nanoTime() - a;
        }
        Result r = new Result(facts, entities, minBatch == batch ? Integer.toString(batch) : minBatch + "-" + batch,
                history.size() + 2, eh, ep, th, tp, bh, bp, cpuStats, ownStats, ownCpuStats, ownBStats, ownBCpuStats,
                OWN_BATCH, incremental, incrementalCpu, extra, rebuild, rebuildCpu, indexed / rebuild,
                indexed / rebuildCpu, (int) small[2], small[0], small[1], Stats.of(scan), Stats.of(grep), build,
                semantic, List.copyOf(rounds), warmCpu, grown, List.copyOf(segments));
        String[] names = {"search an entity at main:           ", "search an entity at a past commit:  ",
            "search two words at main:           ", "search two words at a past commit:  ",
            "brief (500 tokens) at main:         ", "brief (500 tokens) at a past commit:"};
        Stats[] wall = {eh, ep, th, tp, bh, bp};
        for (int k = 0; k < 6; k++) {
            log.println(names[k] + " wall " + wall[k] + " | CPU " + cpuStats.get(k));
            if (k == 2) {
                log.println("  the same, warm (the last of " + WARM_ROUNDS + " rounds in a row): wall "
                        + rounds.get(rounds.size() - 1) + " | CPU " + warmCpu);
            }
        }
        log.println("rebuild-per-query scan:              " + r.scanPerQuery());
        log.println("git grep at the commit:              " + r.gitGrep());
        log.flush();
        deleteTree(dir);
        return r;
    }

    /** The documents of each segment of the search index's last Lucene commit, largest first. */
    private static List<Integer> segments(Path gitDir) throws IOException {
        List<Integer> docs = new ArrayList<>();
        try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(
                gitDir.resolve("palimpsest-index").resolve("search-v1"))) {
            for (org.apache.lucene.index.SegmentCommitInfo si : org.apache.lucene.index.SegmentInfos.readLatestCommit(d)) {
                docs.add(si.info.maxDoc());
            }
        }
        docs.sort(java.util.Comparator.reverseOrder());
        return docs;
    }

    /** Deletes the search index of {@code gitDir} and reopens it: wall s, CPU s of this thread, commits indexed. */
    private static double[] rebuild(Path gitDir) throws IOException {
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            deleteTree(gitDir.resolve("palimpsest-index/search-v1"));
            long r0 = System.nanoTime();
            long rc = cpu();
            long pc = processCpu();
            int indexed;
            try (SearchIndex idx = SearchIndex.open(repo, claims)) {
                indexed = idx.indexedSeq() + 1;
            }
            return new double[] {(System.nanoTime() - r0) / 1e9, (cpu() - rc) / 1e9, indexed,
                (processCpu() - pc) / 1e9};
        }
    }

    /**
     * Hands commit {@code c} to the claims index (not timed) and then to the search index as the
     * writer does, with its changes and facts; wall and CPU nanoseconds of the search index's update.
     */
    private static long[] ownTimed(GitRepo repo, ClaimsIndex claims, SearchIndex idx, RevWalk walk, ObjectReader reader,
            CommitId c) throws IOException {
        RevCommit rc = walk.parseCommit(ObjectId.fromString(c.hex()));
        ObjectId parent = rc.getParent(0).copy();
        Map<String, ObjectId> changes = SearchBenchGit.changes(reader, walk, rc);
        Map<String, Fact> written = new HashMap<>();
        for (Map.Entry<String, ObjectId> e : changes.entrySet()) {
            if (e.getValue() != null && SearchBenchGit.isFactPath(e.getKey())) {
                try {
                    written.put(e.getKey(), FactCodec.decodeFact(
                            reader.open(e.getValue()).getCachedBytes(Snapshot.MAX_READ), e.getKey()));
                } catch (FormatException ex) {
                    throw new IOException("the bench wrote an unreadable fact " + e.getKey(), ex);
                }
            }
        }
        claims.committed(rc.copy(), parent, ACTOR, changes, written); // as the writer does: not timed
        long a = System.nanoTime();
        long ac = cpu();
        idx.committed(rc.copy(), parent, ACTOR, changes, written);
        long cpuNs = cpu() - ac;
        return new long[] {System.nanoTime() - a, cpuNs};
    }

    /** What a kept build leaves for the run that reuses it: the generator's state and the history. */
    private record Built(Random rnd, int next, boolean[] gone, List<String> history, double seconds)
            implements java.io.Serializable {}

    private static int size(Random rnd, int min, int max) {
        return min >= max ? max : min + rnd.nextInt(max - min + 1);
    }

    static CommitId write(Store store, Random rnd, int n, int[] next, boolean[] gone, int entities, int facts)
            throws PalimpsestException {
        Transaction tx = store.begin(ACTOR);
        int start = next[0];
        for (int k = 0; k < n; k++) {
            int id = next[0]++;
            ClaimSpec spec = ClaimSpec.of(entity(rnd.nextInt(entities)), PREDICATES[rnd.nextInt(PREDICATES.length)],
                    object(rnd), FactId.of("docs")).id(FactId.of("c" + id)).run("run-" + (id / 100));
            int old = id >= facts / 10 && start > 0 ? rnd.nextInt(start) : -1;
            int dice = rnd.nextInt(50);
            if (old >= 0 && dice < 5 && !gone[old]) {
                gone[old] = true;
                tx.supersede(FactId.of("c" + old), spec.toFactSpec());
            } else {
                tx.assertFact(spec.toFactSpec());
                if (old >= 0 && dice == 5 && !gone[old]) {
                    gone[old] = true;
                    tx.retract(FactId.of("c" + old), "wrong");
                }
            }
        }
        return tx.commit().id();
    }

    /**
     * Writes {@link #EMBED_WINDOWS} windows of {@link #embedWindow} facts in commits of {@link
     * #OWN_BATCH} and then {@link #EMBED_ONE_FACT_WRITES} one-fact commits through {@code store},
     * whose open index embeds each commit's versions as the writer hands them over: facts per second
     * of each, written and embedded.
     */
    private Semantic embeddingWrites(Store store, Random rnd, int[] next, boolean[] gone, int entities, int facts,
            List<CommitId> history, Semantic s) throws PalimpsestException {
        int window = embedWindow(facts);
        List<Double> windows = new ArrayList<>();
        for (int k = 0; k < EMBED_WINDOWS; k++) {
            long w0 = System.nanoTime();
            for (int i = 0; i < window / OWN_BATCH; i++) {
                history.add(write(store, rnd, OWN_BATCH, next, gone, entities, facts));
            }
            store.recall().prepare();
            windows.add(window / ((System.nanoTime() - w0) / 1e9));
        }
        double batch = windows.get(0);
        log.printf("writes that embed, commits of %d, %d windows of %,d facts in a row: %s facts/s%n", OWN_BATCH,
                EMBED_WINDOWS, window, windows.stream().map(x -> String.format("%,.0f", x))
                        .collect(java.util.stream.Collectors.joining(" / ")));
        long o0 = System.nanoTime();
        for (int i = 0; i < EMBED_ONE_FACT_WRITES; i++) {
            history.add(write(store, rnd, 1, next, gone, entities, facts));
        }
        store.recall().prepare();
        double one = EMBED_ONE_FACT_WRITES / ((System.nanoTime() - o0) / 1e9);
        log.printf("writes that embed: %,.0f facts/s in commits of %d (the first window), %,.0f facts/s in one-fact"
                + " commits%n", batch,
                OWN_BATCH, one);
        log.flush();
        return new Semantic(s.embedder(), s.rebuildSeconds(), s.embeddedPerSecond(), 0, 0, batch, one,
                List.copyOf(windows));
    }

    /** The bytes of the files under {@code dir} (0 when it does not exist). */
    private static long bytes(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            long n = 0;
            for (Path q : s.filter(Files::isRegularFile).toList()) {
                n += Files.size(q);
            }
            return n;
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
