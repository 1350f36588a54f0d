package dev.palimpsest.bench;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.StoredFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * {@code bench dependents}: a closure of N facts (each citing one or two earlier ones, seed 42,
 * written 1,000 per commit) and the p50/p99 of {@code dependents --transitive} of its root.
 * {@code bench file}: {@code file put} of an M MiB file beside {@code git hash-object -w} on the
 * same file, in the same run, with the heap used before and after.
 */
public final class DerivationBench {
    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path dir;
    private final PrintWriter out;

    public DerivationBench(Path dir, PrintWriter out) {
        this.dir = dir;
        this.out = out;
    }

    public record DependentsResult(int nodes, int found, double p50Millis, double p99Millis) {}

    public record FileResult(long bytes, double putMillis, double gitMillis, double ratio, long heapBeforeBytes,
            long heapAfterBytes, long maxHeapBytes) {}

    private Store init(String name) throws Exception {
        Path d = Files.createTempDirectory(dir, name);
        return Store.initializer(d.resolve("store.git")).home(new KeyHome(d.resolve("home"))).actor(ACTOR)
                .options(StoreOptions.defaults().withFsync(false)).create();
    }

    public DependentsResult dependents(int nodes, int samples) throws Exception {
        Random rnd = new Random(42);
        try (Store s = init("dependents")) {
            Transaction tx = s.begin(ACTOR);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "root document").id(FactId.of("n0")));
            tx.commit();
            for (int base = 1; base < nodes; base += 1000) {
                tx = s.begin(ACTOR);
                for (int i = base; i < Math.min(nodes, base + 1000); i++) {
                    List<RefSpec> refs = new ArrayList<>();
                    int a = rnd.nextInt(i);
                    refs.add(RefSpec.cites(FactId.of("n" + a)));
                    int b = rnd.nextInt(i);
                    if (b != a && rnd.nextBoolean()) {
                        refs.add(RefSpec.cites(FactId.of("n" + b)));
                    }
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "node " + i).id(FactId.of("n" + i)).refs(refs));
                }
                tx.commit();
            }
            CommitId head = s.head();
            int found = 0;
            for (int i = 0; i < 20; i++) {
                found = s.derivations().dependents(FactId.of("n0"), head, true).size();
            }
            double[] t = new double[samples];
            for (int i = 0; i < samples; i++) {
                long t0 = System.nanoTime();
                List<Dependent> d = s.derivations().dependents(FactId.of("n0"), head, true);
                t[i] = (System.nanoTime() - t0) / 1e6;
                found = d.size();
            }
            Arrays.sort(t);
            DependentsResult r = new DependentsResult(nodes, found, t[samples / 2], t[Math.min(samples - 1, samples * 99 / 100)]);
            out.printf("dependents --transitive over %d nodes: %d found, p50 %.2f ms, p99 %.2f ms (%d samples)%n",
                    nodes, found, r.p50Millis(), r.p99Millis(), samples);
            return r;
        }
    }

    public FileResult file(int mib) throws Exception {
        Path big = Files.createTempFile(dir, "bench-file", ".bin");
        try {
            byte[] buf = new byte[1 << 20];
            Random rnd = new Random(42);
            try (OutputStream o = Files.newOutputStream(big)) {
                for (int i = 0; i < mib; i++) {
                    // half random, half text-like: compressible like typical produced files
                    rnd.nextBytes(buf);
                    for (int j = buf.length / 2; j < buf.length; j++) {
                        buf[j] = (byte) ('a' + (j * 31 + i) % 26);
                    }
                    o.write(buf);
                }
            }
            try (Store s = init("file")) {
                Transaction tx = s.begin(ACTOR);
                tx.assertFact(FactSpec.of(Kind.SOURCE, "bench source").id(FactId.of("src")));
                tx.commit();
                Path warm = Files.createTempFile(dir, "warm", ".bin");
                Files.write(warm, new byte[1 << 20]);
                s.files().put(ACTOR, ProducedFiles.Put.of("warm.bin", warm, FactId.of("src")));
                Files.delete(warm);
                System.gc();
                Runtime rt = Runtime.getRuntime();
                long before = rt.totalMemory() - rt.freeMemory();
                long t0 = System.nanoTime();
                StoredFile f = s.files().put(ACTOR, ProducedFiles.Put.of("big.bin", big, FactId.of("src")));
                double put = (System.nanoTime() - t0) / 1e6;
                long after = rt.totalMemory() - rt.freeMemory();
                Path gitDir = Files.createTempDirectory(dir, "git");
                run(List.of("git", "init", "-q", "--bare", gitDir.toString()));
                long g0 = System.nanoTime();
                run(List.of("git", "--git-dir", gitDir.toString(), "hash-object", "-w", big.toString()));
                double git = (System.nanoTime() - g0) / 1e6;
                FileResult r = new FileResult(Files.size(big), put, git, put / git, before, after, rt.maxMemory());
                out.printf("file put of %d MiB: %.0f ms; git hash-object -w: %.0f ms; ratio %.2f; heap used %d MiB before,"
                        + " %d MiB after (max heap %d MiB); sha256 %s%n", mib, put, git, r.ratio(), before >> 20,
                        after >> 20, rt.maxMemory() >> 20, f.sha256());
                return r;
            }
        } finally {
            Files.deleteIfExists(big);
        }
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            throw new IOException(cmd + " failed");
        }
    }
}
