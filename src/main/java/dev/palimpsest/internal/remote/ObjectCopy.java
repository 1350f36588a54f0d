package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.PackObjectWriter;
import dev.palimpsest.internal.git.TreeEntries;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.Deflater;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.Pack;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.util.sha1.SHA1;
import org.eclipse.jgit.util.sha1.Sha1CollisionException;

/**
 * Copies into a local repository the objects it lacks from another repository on this machine:
 * the commits reachable from a tip and not from the haves (one revision walk), and, depth first,
 * every tree and blob they reach that neither the local packs nor this copy hold yet. Each object
 * is read (inflated) from the source, hashed with JGit's collision-detecting SHA-1 over its header
 * and bytes, and kept only when that is its id (else the copy fails); it is appended to a local
 * pack after the objects it names, so every pack that lands holds the closure of its trees. Trees
 * (most of the bytes) are hashed on a second thread ({@link BackgroundHasher}) while the copy goes
 * on, and every pack waits for the hashes of what it holds before it is written.
 * Commits are taken oldest first and each tree is compared with the same folder of the first
 * parent's tree (whose closure is then local or copied already): only the entries that differ are
 * followed, so an unchanged folder costs one comparison of its entry, not a visit. No pack stream
 * is written and parsed again and no separate object walk precedes the copy. Not thread-safe.
 */
final class ObjectCopy {
    /** A pack is written whenever this many bytes are pending, so memory stays bounded. */
    static final long PACK_BYTES = 32L << 20;
    /** {@link #PACK_BYTES}, lowered by tests to make a small copy write many packs. */
    static volatile long packBytes = PACK_BYTES;
    private static final String TASK = "Copying objects";

    private final ObjectReader source;
    private final ObjectReader mine;
    private final Collection<Pack> local;
    private final PackObjectWriter out;
    private final BackgroundHasher hasher;
    private final Unflushed unflushed;
    private final ProgressMonitor monitor;
    private final Set<ObjectId> seen = new HashSet<>();
    /** Trees read, hashed, by id, least recently used first out: the first parents' folders. */
    private final java.util.LinkedHashMap<ObjectId, byte[]> trees = new java.util.LinkedHashMap<>(256, 0.75f, true);
    private static final long CACHE_BYTES = 4L << 20;
    private long cachedBytes;
    private final SHA1 sha = SHA1.newInstance();
    private int copied;

    private ObjectCopy(ObjectReader source, ObjectReader mine, Collection<Pack> local, PackObjectWriter out,
            BackgroundHasher hasher, Unflushed unflushed, ProgressMonitor monitor) {
        this.hasher = hasher;
        this.unflushed = unflushed;
        this.source = source;
        this.mine = mine;
        this.local = local;
        this.out = out;
        this.monitor = monitor;
    }

    /** Learns each copied commit. */
    @FunctionalInterface
    interface Commits {
        /** {@code id}, with its tree and parents as its header names them, and its bytes, which hashed to {@code id}. */
        void copied(ObjectId id, ObjectId tree, List<ObjectId> parents, byte[] raw);
    }

    /**
     * Copies what {@code tip} reaches in {@code remote} and {@code haves} do not; tells
     * {@code commits} each copied commit (on this thread, oldest first) once
     * it and everything it reaches can be read from the repository or from {@code unflushed}.
     * Returns the number of objects copied.
     */
    static int copy(GitRepo repo, Repository remote, ObjectId tip, Collection<ObjectId> haves, ProgressMonitor monitor,
            Unflushed unflushed, Commits commits) throws IOException {
        boolean fsync = repo.repository().getConfig().getBoolean("core", "fsyncObjectFiles", false);
        Collection<Pack> packs = List.copyOf(((FileRepository) repo.repository()).getObjectDatabase().getPacks());
        try (ObjectReader reader = remote.newObjectReader();
                ObjectReader mine = repo.newReader();
                RevWalk walk = new RevWalk(reader);
                PackObjectWriter out = new PackObjectWriter(repo, repo.pool(), fsync, Deflater.BEST_SPEED);
                BackgroundHasher hasher = new BackgroundHasher(repo.trees())) {
            ObjectCopy c = new ObjectCopy(reader, mine, packs, out, hasher, unflushed, monitor);
            monitor.beginTask(TASK, ProgressMonitor.UNKNOWN);
            walk.sort(org.eclipse.jgit.revwalk.RevSort.TOPO);
            walk.sort(org.eclipse.jgit.revwalk.RevSort.REVERSE, true);
            walk.markStart(walk.parseCommit(tip));
            for (ObjectId h : haves) {
                try {
                    walk.markUninteresting(walk.parseCommit(h));
                } catch (org.eclipse.jgit.errors.IncorrectObjectTypeException notACommit) {
                    // nothing to exclude
                }
            }
            for (RevCommit rc; (rc = walk.next()) != null; ) {
                ObjectId id = rc.copy();
                byte[] raw = c.verified(id, Constants.OBJ_COMMIT, rc.getRawBuffer());
                ObjectId parentTree = rc.getParentCount() == 0 ? null : c.parentTree(walk, rc.getParent(0));
                ObjectId tree = rc.getTree().copy();
                if (!tree.equals(parentTree)) {
                    c.tree(tree, parentTree == null ? null : c.treeBytes(parentTree));
                }
                c.append(id, Constants.OBJ_COMMIT, raw);
                List<ObjectId> parents = new java.util.ArrayList<>(rc.getParentCount());
                for (RevCommit p : rc.getParents()) {
                    parents.add(p.copy());
                }
                commits.copied(id, tree, parents, raw);
            }
            c.flush();
            monitor.update(c.copied % 1000);
            return c.copied;
        }
    }

