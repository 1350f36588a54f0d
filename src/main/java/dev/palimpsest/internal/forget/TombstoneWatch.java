package dev.palimpsest.internal.forget;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.vault.Vault;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * One process's view of the facts main has forgotten: {@link #check} reads main's tip (one small
 * file) and, when its {@code tombstones/} folder gained entries since the last check (a forget of
 * this process, of another process, or one pulled or pushed into this replica), destroys the data
 * keys the vault still holds for them, bumps the vault's generation (so caches of decoded content
 * are dropped). Where this process destroyed a key
 * itself (nobody else had: a pushed-in tombstone, a forgetter that died), it also scrubs the caches
 * on disk. The folder last reconciled is remembered in {@code palimpsest-vault/tombstones-seen}, so
 * a process opening a replica that received tombstones while no process ran reconciles them first.
 * Thread-safe.
 */
public final class TombstoneWatch {
    /** The file, in the vault folder, naming the {@code tombstones/} tree last reconciled with the vault. */
    public static final String SEEN = "tombstones-seen";

    private final GitRepo repo;
    private ObjectId seenHead;
    private ObjectId seenFolder;

    public TombstoneWatch(GitRepo repo) {
        this.repo = repo;
    }

    /**
     * Catches this process up with the facts main has forgotten (see the class comment); returns the
     * vault's generation afterwards. Cheap when main has not moved: one read of the ref.
     */
    public long check() {
        ObjectId head = repo.head();
        List<FactId> added;
        boolean scrub;
        synchronized (this) {
            if (head == null || head.equals(seenHead)) {
                return repo.vault().generation();
            }
            try (ObjectReader reader = repo.newReader()) {
                ObjectId folder = Tombstones.folder(reader, head);
                boolean first = seenFolder == null;
                if (first) {
                    seenFolder = reconciled(reader, folder);
                }
                added = folder.equals(seenFolder) ? List.of() : Tombstones.added(reader, seenFolder, folder);
                if (first && !folder.equals(seenFolder) || !added.isEmpty()) {
                    scrub = !repo.vault().forgotten(added).isEmpty();
                    remember(folder);
                } else {
                    scrub = false;
                }
                seenFolder = folder;
                seenHead = head.copy();
            }
        }
        if (scrub) {
            Scrub.caches(repo);
        }
        return repo.vault().generation();
    }

    /** The folder named in the vault's record, or the empty folder (all of main's tombstones are then new) when there is none. */
    private ObjectId reconciled(ObjectReader reader, ObjectId atHead) {
        Path f = repo.vault().root().resolve(SEEN);
        try {
            String hex = Files.readString(f, StandardCharsets.US_ASCII).trim();
            if (ObjectId.isId(hex) && reader.has(ObjectId.fromString(hex))) {
                return ObjectId.fromString(hex);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            if (!Files.isDirectory(repo.vault().root())) {
                // no vault: no key to destroy, so main's tombstones are reconciled already
                return atHead;
            }
        } catch (IOException e) {
            // unreadable: reconcile every tombstone
        }
        return ObjectId.zeroId();
    }

    /** Records {@code folder} as reconciled (a temporary file renamed over the record); a failure only costs a re-check. */
    private void remember(ObjectId folder) {
        Path root = repo.vault().root();
        if (!Files.isDirectory(root)) {
            return;
        }
        try {
            Path tmp = Files.createTempFile(root, SEEN + ".", ".tmp");
            try {
                Files.writeString(tmp, folder.name() + "\n", StandardCharsets.US_ASCII);
                Files.move(tmp, root.resolve(SEEN), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot record the reconciled tombstones in " + root + ": "
                    + e.getMessage(), e);
        }
    }
}
