package dev.palimpsest.internal.forget;

import dev.palimpsest.internal.derive.Derivation;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.TombstoneRecord;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * What forgetting needs to know of history, shared by the gate, the API and the audit: a fact's
 * tombstone at a commit and the commit that wrote it, its closure (every fact whose refs, quotes or
 * receipts reach it, transitively, any version in the ancestry), whether any version of it is
 * plaintext, and which members of a closure are sealed derived artifacts the forget cascades to.
 * Thread-safe.
 */
public final class Forgetting {
    private final GitRepo repo;
    private final PredicateIndex index;
    private final Derivation derivation;
    /** Tombstones never change, so the commit that wrote one is cached by id and blob. */
    private final Map<String, ObjectId> tombstoneCommits = new ConcurrentHashMap<>();

    public Forgetting(GitRepo repo, PredicateIndex index, Derivation derivation) {
        this.repo = repo;
        this.index = index;
        this.derivation = derivation;
    }

    /**
     * Finishes forgets a crash interrupted: when the vault holds intents no live process owns,
     * destroys the key of every fact tombstoned at main's tip, scrubs the caches and deletes those
     * intents. Returns the ids whose keys it destroyed (empty, and nothing done, on a clean store).
     */
    public static java.util.List<FactId> settleInterrupted(GitRepo repo) {
        java.util.List<dev.palimpsest.internal.vault.Vault.Intent> orphans = repo.vault().orphanedIntents();
        if (orphans.isEmpty()) {
            return java.util.List.of();
        }
        java.util.List<FactId> destroyed = new java.util.ArrayList<>();
        try {
            ObjectId head = repo.head();
            if (head != null) {
                for (FactId id : tombstoned(repo, head)) {
                    if (repo.vault().destroy(id)) {
                        destroyed.add(id);
                    }
                }
            }
            Scrub.caches(repo);
        } catch (RuntimeException e) {
            orphans.forEach(dev.palimpsest.internal.vault.Vault.Intent::release);
            throw e;
        }
        orphans.forEach(dev.palimpsest.internal.vault.Vault.Intent::done);
        return destroyed;
    }

