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
import java.util.stream.Stream;

/**
 * An audited pull of N new commits (fetch into quarantine over a file remote, audit of every new
 * commit, fast-forward) beside {@code git fetch} plus {@code git log --show-signature} of the same
 * range (git asking gpg to verify each signature), in one run.
 */
public final class PullBench {
    /** The outcome: pull times (first run, median of all), the git pair's time, and what was pulled. */
    public record Result(int commits, double setupSeconds, double firstPullSeconds, double medianPullSeconds,
            double medianPullCpuSeconds, double gitFetchSeconds, double gitLogSeconds, int gitGoodSignatures,
            double ratio) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);
    private final Path workDir;
    private final PrintWriter log;

    public PullBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /** Builds the origin and a replica behind it by {@code commits}, pulls {@code runs} times on fresh copies, runs git. */
    public Result run(int commits, int runs, boolean git) throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir.toAbsolutePath(), "bench-pull-");
        try {
            KeyHome home = new KeyHome(dir.resolve("home"));
            Path origin = dir.resolve("origin.git");
            Path behind = dir.resolve("behind.git");
            long t0 = System.nanoTime();
            try (Store s = Store.initializer(origin).home(home).actor(ACTOR).options(OPTIONS).create()) {
                Replication.cloneStore(origin.toString(), behind, OPTIONS, TransferProgress.none());
                build(s, commits);
            }
            awaitBackgroundRepack(origin);
            double setup = (System.nanoTime() - t0) / 1e9;
            log.printf("  built the origin and a replica %d commits behind in %.1f s%n", commits, setup);
            log.flush();
            double[] times = new double[runs];
            double[] cpu = new double[runs];
            for (int i = 0; i < runs; i++) {
                Path replica = copy(behind, dir.resolve("replica-" + i + ".git"));
                try (Store s = Store.open(replica, home, OPTIONS)) {
                    long s0 = System.nanoTime();
                    long c0 = processCpuNanos();
                    PullResult r = s.replication().pull("origin", ACTOR, TransferProgress.none());
                    times[i] = (System.nanoTime() - s0) / 1e9;
                    cpu[i] = (processCpuNanos() - c0) / 1e9;
                    if (!(r instanceof PullResult.FastForward f) || f.audited() != commits) {
                        throw new IllegalStateException("the pull did not fast-forward " + commits + " commits: " + r);
                    }
                    log.printf("  pull %d: %d commits fetched, audited and adopted in %.2f s (process CPU %.2f s)%n",
                            i + 1, f.audited(), times[i], cpu[i]);
                    log.flush();
                }
                CommitBench.deleteTree(replica);
            }
            double first = times[0];
            Arrays.sort(times);
            double median = times[times.length / 2];
            Arrays.sort(cpu);
            double medianCpu = cpu[cpu.length / 2];
            double fetch = Double.NaN;
            double gitLog = Double.NaN;
            int good = 0;
            if (git) {
                double[] g = gitPair(dir, origin, behind);
                fetch = g[0];
                gitLog = g[1];
                good = (int) g[2];
            }
            return new Result(commits, setup, first, median, medianCpu, fetch, gitLog, good, (fetch + gitLog) / median);
        } finally {
            CommitBench.deleteTree(dir);
        }
    }

    /** CPU time of the whole process (every thread: the audit's workers, the JIT, the collector). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
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

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        return to;
    }
}
