package dev.palimpsest.internal.git;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serialises writers of one repository: a fair in-process lock per repository, then an OS file
 * lock on {@code palimpsest-writer.lock} in the git directory, which the kernel releases when a
 * process dies. Reentrant: a thread that holds it may acquire it again (the inner hold takes no
 * second OS lock). Compare-and-swap on the ref stays the correctness guard against writers that do
 * not take this lock (the git CLI). Thread-safe.
 */
public final class WriterLock {
    /** Keyed by real path, so two paths (a symlink) to one repository share one lock. */
    private static final ConcurrentHashMap<Path, ReentrantLock> LOCAL = new ConcurrentHashMap<>();
    private final Path lockFile;
    private final ReentrantLock local;

    public WriterLock(Path gitDir) {
        this.lockFile = gitDir.resolve("palimpsest-writer.lock");
        this.local = LOCAL.computeIfAbsent(realPath(gitDir), k -> new ReentrantLock(true));
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /** A held lock; closing it releases both levels. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** True when the calling thread holds this repository's writer lock. */
    public boolean heldByCurrentThread() {
        return local.isHeldByCurrentThread();
    }

    /** Takes the lock, waiting for other threads and processes; a thread already holding it gets an inner hold. */
    public Held acquire() {
        if (local.isHeldByCurrentThread()) {
            local.lock();
            return local::unlock;
        }
        local.lock();
        FileChannel ch = null;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock fl = ch.lock();
            FileChannel channel = ch;
            return () -> {
                try {
                    fl.release();
                    channel.close();
                } catch (IOException e) {
                    throw new PalimpsestInternalException("cannot release writer lock " + lockFile, e);
                } finally {
                    local.unlock();
                }
            };
        } catch (IOException | RuntimeException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // the original failure is the one to report
            }
            local.unlock();
            throw new PalimpsestInternalException("cannot take writer lock " + lockFile, e);
        }
    }
}