    /** Every id with a tombstone in {@code at}'s tree. */
    public static java.util.List<FactId> tombstoned(GitRepo repo, ObjectId at) {
        java.util.List<FactId> out = new java.util.ArrayList<>();
        try (ObjectReader reader = repo.newReader();
                org.eclipse.jgit.treewalk.TreeWalk tw = new org.eclipse.jgit.treewalk.TreeWalk(reader)) {
            tw.addTree(RevCommit.parse(reader.open(at, Constants.OBJ_COMMIT).getCachedBytes()).getTree());
            tw.setRecursive(true);
            tw.setFilter(org.eclipse.jgit.treewalk.filter.PathFilter.create(StorePaths.TOMBSTONES));
            while (tw.next()) {
                String name = tw.getNameString();
                if (name.endsWith(".yaml")) {
                    try {
                        out.add(FactId.of(name.substring(0, name.length() - ".yaml".length())));
                    } catch (IllegalArgumentException e) {
                        // not a tombstone's name: the audit reports it
                    }
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the tombstones at " + at.name() + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** The tombstone of {@code id} in {@code s}'s tree, or null. */
    public static TombstoneRecord tombstone(Snapshot s, FactId id) {
        String path = StorePaths.tombstonePath(id);
        byte[] bytes = s.readPath(path);
        if (bytes == null) {
            return null;
        }
        try {
            return TombstoneRecord.decode(bytes, path);
        } catch (FormatException e) {
            throw new PalimpsestInternalException("corrupt tombstone: " + e.getMessage());
        }
    }

    /** The commit (first-parent line from {@code at}) that added {@code id}'s tombstone, or null when {@code at} has none. */
    public ObjectId tombstoneCommit(FactId id, ObjectId at) {
        String path = StorePaths.tombstonePath(id);
        try (Snapshot s = Snapshot.of(repo, at)) {
            ObjectId blob = s.blobAt(path);
            if (blob == null) {
                return null;
            }
            String key = id.value() + " " + blob.name();
            ObjectId cached = tombstoneCommits.get(key);
            if (cached != null) {
                return cached;
            }
            ObjectId c = at;
            try (ObjectReader r = repo.newReader()) {
                while (true) {
                    RevCommit rc = RevCommit.parse(r.open(c, Constants.OBJ_COMMIT).getCachedBytes());
                    if (rc.getParentCount() == 0) {
                        break;
                    }
                    ObjectId parent = rc.getParent(0).copy();
                    try (Snapshot p = Snapshot.of(repo, parent)) {
                        if (p.blobAt(path) == null) {
                            break;
                        }
                    }
                    c = parent;
                }
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot read history: " + e.getMessage(), e);
            }
            tombstoneCommits.put(key, c.copy());
            return c;
        }
    }

    /** Every fact deriving from {@code id} at {@code at} (refs, quotes, receipts; transitive; any version), sorted. */
    public SortedSet<FactId> closure(FactId id, ObjectId at) {
        TreeSet<FactId> out = new TreeSet<>();
        for (Dependent d : derivation.dependents(id, at, true)) {
            out.add(d.id());
        }
        return out;
    }

    /** The commit of the first plaintext version of {@code id} in the ancestry of {@code at}, or null when all are sealed. */
    public ObjectId plaintextVersion(FactId id, ObjectId at) {
        try (ObjectReader r = repo.newReader()) {
            for (FactState e : index.eventsAt(id, at)) {
                if (e.live() && e.blob() != null && !sealed(r, e.blob(), id)) {
                    return e.versionCommit();
                }
            }
        }
        return null;
    }

    /** True when every version of {@code id} in the ancestry of {@code at} is sealed (and there is one). */
    public boolean allSealed(FactId id, ObjectId at) {
        boolean any = false;
        try (ObjectReader r = repo.newReader()) {
            for (FactState e : index.eventsAt(id, at)) {
                if (e.live() && e.blob() != null) {
                    any = true;
                    if (!sealed(r, e.blob(), id)) {
                        return false;
                    }
                }
            }
        }
        return any;
    }

    /** The kind of {@code id}'s last version in the ancestry of {@code at}, or null. */
    public String kind(FactId id, ObjectId at) {
        String kind = null;
        for (FactState e : index.eventsAt(id, at)) {
            if (e.kind() != null && !e.kind().isEmpty()) {
                kind = e.kind();
            }
        }
        return kind;
    }

    /** True for the derived kinds a forget cascades to when they are sealed: merge, edge, summary. */
    public static boolean derivedKind(String kind) {
        return "merge".equals(kind) || "edge".equals(kind) || "summary".equals(kind);
    }

    /** The members of {@code closure} a forget at {@code at} must forget too: sealed derived artifacts not yet forgotten. */
    public SortedSet<FactId> cascade(SortedSet<FactId> closure, ObjectId at) {
        return cascade(closure, at, false);
    }

    /**
     * The members of {@code closure} a forget at {@code at} forgets too: with {@code withDerived},
     * every sealed member not yet forgotten (citers and quoters included); without, the sealed
     * derived artifacts only ({@link #cascade(SortedSet, ObjectId)}).
     */
    public SortedSet<FactId> cascade(SortedSet<FactId> closure, ObjectId at, boolean withDerived) {
        TreeSet<FactId> out = new TreeSet<>();
        try (Snapshot s = Snapshot.of(repo, at)) {
            for (FactId m : closure) {
                if ((withDerived || derivedKind(kind(m, at))) && s.blobAt(StorePaths.tombstonePath(m)) == null && allSealed(m, at)) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    /** The sealed digest of {@code id}'s last version in the ancestry of {@code at}, or null when it is plaintext. */
    public String digest(FactId id, ObjectId at) {
        FactState lastLive = index.lastLive(id, at);
        if (lastLive == null) {
            return null;
        }
        ObjectId last = lastLive.blob();
        try (ObjectReader r = repo.newReader()) {
            Fact f = FactCodec.decodeFact(r.open(last, Constants.OBJ_BLOB).getCachedBytes(Snapshot.MAX_READ), id.value());
            return f.seal() == null ? null : f.seal().digest();
        } catch (IOException | FormatException e) {
            return null;
        }
    }

    private static boolean sealed(ObjectReader r, ObjectId blob, FactId id) {
        try {
            return FactCodec.decodeFact(r.open(blob, Constants.OBJ_BLOB).getCachedBytes(Snapshot.MAX_READ), id.value())
                    .seal() != null;
        } catch (IOException | FormatException e) {
            return false;
        }
    }
}
