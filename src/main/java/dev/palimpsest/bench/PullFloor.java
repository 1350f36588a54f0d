package dev.palimpsest.bench;

import dev.palimpsest.internal.audit.RawCommit;
import dev.palimpsest.internal.crypto.CommitSignature;
import dev.palimpsest.internal.crypto.TrustedKey;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.ObjectWalk;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.sha1.SHA1;

/**
 * The part of an audited pull that no implementation can skip, timed alone: verifying the signature
 * of every new commit (parsing the commit and its OpenPGP signature, then Ed25519 with the signer's
 * key) and hashing every new object with collision-detecting SHA-1, split over all cores, on bytes
 * already in memory (nothing is read, inflated, written, decoded or checked against the rules).
 * A pull can approach this time but not beat it; {@code bench pull} prints it beside the pulls.
 * Not thread-safe.
 */
final class PullFloor {
    /**
     * The floor: the best wall time of the rounds, and in that round the CPU time spent verifying
     * signatures and hashing objects; {@code bytes} is the size of the objects hashed (their bodies).
     */
    record Result(int signatures, int objects, long bytes, int threads, double wallSeconds,
            double signatureCpuSeconds, double hashCpuSeconds) {}

    private record Obj(int type, byte[] data) {}

    private final List<byte[]> commits = new ArrayList<>();
    private final List<Obj> objects = new ArrayList<>();
    private long bytes;
    private final TrustedKey key;

    /** Reads into memory what {@code origin}'s main has and {@code behindMain} lacks, and the key {@code keyPath} at that main. */
    PullFloor(Path origin, ObjectId behindMain, String keyPath) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(origin.toFile()).setMustExist(true).build();
                ObjectReader reader = r.newObjectReader();
                ObjectWalk walk = new ObjectWalk(reader)) {
            ObjectId main = r.resolve(Constants.R_HEADS + "main");
            walk.setRetainBody(true);
            walk.markStart(walk.parseCommit(main));
            walk.markUninteresting(walk.parseCommit(behindMain));
            for (RevCommit c; (c = walk.next()) != null; ) {
                commits.add(c.getRawBuffer());
                add(Constants.OBJ_COMMIT, c.getRawBuffer());
            }
            for (RevObject o; (o = walk.nextObject()) != null; ) {
                add(o.getType(), reader.open(o, o.getType()).getBytes());
            }
            try (TreeWalk keyFile = TreeWalk.forPath(reader, keyPath, walk.parseCommit(main).getTree())) {
                if (keyFile == null) {
                    throw new IOException("no " + keyPath + " at " + origin + "'s main");
                }
                key = TrustedKey.parse(new String(reader.open(keyFile.getObjectId(0)).getBytes(),
                        StandardCharsets.US_ASCII));
            }
        }
    }

    private void add(int type, byte[] data) {
        objects.add(new Obj(type, data));
        bytes += data.length;
    }

    /** Runs {@code rounds} rounds on every core; the best round's times. */
    Result measure(int rounds) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "palimpsest-floor");
            t.setDaemon(true);
            return t;
        });
        try {
            Result best = null;
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                List<Future<double[]>> parts = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    int part = i;
                    parts.add(pool.submit(() -> work(part, threads)));
                }
                double sig = 0;
                double hash = 0;
                for (Future<double[]> f : parts) {
                    double[] cpu = f.get();
                    sig += cpu[0];
                    hash += cpu[1];
                }
                double wall = (System.nanoTime() - t0) / 1e9;
                if (best == null || wall < best.wallSeconds()) {
                    best = new Result(commits.size(), objects.size(), bytes, threads, wall, sig, hash);
                }
            }
            return best;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException("the floor's work failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Verifies every {@code threads}-th commit's signature and hashes every {@code threads}-th object from {@code part}: CPU seconds of each. */
    private double[] work(int part, int threads) throws IOException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        for (int i = part; i < commits.size(); i += threads) {
            RawCommit c = RawCommit.parse(commits.get(i));
            if (c.signature() == null || !key.verify(CommitSignature.parse(c.signature()), c.payload())) {
                throw new IOException("commit " + i + " of the range does not verify");
            }
        }
        long c1 = mx.getCurrentThreadCpuTime();
        SHA1 sha = SHA1.newInstance();
        for (int i = part; i < objects.size(); i += threads) {
            Obj o = objects.get(i);
            sha.reset();
            sha.update(Constants.encodedTypeString(o.type()));
            sha.update((byte) ' ');
            sha.update(Constants.encodeASCII(o.data().length));
            sha.update((byte) 0);
            sha.update(o.data());
            sha.toObjectId();
        }
        long c2 = mx.getCurrentThreadCpuTime();
        return new double[] {(c1 - c0) / 1e9, (c2 - c1) / 1e9};
    }

    static String describe(Result f) {
        return String.format("%d signatures verified and %d objects (%.1f MB) hashed with SHA-1DC on %d threads,"
                + " in memory: %.2f s (CPU: signatures %.2f s, hashing %.2f s)", f.signatures(), f.objects(),
                f.bytes() / 1e6, f.threads(), f.wallSeconds(), f.signatureCpuSeconds(), f.hashCpuSeconds());
    }
}
