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
 * and each use checks that the file still exists (another process may have destroyed it). Thread-safe.
 */
public final class Vault implements SealKeys {
    /** The vault's folder name in the git directory. */
    public static final String FOLDER = "palimpsest-vault";
    /** Bytes in a data key (AES-256). */
    public static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] ABSENT = new byte[0];

    private final Path root;
    private final boolean fsync;
    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

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

    /** The key of {@code id}, created (random, durable) when absent. */
    public synchronized byte[] keyOrCreate(FactId id) {
        byte[] k = key(id);
        if (k != null) {
            return k;
        }
        k = new byte[KEY_BYTES];
        RANDOM.nextBytes(k);
        Path f = file(id);
        try {
            Path shard = mkdirs(f.getParent());
            Path tmp = Files.createTempFile(shard, id.value() + ".", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(k));
                if (fsync) {
                    ch.force(true);
                }
            }
            try {
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, f);
            }
            syncDir(shard);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the data key of " + id + ": " + e.getMessage(), e);
        }
        cache.put(id.value(), k);
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

    private void syncDir(Path dir) throws IOException {
        if (!fsync) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
