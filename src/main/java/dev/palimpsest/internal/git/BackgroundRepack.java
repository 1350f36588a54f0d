package dev.palimpsest.internal.git;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.Pack;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.internal.storage.pack.PackWriter;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.pack.PackConfig;

/**
 * Merges the large tiers ({@link PackCompactor#MAX_TIER} and up) on a daemon thread with JGit's
 * pack writer and delta compression: when a tier holds {@link PackCompactor#MERGE} packs they
 * become one deltified pack of a higher tier, so each object is rewritten about once per tier.
 * The inline {@link PackCompactor} never retires packs of these tiers, so the two never touch the
 * same pack; across processes, one merge at a time holds {@code palimpsest-repack.lock}. Every
 * object of the merged packs is kept (no reachability pruning), so concurrent writers are safe.
 * Thread-safe.
 */
public final class BackgroundRepack {
    private final GitRepo repo;
    private final Path lockFile;
    private final AtomicBoolean running = new AtomicBoolean();
    /** Set by {@link #close}: no merge starts, and the one writing gives up before it retires a pack. */
    private volatile boolean closing;
    /** The merging thread, while one runs. */
    private volatile Thread thread;
    /** Tells JGit's pack writer to stop once the repository is closing. */
    private final ProgressMonitor cancel = new Cancel(() -> closing);

    public BackgroundRepack(GitRepo repo) {
        this.repo = repo;
        this.lockFile = repo.gitDir().resolve("palimpsest-repack.lock");
    }

    /**
     * Runs {@code action} while holding the repack lock, so that no merge (in any process) runs
     * meanwhile; returns false without running it when a merge holds the lock.
     */
    public boolean whileIdle(Runnable action) {
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return false;
            }
            try {
                action.run();
                return true;
            } finally {
                lock.release();
            }
        } catch (java.nio.channels.OverlappingFileLockException mergingHere) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** Starts a merge in the background if a large tier is full and no merge runs here. */
    public void maybeStart() {
        if (closing || running.get() || PackCompactor.fullLargeTier(repo) == null
                || !running.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(this::run, "palimpsest-repack");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * Stops merging before the repository closes: a merge that is writing its pack gives up (its
     * temporary files deleted, the packs as they were) and a merge that is retiring packs finishes;
     * waits for the merging thread at most {@code waitMillis}. Idempotent.
     */
    public void close(long waitMillis) {
        closing = true;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return;
            }
            try {
                List<Pack> group;
                while (!closing && (group = PackCompactor.fullLargeTier(repo)) != null) {
                    merge(group);
                }
            } finally {
                lock.release();
            }
        } catch (IOException | RuntimeException e) {
            // a failed merge leaves the packs as they were; a later commit may try again
        } finally {
            thread = null;
            running.set(false);
        }
    }

    private void merge(List<Pack> group) throws IOException {
        PackConfig config = new PackConfig(repo.repository());
        config.setDeltaCompress(true);
        config.setReuseDeltas(true);
        config.setReuseObjects(true);
        FilePool pool = repo.pool();
        Path packTmp = pool.take();
        Path idxTmp = pool.take();
        ObjectId name;
        boolean moved = false;
        try (ObjectReader reader = repo.repository().newObjectReader(); RevWalk walk = new RevWalk(reader);
                PackWriter pw = new PackWriter(config, reader)) {
            Set<ObjectId> seen = new HashSet<>();
            List<RevObject> objects = new ArrayList<>();
            for (Pack p : group) {
                for (PackIndex.MutableEntry e : p) {
                    ObjectId id = e.toObjectId();
                    if (seen.add(id)) {
                        objects.add(walk.lookupAny(id, reader.open(id).getType()));
                    }
                }
            }
            pw.preparePack(objects.iterator());
            write(packTmp, out -> pw.writePack(cancel, cancel, out));
            write(idxTmp, pw::writeIndex);
            name = pw.computeName();
            if (closing) {
                throw new IOException("the repository is closing");
            }
            Path dir = repo.gitDir().resolve("objects/pack");
            Path pack = dir.resolve("pack-" + name.name() + ".pack");
            // the index first: JGit readers list packs by their .pack file and take one without an index for corrupt
            Files.move(idxTmp, dir.resolve("pack-" + name.name() + ".idx"), StandardCopyOption.ATOMIC_MOVE);
            Files.move(packTmp, pack, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
            ((FileRepository) repo.repository()).getObjectDatabase().openPack(pack.toFile());
            PackCompactor.retire(group, pool, pack);
        } finally {
            if (!moved) {
                Files.deleteIfExists(packTmp);
                Files.deleteIfExists(idxTmp);
            }
        }
    }

    private interface Body {
        void write(OutputStream out) throws IOException;
    }

    private static void write(Path file, Body body) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
            body.write(out);
        }
    }
}
