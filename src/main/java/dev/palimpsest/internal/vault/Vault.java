package dev.palimpsest.internal.vault;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.SealKeys;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The key vault of a store: {@code palimpsest-vault/<aa>/<bb>/<id>.key} in the git directory, one
 * 32-byte random data key per sealed fact (all its versions), files 0600 in 0700 folders. A key is
 * written and fsynced (file and folders) before the commit that uses it lands; {@link #destroy}
 * deletes it and fsyncs its folder. The vault is not part of git history and is not replicated:
 * a replica without the key reads the content as unavailable. Keys read are cached per instance,
 * and each use checks that the file still exists (another process may have destroyed it). A forget
 * in flight holds an intent file ({@link #intendForget}) so that one a crash interrupted is finished
 * on the next open. Thread-safe.
 */
public final class Vault implements SealKeys {
    /** The vault's folder name in the git directory. */
    public static final String FOLDER = "palimpsest-vault";
    /** Bytes in a data key (AES-256). */
    public static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] ABSENT = new byte[0];

    /**
     * The intent files this JVM locks (or is about to): it opens no second channel on them, since
     * closing one would drop the lock (a POSIX record lock belongs to the process, not the channel).
     */
    private static final java.util.Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path root;
    private final boolean fsync;
    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

    public Vault(Path gitDir, boolean fsync) {
        this.root = gitDir.resolve(FOLDER);
        this.fsync = fsync;
    }

    /** The vault's folder. */
    public Path root() {
        return root;
    }

    /** The key file of {@code id}. */
    public Path file(FactId id) {
        return root.resolve(StorePaths.shard(id)).resolve(id.value() + ".key");
    }

    @Override
    public byte[] key(FactId id) {
        byte[] k = cache.get(id.value());
        if (k != null && !Files.exists(file(id))) {
            cache.remove(id.value()); // destroyed by another process
            return null;
        }
        if (k == null) {
            try {
                byte[] read = Files.readAllBytes(file(id));
                k = read.length == KEY_BYTES ? read : ABSENT;
            } catch (NoSuchFileException e) {
                k = ABSENT;
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot read the data key of " + id + ": " + e.getMessage(), e);
            }
            if (k != ABSENT) {
                cache.put(id.value(), k);
            }
        }
        return k == ABSENT ? null : k.clone();
    }

    /** True when the vault holds a key file for {@code id}. */
    public boolean holds(FactId id) {
        return Files.exists(file(id));
    }

    /** Bumped by {@link #forgotten}: caches of decoded content built under an older generation are dropped. */
    @Override
    public long generation() {
        return generation.get();
    }

    /**
     * This process learnt that {@code ids} are forgotten (by its own write, another process or a
     * replica): destroys the keys the vault still holds and bumps the {@link #generation}, so every
     * cache of decoded content is dropped. Returns the ids whose key it destroyed.
     */
    public java.util.List<FactId> forgotten(java.util.Collection<FactId> ids) {
        java.util.List<FactId> destroyed = new java.util.ArrayList<>();
        for (FactId id : ids) {
            if (destroy(id)) {
                destroyed.add(id);
            }
        }
        generation.incrementAndGet();
        return destroyed;
    }

    /** The key of {@code id}, created (random, durable) when absent. */
    public byte[] keyOrCreate(FactId id) {
        return keyOrCreate(id, new java.util.HashSet<>());
    }

    /** The key of {@code id}, created (random, durable) when absent, in which case {@code id} is added to {@code created}. */
    public synchronized byte[] keyOrCreate(FactId id, java.util.Set<FactId> created) {
        byte[] k = key(id);
        if (k != null) {
            return k;
        }
        k = new byte[KEY_BYTES];
        RANDOM.nextBytes(k);
        Path f = file(id);
        try {
            write(mkdirs(f.getParent()), f, id, k);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the data key of " + id + ": " + e.getMessage(), e);
        }
        cache.put(id.value(), k);
        created.add(id);
        return k.clone();
    }

    /**
     * Destroys the key of {@code id} (deletes the file, fsyncs its folder); true when one existed.
     * The seam replication uses when a pulled commit carries a tombstone for {@code id}.
     */
    public synchronized boolean destroy(FactId id) {
        cache.remove(id.value());
        Path f = file(id);
        try {
            boolean existed = Files.deleteIfExists(f);
            if (existed) {
                syncDir(f.getParent());
            }
            return existed;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot destroy the data key of " + id + ": " + e.getMessage(), e);
        }
    }

    /** The folder of the intents of forgets in flight. */
    public static final String INTENTS = "forgetting";

    /**
     * Records that a forget is in flight: an empty file {@code palimpsest-vault/forgetting/<pid>-<n>.intent}
     * (durable before the forget's commit), locked by this process until {@link Intent#done}. A
     * process that dies between the commit and the keys' destruction leaves it, unlocked, for
     * {@link #orphanedIntents} to find on the next open.
     */
    public Intent intendForget() {
        Path dir = root.resolve(INTENTS);
        Path f = dir.resolve(ProcessHandle.current().pid() + "-" + System.nanoTime() + ".intent");
        HELD.add(held(f));
        try {
            mkdirs(dir);
            FileChannel ch = FileChannel.open(f, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                ch.lock();
                force(ch);
                syncDir(dir);
                return new Intent(f, ch);
            } catch (IOException | RuntimeException e) {
                ch.close();
                Files.deleteIfExists(f);
                throw e;
            }
        } catch (IOException e) {
            HELD.remove(held(f));
            throw new PalimpsestInternalException("cannot record a forget's intent in " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            HELD.remove(held(f));
            throw e;
        }
    }

    /**
     * The intents no live process holds (their forget was interrupted), each now locked by the
     * caller; empty (no file system work beyond one folder read) on a clean store.
     */
    public java.util.List<Intent> orphanedIntents() {
        Path dir = root.resolve(INTENTS);
        java.util.List<Intent> out = new java.util.ArrayList<>();
        if (Files.isDirectory(dir)) {
            orphans(dir, out);
        }
        return out;
    }

    private void orphans(Path dir, java.util.List<Intent> out) {
        try (java.nio.file.DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.intent")) {
            for (Path f : ds) {
                if (!HELD.add(held(f))) {
                    continue; // this JVM's own forget in flight, or an orphan it is settling
                }
                java.nio.channels.FileLock lock = null;
                FileChannel ch = null;
                try {
                    ch = FileChannel.open(f, StandardOpenOption.WRITE);
                    lock = ch.tryLock();
                } catch (NoSuchFileException e) {
                    // its forget just finished
                } finally {
                    if (lock == null) {
                        if (ch != null) {
                            ch.close();
                        }
                        HELD.remove(held(f));
                    }
                }
                if (lock != null) {
                    out.add(new Intent(f, ch));
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A forget's intent file and the channel whose lock says its process is alive. */
    public final class Intent {
        private final Path file;
        private final FileChannel channel;

        private Intent(Path file, FileChannel channel) {
            this.file = file;
            this.channel = channel;
        }

        /** The intent file. */
        public Path file() {
            return file;
        }

        /** The forget is settled (or never landed): deletes the file, then releases the lock. */
        public void done() {
            try {
                delete(file);
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot delete " + file + ": " + e.getMessage(), e);
            } finally {
                release();
            }
        }

        /** Releases the lock (closing its channel) and keeps the file: what a process that dies here leaves behind. */
        public void release() {
            try {
                channel.close();
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot release " + file + ": " + e.getMessage(), e);
            } finally {
                HELD.remove(held(file));
            }
        }
    }

    private static Path held(Path intent) {
        return intent.toAbsolutePath().normalize();
    }

    private Path mkdirs(Path dir) throws IOException {
        Path p = root.getParent();
        for (Path part : p.relativize(dir)) {
            p = p.resolve(part);
            if (!Files.isDirectory(p)) {
                try {
                    Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    // another writer made it
                }
                syncDir(p.getParent());
            }
        }
        return dir;
    }

    @dev.palimpsest.model.DoNotMutate("fsync only: its mutants drop the key's and folder's fsyncs, seen only after a power loss")
    private void write(Path shard, Path f, FactId id, byte[] k) throws IOException {
        Path tmp = Files.createTempFile(shard, id.value() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(k));
            force(ch);
        }
        try {
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, f);
        }
        syncDir(shard);
    }

    @dev.palimpsest.model.DoNotMutate("fsync only: its one mutant drops the folder's fsync, seen only after a power loss")
    private void delete(Path f) throws IOException {
        Files.deleteIfExists(f);
        syncDir(f.getParent());
    }

    @dev.palimpsest.model.DoNotMutate("fsync: its effect shows only after a power loss, which no test can cause")
    private void force(FileChannel ch) throws IOException {
        if (fsync) {
            ch.force(true);
        }
    }

    @dev.palimpsest.model.DoNotMutate("fsync: its effect shows only after a power loss, which no test can cause")
    private void syncDir(Path dir) throws IOException {
        if (!fsync) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
