package dev.palimpsest.bench;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An audited pull of N new commits (fetch into quarantine over a file remote, audit of every new
 * commit, fast-forward) beside {@code git fetch} plus {@code git log --show-signature} of the same
 * range (git asking gpg to verify each signature), in one run.
 */
public final class PullBench {
    /**
     * The outcome: the wall time of the process's first pull (a warm-up one when there are any),
     * p50 and p90 of the {@code runs} timed pulls (after the {@code warmup} pulls, which are not
     * counted; {@code backToBack}: without a full collection before each), the p50 of the
     * process's and of the calling thread's CPU time, the git pair's times, the ratio of the git
     * pair to the pull p50, and the 1-minute load average before and after the pulls.
     */
    public record Result(int commits, int warmup, int runs, boolean backToBack, double setupSeconds,
            double firstPullSeconds, double medianPullSeconds, double p90PullSeconds, double medianPullCpuSeconds,
            double medianThreadCpuSeconds, double gitFetchSeconds, double gitLogSeconds, int gitGoodSignatures,
            double ratio, double loadBefore, double loadAfter, double floorSeconds) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);
    private final Path workDir;
    private final PrintWriter log;

    public PullBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /**
     * Builds the origin and a replica behind it by {@code commits}, pulls {@code warmup} and then
     * {@code runs} times, each into a fresh copy of the replica, and runs git; {@code keep}: the
     * origin and the replica behind it are kept in {@code <work dir>/bench-pull-<commits>} and
     * reused by the next run that keeps them; {@code collect}: a full collection before each pull
     * (else the pulls run back to back, each collecting what the ones before left).
     */
    public Result run(int commits, int warmup, int runs, boolean git, boolean keep, boolean collect)
            throws IOException, PalimpsestException {
        Path kept = workDir.toAbsolutePath().resolve("bench-pull-" + commits);
        Path dir = keep ? Files.createDirectories(kept) : Files.createTempDirectory(workDir.toAbsolutePath(), "bench-pull-");
        try {
            KeyHome home = new KeyHome(dir.resolve("home"));
            Path origin = dir.resolve("origin.git");
            Path behind = dir.resolve("behind.git");
            Path built = dir.resolve("built");
            long t0 = System.nanoTime();
            if (!Files.exists(built)) {
                try (Store s = Store.initializer(origin).home(home).actor(ACTOR).options(OPTIONS).create()) {
                    Replication.cloneStore(origin.toString(), behind, OPTIONS, TransferProgress.none());
                    build(s, commits);
                }
                awaitBackgroundRepack(origin);
                if (keep) {
                    Files.writeString(built, "built\n");
                }
                log.printf("  built the origin and a replica %d commits behind in %.1f s%n", commits,
                        (System.nanoTime() - t0) / 1e9);
            } else {
                log.printf("  reusing the origin and replica kept in %s%n", dir);
            }
            double setup = (System.nanoTime() - t0) / 1e9;
            log.flush();
            double loadBefore = loadAverage();
            double[] times = new double[warmup + runs];
            double[] cpu = new double[warmup + runs];
            double[] threadCpu = new double[warmup + runs];
            String freeRatio = keepHeapAfterCollections();
            try {
                for (int i = 0; i < warmup + runs; i++) {
                    Path replica = copy(behind, dir.resolve("replica-" + i + ".git"));
                    if (collect) {
                        System.gc();
                    }
                    try (Store s = Store.open(replica, home, OPTIONS)) {
                        long gc0 = gcMillis();
                        long jit0 = java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
                        PullPhases phases = new PullPhases();
                        PullResult r = s.replication().pullAs("origin", ACTOR, phases);
                        List<PullPhases.Phase> ps = phases.end();
                        for (PullPhases.Phase p : ps) {
                            times[i] += p.wall();
                            cpu[i] += p.processCpu();
                            threadCpu[i] += p.threadCpu();
                        }
                        if (!(r instanceof PullResult.FastForward f) || f.audited() != commits) {
                            throw new IllegalStateException("the pull did not fast-forward " + commits + " commits: " + (r instanceof PullResult.Refused ref
                                    ? "refused, " + ref.report().violations().size() + " violations, first: "
                                            + ref.report().violations().stream().limit(3).toList()
                                    : r));
                        }
                        log.printf("  %s %d: %d commits fetched, audited and adopted in %.2f s (process CPU %.2f s,"
                                + " calling thread CPU %.2f s, load %.2f)%n", i < warmup ? "warm-up pull" : "pull",
                                i < warmup ? i + 1 : i - warmup + 1, f.audited(), times[i], cpu[i], threadCpu[i],
                                loadAverage());
                        for (PullPhases.Phase p : ps) {
                            log.printf("      %-22s wall %6.3f s  thread CPU %6.3f s  process CPU %6.3f s%n", p.task(),
                                    p.wall(), p.threadCpu(), p.processCpu());
                        }
                        StringBuilder byThread = new StringBuilder("      threads' CPU:");
                        phases.threadCpu().forEach((name, sec) -> byThread.append(String.format(" %s %.3f s,", name, sec)));
                        log.println(byThread.substring(0, byThread.length() - 1)
                                + String.format("; collector pauses %.3f s, JIT compiling %.3f s", (gcMillis() - gc0) / 1e3,
                                        (java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0) / 1e3));
                        log.flush();
                    }
                    CommitBench.deleteTree(replica);
                }
            } finally {
                heapFreeRatio(freeRatio);
            }
            double loadAfter = loadAverage();
            double first = times[0];
            times = Arrays.copyOfRange(times, warmup, warmup + runs);
            cpu = Arrays.copyOfRange(cpu, warmup, warmup + runs);
            threadCpu = Arrays.copyOfRange(threadCpu, warmup, warmup + runs);
            Arrays.sort(times);
            Arrays.sort(cpu);
            Arrays.sort(threadCpu);
            double median = times[times.length / 2];
            double p90 = times[Math.min(times.length - 1, (int) Math.ceil(times.length * 0.9) - 1)];
            double fetch = Double.NaN;
            double gitLog = Double.NaN;
            int good = 0;
            if (git) {
                double[] g = gitPair(dir, origin, behind);
                fetch = g[0];
                gitLog = g[1];
                good = (int) g[2];
            }
            PullFloor.Result floor = new PullFloor(origin, head(behind), "keys/" + ACTOR.value() + ".asc").measure(3);
            log.printf("  floor (the work no audited pull can skip, best of 3, this JVM): %s%n", PullFloor.describe(floor));
            log.flush();
            return new Result(commits, warmup, runs, !collect, setup, first, median, p90, cpu[cpu.length / 2],
                    threadCpu[threadCpu.length / 2], fetch, gitLog, good, (fetch + gitLog) / median, loadBefore,
                    loadAfter, floor.wallSeconds());
        } finally {
            if (keep) {
                for (String left : List.of("git-replica.git", "gnupg")) {
                    CommitBench.deleteTree(dir.resolve(left));
                }
            } else {
                CommitBench.deleteTree(dir);
            }
        }
    }

    /**
     * Makes the collection the bench asks for before each pull leave the heap at the size it has
     * (HotSpot's manageable {@code MaxHeapFreeRatio} at 100; its old value is returned): otherwise
     * G1 shrinks it to tens of MB after that full collection and the pull pays to grow it again,
     * which a process that pulls never pays after a collection it did not ask for.
     */
    static String keepHeapAfterCollections() {
        var vm = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        String old = vm.getVMOption("MaxHeapFreeRatio").getValue();
        heapFreeRatio("100");
        return old;
    }

    static void heapFreeRatio(String value) {
        java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .setVMOption("MaxHeapFreeRatio", value);
    }

    /** The 1-minute load average (/proc/loadavg), or NaN where there is none. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Waits until no background merge of large packs runs in the origin (the writes above start
     * one on a daemon thread that outlives the closed store): it would compete with the pulls for
     * the cores. A real hub does that work on its own machine.
     */
    private static void awaitBackgroundRepack(Path origin) throws IOException {
        try (GitRepo g = GitRepo.open(origin, false)) {
            while (!g.repack().whileIdle(() -> { })) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the origin's repack", e);
                }
            }
        }
    }

    private static void build(Store s, int commits) throws PalimpsestException {
        List<FactId> claims = new ArrayList<>();
        FactId source = null;
        CommitId sourceAt = null;
        for (int i = 0; i < commits; i++) {
            Transaction t = s.begin(ACTOR);
            if (i % 10 == 0) {
                source = FactId.of("src-" + i);
                t.assertFact(FactSpec.of(Kind.SOURCE, "Source " + i + ": the harbour board approved the breakwater by"
                        + " seven votes to two after a long debate about dredging costs.").id(source));
                sourceAt = t.commit().id();
                continue;
            }
            if (i % 50 == 7 && !claims.isEmpty()) {
                t.revise(claims.get(i % claims.size()), "revised at commit " + i, List.of());
            } else if (i % 199 == 3 && claims.size() > 1) {
                t.retract(claims.remove(i % claims.size()), "superseded at commit " + i);
            } else {
                FactId id = FactId.of("claim-" + i);
                t.assertFact(FactSpec.of(Kind.CLAIM, "Claim " + i + " about the breakwater vote.").id(id)
                        .refs(List.of(RefSpec.cites(source).at(sourceAt).withQuote("approved the breakwater by seven"))));
                claims.add(id);
            }
            t.commit();
        }
    }

    /** git fetch of the same range into a copy of the replica, then git log --show-signature of it: seconds, seconds, good. */
    private double[] gitPair(Path dir, Path origin, Path behind) throws IOException {
        Path replica = copy(behind, dir.resolve("git-replica.git"));
        Path gnupg = Files.createDirectory(dir.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        String key = Proc.run(dir, Map.of(), null, "git", "--git-dir=" + origin, "show", "main:keys/" + ACTOR.value()
                + ".asc");
        Proc.run(dir, env, key.getBytes(StandardCharsets.US_ASCII), "gpg", "--batch", "--quiet", "--import");
        try {
            String old = Proc.run(dir, Map.of(), null, "git", "--git-dir=" + replica, "rev-parse", "main").strip().lines()
                    .reduce((a, b) -> b).orElseThrow();
            long s0 = System.nanoTime();
            Proc.run(dir, env, null, "git", "--git-dir=" + replica, "fetch", "--quiet", origin.toString(),
                    "+refs/heads/main:refs/remotes/origin/main");
            double fetch = (System.nanoTime() - s0) / 1e9;
            long s1 = System.nanoTime();
            String out = Proc.run(dir, env, null, "git", "--git-dir=" + replica, "log", "--show-signature",
                    old + "..refs/remotes/origin/main");
            double gitLog = (System.nanoTime() - s1) / 1e9;
            int good = (int) out.lines().filter(l -> l.startsWith("gpg: Good signature")).count();
            log.printf("  git fetch: %.2f s; git log --show-signature: %.2f s (%d good signatures)%n", fetch, gitLog, good);
            log.flush();
            return new double[] {fetch, gitLog, good};
        } finally {
            Proc.run(dir, env, null, "gpgconf", "--kill", "all");
        }
    }

    private static org.eclipse.jgit.lib.ObjectId head(Path gitDir) throws IOException {
        try (GitRepo g = GitRepo.open(gitDir, false)) {
            return g.head();
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        KeptBench.copy(from, to);
        return to;
    }

    /** Milliseconds the JVM's collectors report spending so far (all collectors). */
    private static long gcMillis() {
        long ms = 0;
        for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, b.getCollectionTime());
        }
        return ms;
    }
}
