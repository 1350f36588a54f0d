package dev.palimpsest.bench;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Audit throughput on a store of single-fact commits (sources, claims citing a pinned source
 * version with a quote, revisions, retractions), beside {@code git log --format=%G?} (git asking
 * gpg to verify every signature) on the same store in the same run.
 */
public final class AuditBench {
    /** The outcome: audit rates (the first, cold run; the median of the measured runs) and git's rate. */
    public record Result(int commits, double setupSeconds, double coldCommitsPerSecond, double auditCommitsPerSecond,
            double auditCpuMicrosPerCommit, double gitLogCommitsPerSecond, Map<String, Integer> gitStatuses,
            int violations, double loadAverage) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path workDir;
    private final PrintWriter log;

    public AuditBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /**
     * Builds the store, audits it {@code warmup} times (JIT warm-up; the first is reported as the
     * cold rate) and then {@code runs} times (the median is reported), then times git log.
     */
    public Result run(int commits, int warmup, int runs, boolean git) throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir.toAbsolutePath(), "bench-audit-");
        try {
            KeyHome home = new KeyHome(dir.resolve("home"));
            Path storeDir = dir.resolve("store.git");
            long t0 = System.nanoTime();
            build(storeDir, home, commits);
            double setup = (System.nanoTime() - t0) / 1e9;
            log.printf("  built %d commits in %.1f s%n", commits, setup);
            log.flush();
            double cold = Double.NaN;
            double[] rates = new double[runs];
            double[] cpu = new double[runs];
            int violations = 0;
            try (Auditor auditor = Auditor.open(storeDir)) {
                for (int i = 0; i < warmup + runs; i++) {
                    long c0 = processCpuNanos();
                    long s = System.nanoTime();
                    AuditReport r = auditor.audit(AuditProgress.none());
                    double rate = r.commits() / ((System.nanoTime() - s) / 1e9);
                    double micros = (processCpuNanos() - c0) / 1e3 / r.commits();
                    violations = r.violations().size();
                    log.printf("  audit %s %d: %d commits, %d signatures, %d refs, %d violations: %.0f commits/s"
                            + " (%.0f us CPU per commit)%n", i < warmup ? "warm-up" : "run", i < warmup ? i + 1
                            : i - warmup + 1, r.commits(), r.signatures(), r.refs(), violations, rate, micros);
                    log.flush();
                    if (i == 0) {
                        cold = rate;
                    }
                    if (i >= warmup) {
                        rates[i - warmup] = rate;
                        cpu[i - warmup] = micros;
                    }
                }
            }
            Arrays.sort(rates);
            Arrays.sort(cpu);
            double gitRate = Double.NaN;
            Map<String, Integer> statuses = new TreeMap<>();
            if (git) {
                gitRate = gitLog(dir, storeDir, statuses);
            }
            return new Result(commits, setup, cold, median(rates), median(cpu), gitRate, statuses, violations,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        } finally {
            CommitBench.deleteTree(dir);
        }
    }

    private static double median(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    private static void build(Path storeDir, KeyHome home, int commits) throws PalimpsestException {
        Random rnd = new Random(42);
        List<FactId> sources = new ArrayList<>();
        List<CommitId> sourceCommits = new ArrayList<>();
        List<FactId> claims = new ArrayList<>();
        try (Store store = Store.initializer(storeDir)
                .home(home).actor(ACTOR).options(StoreOptions.defaults().withFsync(false)).create()) {
            for (int i = 1; i < commits; i++) {
                Transaction t = store.begin(ACTOR);
                if (i % 10 == 1 || sources.isEmpty()) {
                    FactId id = FactId.of("src-" + i);
                    t.assertFact(FactSpec.of(Kind.SOURCE, "Source " + i + ": the harbour board approved the breakwater by"
                            + " seven votes to two after a long debate about dredging costs.").id(id));
                    sources.add(id);
                    sourceCommits.add(t.commit().id());
                    continue;
                }
                if (i % 50 == 0 && !claims.isEmpty()) {
                    t.revise(claims.get(rnd.nextInt(claims.size())), "revised at commit " + i, List.of());
                } else if (i % 199 == 0 && claims.size() > 1) {
                    t.retract(claims.remove(rnd.nextInt(claims.size())), "superseded at commit " + i);
                } else {
                    List<RefSpec> refs = new ArrayList<>();
                    if (i % 3 == 0) {
                        int k = rnd.nextInt(sources.size());
                        refs.add(RefSpec.cites(sources.get(k)).at(sourceCommits.get(k))
                                .withQuote("approved the breakwater by seven votes"));
                    }
                    FactId id = FactId.of("claim-" + i);
                    t.assertFact(FactSpec.of(Kind.CLAIM, "Claim " + i + " about the breakwater vote.").id(id)
                            .refs(refs));
                    claims.add(id);
                }
                t.commit();
            }
        }
    }

    /** CPU time of this process (all threads), or 0 where the JVM does not report it. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private double gitLog(Path dir, Path storeDir, Map<String, Integer> statuses) throws IOException {
        Path gnupg = Files.createDirectory(dir.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        byte[] key = Files.readAllBytes(exportKey(dir, storeDir));
        Proc.run(dir, env, key, "gpg", "--batch", "--quiet", "--import");
        try {
            long s = System.nanoTime();
            String out = Proc.run(dir, env, null, "git", "--git-dir=" + storeDir, "log", "--format=%G?", "main");
            double seconds = (System.nanoTime() - s) / 1e9;
            List<String> lines = out.lines().toList();
            for (String l : lines) {
                statuses.merge(l, 1, Integer::sum);
            }
            double rate = lines.size() / seconds;
            log.printf("  git log --format=%%G? main: %d commits in %.1f s: %.0f commits/s %s%n", lines.size(), seconds,
                    rate, statuses);
            log.flush();
            return rate;
        } finally {
            Proc.run(dir, env, null, "gpgconf", "--kill", "all");
        }
    }

    private static Path exportKey(Path dir, Path storeDir) throws IOException {
        Path out = dir.resolve("key.asc");
        String armored = Proc.run(dir, Map.of(), null, "git", "--git-dir=" + storeDir, "show",
                "main:keys/" + ACTOR.value() + ".asc");
        Files.writeString(out, armored, StandardCharsets.US_ASCII);
        return out;
    }
}
