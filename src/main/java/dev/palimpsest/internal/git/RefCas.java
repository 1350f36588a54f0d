package dev.palimpsest.internal.git;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Compare-and-swap of {@code refs/heads/main} with git's lock-file protocol: the lock
 * {@code main.lock} is taken exclusively (a hard link to a pooled file that already holds the new
 * id, which fails if the lock exists, exactly like git's O_EXCL create), the current value is
 * compared with the expected one under the lock, and the lock is renamed over the ref. Compatible
 * with git and JGit writers, which take the same lock. The new ref file comes from the pool, so
 * an update waits for no inode creation. Not thread-safe; used under the writer lock.
 */
public final class RefCas {
    /** The outcome of one attempt. */
    public enum Result { UPDATED, MOVED, LOCKED }

    private final GitRepo repo;
    private final FilePool pool;
    private final Path ref;
    private final Path lock;

    public RefCas(GitRepo repo, FilePool pool) {
        this.repo = repo;
        this.pool = pool;
        this.ref = repo.gitDir().resolve(GitRepo.MAIN);
        this.lock = repo.gitDir().resolve(GitRepo.MAIN + ".lock");
    }

    /** Moves main from {@code expected} (null: absent) to {@code next}, recording nothing in main's reflog. */
    public Result update(ObjectId expected, ObjectId next, boolean fsync) throws IOException {
        return update(expected, next, fsync, null);
    }

    /**
     * Moves main from {@code expected} (null: absent) to {@code next}; with a {@code reflogLine}
     * (see {@link MainReflog}), appends it to main's reflog under the ref lock before the lock is
     * renamed over the ref, as git does.
     */
    public Result update(ObjectId expected, ObjectId next, boolean fsync, String reflogLine) throws IOException {
        Path staged;
        while (true) {
            staged = pool.take();
            try (FileChannel ch = FileChannel.open(staged, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap((next.name() + "\n").getBytes(StandardCharsets.US_ASCII)));
                if (fsync) {
                    ch.force(true);
                }
                break;
            } catch (NoSuchFileException claimedElsewhere) {
                // another process took that pooled file; take the next one
            }
        }
        try {
            Files.createDirectories(lock.getParent());
            Files.createLink(lock, staged);
        } catch (FileAlreadyExistsException e) {
            return Result.LOCKED;
        } finally {
            Files.deleteIfExists(staged);
        }
        boolean renamed = false;
        try {
            ObjectId current = repo.head();
            if (expected == null ? current != null : !expected.equals(current)) {
                return Result.MOVED;
            }
            if (reflogLine != null) {
                MainReflog.append(repo.gitDir(), reflogLine, fsync);
            }
            Files.move(lock, ref, StandardCopyOption.ATOMIC_MOVE);
            renamed = true;
            if (fsync) {
                syncDirectory(ref.getParent());
            }
            return Result.UPDATED;
        } finally {
            if (!renamed) {
                Files.deleteIfExists(lock);
            }
        }
    }

    /** The ref lock file, for stale-lock recovery. */
    public Path lockFile() {
        return lock;
    }

    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