    /**
     * The tree of a copied commit's first parent, from bytes that hash to it: a parent the copy
     * took (oldest first, so already hashed), or one the local repository holds (read there, never
     * from the source); null when neither, and the child's tree is then copied without a base.
     */
    private ObjectId parentTree(RevWalk walk, RevCommit parent) throws IOException {
        if (!parent.has(org.eclipse.jgit.revwalk.RevFlag.UNINTERESTING)) {
            return seen.contains(parent.getTree()) || isLocal(parent.getTree()) ? parent.getTree().copy() : null;
        }
        try {
            return RevCommit.parse(mine.open(parent, Constants.OBJ_COMMIT).getCachedBytes()).getTree().copy();
        } catch (org.eclipse.jgit.errors.MissingObjectException notHere) {
            return null;
        }
    }

    /**
     * Copies the tree {@code id} and what it names, skipping every entry that {@code base} (the
     * same folder in the first parent's tree, whose closure is local or copied; null when none)
     * holds with the same name, mode and id. Depth first without recursion (a stack of folders
     * being read), each folder appended after everything it names.
     */
    private void tree(ObjectId id, byte[] base) throws IOException {
        Folder root = folder(id, base);
        if (root == null) {
            return;
        }
        java.util.ArrayDeque<Folder> open = new java.util.ArrayDeque<>();
        open.push(root);
        while (!open.isEmpty()) {
            Folder sub = next(open.peek());
            if (sub != null) {
                open.push(sub);
            } else {
                Folder done = open.pop();
                append(done.id, Constants.OBJ_TREE, done.raw);
            }
        }
    }

    /** A folder being copied: its bytes, the base folder's, and how far both have been read. */
    private static final class Folder {
        final ObjectId id;
        final byte[] raw;
        byte[] base;
        int p;
        int b;

        Folder(ObjectId id, byte[] raw, byte[] base) {
            this.id = id;
            this.raw = raw;
            this.base = base;
        }
    }

    /** The folder {@code id} read from the source and queued for hashing; null when it is copied or local already. */
    private Folder folder(ObjectId id, byte[] base) throws IOException {
        if (!seen.add(id) || isLocal(id)) {
            return null;
        }
        byte[] raw = unhashed(id, Constants.OBJ_TREE);
        hasher.submit(id, Constants.OBJ_TREE, raw);
        return new Folder(id, cached(id, raw), base);
    }

