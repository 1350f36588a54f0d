package dev.palimpsest.bench;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.StoreOptions;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bench forget}: forget of one sealed fact whose closure holds N facts (each run a new root
 * cited by N facts written in one commit), p50 wall and CPU; reading sealed facts beside plaintext
 * ones (p50 per read and CPU per read, the median of five passes alternating which kind goes first, and the
 * ratio); and the audit rate of a store of single-fact commits, sealed beside
 * plaintext (audited in alternation, medians). Fsync off, one JVM.
 */
public final class ForgetBench {
    private static final ActorName ACTOR = ActorName.of("bench");
    private static final int PASSES = 5;
    private final Path dir;
    private final PrintWriter out;
    private final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();

    public ForgetBench(Path dir, PrintWriter out) {
        this.dir = dir;
        this.out = out;
    }

    /** The numbers: forget p50 (ms wall, ms CPU), read p50 (us) sealed and plain, audit commits/s sealed and plain. */
    public record Result(int closure, int runs, double forgetP50Millis, double forgetCpuP50Millis, double readSealedP50Micros,
            double readPlainP50Micros, double readRatio, double readSealedCpuMicros, double readPlainCpuMicros,
            double auditSealedPerSecond, double auditPlainPerSecond, double auditSealedCpuMicrosPerCommit,
            double auditPlainCpuMicrosPerCommit, double loadAverage) {}

    /** The JVM's CPU time in ns (all threads), or -1. */
    private static long processCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private Store init(String name) throws Exception {
        Path d = Files.createTempDirectory(dir, name);
        return Store.initializer(d.resolve("store.git")).home(new KeyHome(d.resolve("home"))).actor(ACTOR)
                .options(StoreOptions.defaults().withFsync(false)).create();
    }

    public Result run(int closure, int runs, int reads, int commits) throws Exception {
        double[] wall = new double[runs];
        double[] cpuMs = new double[runs];
        try (Store s = init("forget")) {
            for (int r = -2; r < runs; r++) {
                FactId root = FactId.of("root" + (r + 2));
                Transaction tx = s.begin(ACTOR);
                tx.assertFact(FactSpec.of(Kind.of("note"), "the root of run " + r + " holds personal data").id(root)
                        .asSensitive());
                tx.commit();
                tx = s.begin(ACTOR);
                for (int i = 0; i < closure; i++) {
                    tx.assertFact(FactSpec.of(Kind.of("note"), "citer " + i + " of " + root).id(FactId.of(root.value() + "-c" + i))
                            .refs(List.of(RefSpec.cites(root))));
                }
                tx.commit();
                long c0 = cpu.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                int n = s.erasure().forget(ACTOR, List.of(root), "bench", false).closure().size();
                long t1 = System.nanoTime();
                long c1 = cpu.getCurrentThreadCpuTime();
                if (n != closure) {
                    throw new IllegalStateException("closure of " + root + " holds " + n + ", expected " + closure);
                }
                if (r >= 0) {
                    wall[r] = (t1 - t0) / 1e6;
                    cpuMs[r] = (c1 - c0) / 1e6;
                }
            }
        }
        out.printf("forget, closure of %d: p50 %.1f ms wall, %.1f ms CPU (%d runs)%n", closure, p50(wall), p50(cpuMs), runs);
        double sealed;
        double plain;
        double sealedCpu;
        double plainCpu;
        try (Store s = init("read")) {
            Transaction tx = s.begin(ACTOR);
            for (int i = 0; i < reads; i++) {
                String body = "fact number " + i + " with some ordinary words in its body, as a note would have";
                tx.assertFact(FactSpec.of(Kind.of("note"), body).id(FactId.of("p" + i)));
                tx.assertFact(FactSpec.of(Kind.of("note"), body).id(FactId.of("s" + i)).asSensitive());
            }
            tx.commit();
            CommitId head = s.head();
            for (int w = 0; w < 3; w++) {
                readAll(s, "p", reads, head);
                readAll(s, "s", reads, head);
            }
            // Five passes, alternating which kind goes first; each figure is the median over the passes.
            double[][] t = new double[4][PASSES];
            for (int pass = 0; pass < PASSES; pass++) {
                for (int k = 0; k < 2; k++) {
                    boolean sealedNow = (pass + k) % 2 == 1;
                    long c0 = cpu.getCurrentThreadCpuTime();
                    double p50 = readAll(s, sealedNow ? "s" : "p", reads, head);
                    double perRead = (cpu.getCurrentThreadCpuTime() - c0) / 1e3 / reads;
                    t[sealedNow ? 0 : 1][pass] = p50;
                    t[sealedNow ? 2 : 3][pass] = perRead;
                }
            }
            sealed = p50(t[0]);
            plain = p50(t[1]);
            sealedCpu = p50(t[2]);
            plainCpu = p50(t[3]);
        }
        out.printf("read p50: sealed %.1f us, plaintext %.1f us (ratio %.2f); CPU per read: sealed %.1f us, plaintext %.1f us"
                + " (ratio %.2f)%n", sealed, plain, sealed / plain, sealedCpu, plainCpu, sealedCpu / plainCpu);
        double[] a = audits(commits);
        double[] auditSealed = {a[0], a[1]};
        double[] auditPlain = {a[2], a[3]};
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        out.printf("audit: sealed %.0f commits/s (%.0f us CPU per commit), plaintext %.0f commits/s (%.0f us CPU per commit);"
                + " %d single-fact commits; load average %.1f%n", auditSealed[0], auditSealed[1], auditPlain[0], auditPlain[1],
                commits, load);
        return new Result(closure, runs, p50(wall), p50(cpuMs), sealed, plain, sealed / plain, sealedCpu, plainCpu,
                auditSealed[0], auditPlain[0], auditSealed[1], auditPlain[1], load);
    }

