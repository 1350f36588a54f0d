package dev.palimpsest.bench;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The three predicates at random past commits (FactValidAt at a random instant too), as history grows to {@code commits} commits over
 * {@code facts} facts (asserts, then random revisions, retractions and re-adds), beside
 * {@code git log -1 -- <path>} through the git CLI; then the cold index rebuild rate and the
 * open time of a store with a persisted index.
 */
public final class PredicateBench {
    /** Results. */
    public record Result(int commits, int facts, List<Stats> liveAt, List<Stats> existsAt, List<Stats> validAt,
            List<Integer> checkpoints, Stats gitLog, double rebuildCommitsPerSecond, double openMillis,
            Stats validAtCold, double setupSeconds) {}

    /** The valid-time instants facts and questions are spread over: 2020 on, an hour per fact. */
    private static final java.time.Instant EPOCH = java.time.Instant.parse("2020-01-01T00:00:00Z");

    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path workDir;
    private final PrintWriter log;

    public PredicateBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    public Result run(int commits, int facts, int samples, int gitSamples, long seed)
            throws IOException, PalimpsestException {
        return run(commits, facts, 1, samples, gitSamples, seed);
    }

    /** As {@link #run(int, int, int, int, long)}, the first commits asserting {@code batch} facts each. */
    public Result run(int commits, int facts, int batch, int samples, int gitSamples, long seed)
            throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir, "bench-pred-");
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path gitDir = dir.resolve("store.git");
        StoreOptions opts = StoreOptions.defaults().withFsync(false);
        Random rnd = new Random(seed);
        List<CommitId> history = new ArrayList<>();
        List<Stats> live = new ArrayList<>();
        List<Stats> exists = new ArrayList<>();
        List<Stats> valid = new ArrayList<>();
        List<Integer> checkpoints = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            try (Store store = Store.initializer(gitDir).home(home).actor(ACTOR).options(opts).create()) {
                boolean[] isLive = new boolean[facts];
                int next = 0;
                for (int i = 1; i < commits; i++) {
                    Transaction tx = store.begin(ACTOR);
                    if (next < facts) {
                        for (int b = 0; b < batch && next < facts; b++) {
                            tx.assertFact(validity(FactSpec.of(Kind.CLAIM, "fact " + next + " v0")
                                    .id(FactId.of("f" + next)), next, rnd));
                            isLive[next++] = true;
                        }
                    } else {
                        int f = rnd.nextInt(facts);
                        FactId id = FactId.of("f" + f);
                        int op = rnd.nextInt(10);
                        if (!isLive[f]) {
                            tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + f + " re-added at " + i).id(id));
                            isLive[f] = true;
                        } else if (op == 0) {
                            tx.retract(id, "retracted at " + i);
                            isLive[f] = false;
                        } else {
                            tx.revise(id, "fact " + f + " v" + i, List.of());
                        }
                    }
                    history.add(tx.commit().id());
                    WRITTEN.put(history.get(history.size() - 1), next);
                    if ((i + 1) % (commits / 4) == 0 || i == commits - 1) {
                        checkpoints.add(i + 1);
                        live.add(measure(store, history, facts, samples, rnd, true));
                        exists.add(measure(store, history, facts, samples, rnd, false));
                        valid.add(measureValid(store, history, facts, samples, rnd, 2000));
                        log.printf("  [%d commits] factLiveAtCommit %s | factExistsAt %s | FactValidAt %s%n", i + 1,
                                live.get(live.size() - 1).micros(), exists.get(exists.size() - 1).micros(),
                                valid.get(valid.size() - 1).micros());
                        log.flush();
                    } else if ((i + 1) % 10_000 == 0) {
                        log.printf("  [%d commits written]%n", i + 1);
                        log.flush();
                    }
                }
            }
            double setup = (System.nanoTime() - t0) / 1e9;
            Stats git = gitSamples > 0 ? gitLog(gitDir, history, facts, gitSamples, rnd) : null;
            if (git != null) {
                log.printf("  git log -1 --format=%%H C -- <path>: %s%n", git);
            }
            double rebuild = rebuild(gitDir);
            long o = System.nanoTime();
            Stats cold;
            try (Store store = Store.open(gitDir, home, opts)) {
                store.head();
                double opened = (System.nanoTime() - o) / 1e6;
                log.printf("  cold index rebuild: %.0f commits/s; open with persisted index: %.0f ms%n", rebuild, opened);
                cold = measureValid(store, history, facts, Math.min(samples, 1000), rnd, 0);
                log.printf("  FactValidAt cold (the first %d questions after opening, no warm-up): %s%n",
                        Math.min(samples, 1000), cold.micros());
            }
            double openMs = (System.nanoTime() - o) / 1e6;
            log.flush();
            return new Result(commits, facts, live, exists, valid, checkpoints, git, rebuild, openMs, cold, setup);
        } finally {
            CommitBench.deleteTree(dir);
        }
    }

    private static Stats measure(Store store, List<CommitId> history, int facts, int samples, Random rnd,
            boolean live) throws PalimpsestException {
        for (int i = 0; i < 2000; i++) {
            ask(store, history, facts, rnd, live);
        }
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            int k = rnd.nextInt(history.size());
            FactId id = pick(history, k, facts, rnd);
            CommitId c = history.get(k);
            long s = System.nanoTime();
            if (live) {
                store.factLiveAtCommit(id, c);
            } else {
                store.factExistsAt(id, c);
            }
            nanos[i] = System.nanoTime() - s;
        }
        return Stats.of(nanos);
    }

    /**
     * A validity for fact {@code n}: from its hour after {@link #EPOCH} (three facts in four), until
     * a random later hour (one in four), else open.
     */
    private static FactSpec validity(FactSpec spec, int n, Random rnd) {
        java.time.Instant from = EPOCH.plusSeconds(3600L * n);
        FactSpec s = rnd.nextInt(4) == 0 ? spec : spec.validFrom(from);
        return rnd.nextInt(4) == 0 ? s.validUntil(from.plusSeconds(3600L * (1 + rnd.nextInt(1000)))) : s;
    }

    /** FactValidAt at random past commits and random instants over the facts' validity span, after {@code warmUp} untimed calls. */
    private static Stats measureValid(Store store, List<CommitId> history, int facts, int samples, Random rnd,
            int warmUp) throws PalimpsestException {
        long span = 3600L * (facts + 1000);
        for (int i = 0; i < warmUp; i++) {
            int k = rnd.nextInt(history.size());
            store.factValidAt(pick(history, k, facts, rnd), EPOCH.plusSeconds((long) (rnd.nextDouble() * span)),
                    history.get(k));
        }
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            int k = rnd.nextInt(history.size());
            FactId id = pick(history, k, facts, rnd);
            CommitId c = history.get(k);
            java.time.Instant t = EPOCH.plusSeconds((long) (rnd.nextDouble() * span));
            long s = System.nanoTime();
            store.factValidAt(id, t, c);
            nanos[i] = System.nanoTime() - s;
        }
        return Stats.of(nanos);
    }

    private static void ask(Store store, List<CommitId> history, int facts, Random rnd, boolean live)
            throws PalimpsestException {
        int k = rnd.nextInt(history.size());
        FactId id = pick(history, k, facts, rnd);
        CommitId c = history.get(k);
        if (live) {
            store.factLiveAtCommit(id, c);
        } else {
            store.factExistsAt(id, c);
        }
    }

    /**
     * A random fact already written at the {@code k}-th commit after genesis (commit k + 1 asserts
     * fact k until every fact exists): the predicates answer for facts of the history, and a fact
     * never written there is a NotFoundException, not an answer.
     */
    private static FactId pick(List<CommitId> history, int k, int facts, Random rnd) {
        return FactId.of("f" + rnd.nextInt(Math.max(1, Math.min(facts, WRITTEN.getOrDefault(history.get(k), facts)))));
    }

    /** How many facts exist at each commit of a history (batched asserts write several per commit). */
    private static final Map<CommitId, Integer> WRITTEN = new java.util.concurrent.ConcurrentHashMap<>();

    private static Stats gitLog(Path gitDir, List<CommitId> history, int facts, int samples, Random rnd)
            throws IOException {
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            int k = rnd.nextInt(history.size());
            FactId id = pick(history, k, facts, rnd);
            CommitId c = history.get(k);
            long s = System.nanoTime();
            Proc.run(gitDir, Map.of(), null, "git", "--git-dir", gitDir.toString(), "log", "-1", "--format=%H",
                    c.hex(), "--", StorePaths.factPath(Kind.CLAIM, id));
            nanos[i] = System.nanoTime() - s;
        }
        return Stats.of(nanos);
    }

    private static double rebuild(Path gitDir) throws IOException {
        CommitBench.deleteTree(gitDir.resolve("palimpsest-index"));
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            long s = System.nanoTime();
            PredicateIndex idx = PredicateIndex.open(repo);
            double secs = (System.nanoTime() - s) / 1e9;
            idx.persist();
            return idx.commitCount() / secs;
        }
    }
}