    /**
     * Reads {@code f}'s entries on from where it stopped, copying the blobs that differ from its
     * base; returns the first sub-folder to copy (to be read before {@code f} goes on), or null
     * when {@code f} is read to its end (a malformed tree ends there: it is copied as it is, and
     * the audit reports it).
     */
    private Folder next(Folder f) throws IOException {
        byte[] raw = f.raw;
        try {
            while (f.p != raw.length) { // an entry running past the end stops at raw[p] below
                int p = f.p;
                int mode = 0;
                int start = p;
                for (; raw[p] != ' '; p++) {
                    mode = (mode << 3) + (raw[p] - '0');
                }
                int name = p + 1;
                while (raw[++p] != 0) {
                    // the entry's name
                }
                int nameEnd = p;
                p += 21;
                f.p = p;
                int kind = mode & 0170000;
                ObjectId baseSubtree = null;
                if (f.base != null) {
                    try {
                        f.b = TreeEntries.seek(f.base, f.b, raw, name, nameEnd, kind == 0040000);
                        if (TreeEntries.sameEntry(f.base, f.b, raw, start, p)) {
                            continue;
                        }
                        baseSubtree = TreeEntries.subtreeAt(f.base, f.b, raw, name, nameEnd);
                    } catch (ArrayIndexOutOfBoundsException malformedBase) {
                        f.base = null; // compare no further: the rest of this tree is followed in full
                    }
                }
                ObjectId entry = ObjectId.fromRaw(raw, nameEnd + 1);
                if (kind == 0040000) {
                    Folder sub = folder(entry, baseSubtree == null ? null : treeBytes(baseSubtree));
                    if (sub != null) {
                        return sub;
                    }
                } else if (kind != 0160000) {
                    blob(entry);
                }
            }
        } catch (ArrayIndexOutOfBoundsException malformed) {
            f.p = raw.length;
        }
        return null;
    }

    /** The bytes of a tree whose closure is local or copied: cached, else read (and hashed) from the source. */
    private byte[] treeBytes(ObjectId id) throws IOException {
        byte[] t = trees.get(id);
        return t != null ? t : cached(id, read(id, Constants.OBJ_TREE));
    }

    /** Keeps {@code tree} for {@link #treeBytes}, dropping the least recently used beyond the bound; returns it. */
    @dev.palimpsest.model.DoNotMutate("speed and memory only: a tree missing from the cache is read and hashed again")
    private byte[] cached(ObjectId id, byte[] tree) {
        trees.put(id, tree);
        cachedBytes += tree.length;
        var it = trees.values().iterator();
        while (cachedBytes > CACHE_BYTES && it.hasNext()) {
            cachedBytes -= it.next().length;
            it.remove();
        }
        return tree;
    }

    private void blob(ObjectId id) throws IOException {
        if (seen.add(id) && !isLocal(id)) {
            append(id, Constants.OBJ_BLOB, read(id, Constants.OBJ_BLOB));
        }
    }

    private boolean isLocal(ObjectId id) throws IOException {
        for (Pack p : local) {
            if (p.hasObject(id)) {
                return true;
            }
        }
        return false;
    }

    private void append(ObjectId id, int type, byte[] data) throws IOException {
        out.appendHashed(id, type, data);
        unflushed.put(id, type, data);
        if (++copied % 1000 == 0) {
            monitor.update(1000);
        }
        if (out.pendingBytes() >= packBytes) {
            flush();
        }
    }

    /** Writes the pending objects as a pack once every one of them hashed to its id. */
    private void flush() throws IOException {
        hasher.sync();
        out.flush();
        unflushed.written();
    }

    /** The object's bytes from the source, when they hash to {@code id}; else an IOException. */
    private byte[] read(ObjectId id, int type) throws IOException {
        return verified(id, type, unhashed(id, type));
    }

    /** The object's bytes as the source gives them, not hashed yet. */
    private byte[] unhashed(ObjectId id, int type) throws IOException {
        ObjectLoader l = source.open(id, type);
        if (l.isLarge()) {
            try (InputStream in = l.openStream()) {
                return in.readAllBytes();
            }
        }
        return l.getCachedBytes();
    }

    private byte[] verified(ObjectId id, int type, byte[] data) throws IOException {
        return verified(sha, id, type, data);
    }

    /** {@code data}, when it hashes ({@code sha}) to {@code id} as an object of {@code type}; else an IOException. */
    static byte[] verified(SHA1 sha, ObjectId id, int type, byte[] data) throws IOException {
        sha.reset();
        sha.update(Constants.encodedTypeString(type));
        sha.update((byte) ' ');
        sha.update(Constants.encodeASCII(data.length));
        sha.update((byte) 0);
        sha.update(data);
        ObjectId got;
        try {
            got = sha.toObjectId();
        } catch (Sha1CollisionException e) {
            throw new IOException("object " + id.name() + " from the remote is a SHA-1 collision attempt", e);
        }
        if (!got.equals(id)) {
            throw new IOException("object " + id.name() + " from the remote hashes to " + got.name());
        }
        return data;
    }
}