    private static double readAll(Store s, String prefix, int n, CommitId head) throws Exception {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            s.read(FactId.of(prefix + i), head);
            t[i] = (System.nanoTime() - t0) / 1e3;
        }
        return p50(t);
    }

    /** A store of {@code commits} single-fact commits, sealed or plaintext; its git directory. */
    private Path auditedStore(int commits, boolean sealed) throws Exception {
        try (Store s = init(sealed ? "audit-sealed" : "audit-plain")) {
            for (int i = 0; i < commits; i++) {
                Transaction tx = s.begin(ACTOR);
                FactSpec f = FactSpec.of(Kind.of("note"), "audited fact " + i + " with a few words").id(FactId.of("a" + i));
                tx.assertFact(sealed ? f.asSensitive() : f);
                tx.commit();
            }
            return s.gitDir();
        }
    }

    /**
     * Audits the sealed and the plaintext store in alternation (3 warm-up rounds, then 5 measured):
     * {sealed commits/s, sealed process CPU us per commit, plaintext commits/s, plaintext CPU us per
     * commit}, each the median of the measured runs.
     */
    private double[] audits(int commits) throws Exception {
        Path[] stores = {auditedStore(commits, true), auditedStore(commits, false)};
        double[][] rate = new double[2][PASSES];
        double[][] cpuPerCommit = new double[2][PASSES];
        try (Auditor sealed = Auditor.open(stores[0]); Auditor plain = Auditor.open(stores[1])) {
            Auditor[] auditors = {sealed, plain};
            for (int round = -3; round < PASSES; round++) {
                for (int k = 0; k < 2; k++) {
                    int which = (round + k + 3) % 2;
                    long c0 = processCpu();
                    long t0 = System.nanoTime();
                    auditors[which].audit(AuditProgress.none());
                    if (round >= 0) {
                        rate[which][round] = (commits + 1) / ((System.nanoTime() - t0) / 1e9);
                        cpuPerCommit[which][round] = (processCpu() - c0) / 1e3 / (commits + 1);
                    }
                }
            }
        }
        return new double[] {p50(rate[0]), p50(cpuPerCommit[0]), p50(rate[1]), p50(cpuPerCommit[1])};
    }

    private static double p50(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length == 0 ? Double.NaN : s[s.length / 2];
    }
}
