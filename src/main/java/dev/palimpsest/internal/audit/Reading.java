package dev.palimpsest.internal.audit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import dev.palimpsest.model.Limits;
import org.eclipse.jgit.errors.CorruptObjectException;
import org.eclipse.jgit.errors.LargeObjectException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectChecker;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Object access for one audit worker thread: raw objects, files by path in a tree, and the
 * recursive difference of two trees. Every commit and tree object it reads must pass the checks of
 * {@code git fsck --strict} (JGit's {@link ObjectChecker}: entry order, duplicate names, modes,
 * zero-padded modes, idents, ...; then {@link StrictFsck}: a NUL in a commit, git's stricter
 * idents, null ids in trees), else the read throws {@link MalformedObjectException}. Not
 * thread-safe (owns an {@link ObjectReader}); close it.
 */
public final class Reading implements AutoCloseable {
    private static final int MAX_OBJECT = 64 << 20;

    private static final int MAX_CHECKED = 1 << 16;

    private final ObjectReader reader;
    private final ObjectChecker checker = new ObjectChecker();
    private final Set<ObjectId> checked = new HashSet<>();

    Reading(ObjectReader reader) {
        this.reader = reader;
    }

    public ObjectReader reader() {
        return reader;
    }

    /**
     * The object's bytes; throws MissingObjectException or IncorrectObjectTypeException, and
     * {@link TooLarge} (without reading it) for a blob over {@link Limits#MAX_FILE} or another
     * object over 64 MiB, and {@link MalformedObjectException} for a commit or tree that fails the
     * strict checks.
     */
    public byte[] bytes(ObjectId id, int type) throws IOException {
        byte[] raw = load(id, type, type == Constants.OBJ_BLOB ? Limits.MAX_FILE : MAX_OBJECT);
        if ((type == Constants.OBJ_COMMIT || type == Constants.OBJ_TREE) && !checked.contains(id)) {
            try {
                if (type == Constants.OBJ_COMMIT) {
                    StrictFsck.commit(raw);
                }
                checker.check(id, type, raw);
                if (type == Constants.OBJ_TREE) {
                    StrictFsck.tree(raw);
                }
            } catch (CorruptObjectException | IndexOutOfBoundsException e) {
                throw new MalformedObjectException(Constants.typeString(type) + " " + id.name()
                        + " fails git's strict object checks: " + e.getMessage(), e);
            }
            remember(id);
        }
        return raw;
    }

    @dev.palimpsest.model.DoNotMutate("speed only: a wrong bound or a missed clear re-checks objects or keeps more ids, never a different result")
    private void remember(ObjectId id) {
        if (checked.size() >= MAX_CHECKED) {
            checked.clear();
        }
        checked.add(id.copy());
    }

    private byte[] load(ObjectId id, int type, int limit) throws IOException {
        ObjectLoader l = reader.open(id, type);
        if (l.getSize() > limit) {
            throw new TooLarge(id, l.getSize(), limit);
        }
        try {
            return l.getCachedBytes(limit);
        } catch (LargeObjectException e) {
            throw new TooLarge(id, l.getSize(), limit);
        }
    }

    /** An object larger than the audit reads: a {@code too-large} violation of the commit that needs it. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient ObjectId id;

        TooLarge(ObjectId id, long size, long limit) {
            super("object " + id.name() + " is " + Limits.describe(size) + ", over the limit of "
                    + Limits.describe(limit));
            this.id = id.copy();
        }

        /** The object that is too large. */
        public ObjectId id() {
            return id;
        }
    }

    /** The object's type, or -1 when the repository does not have it. */
    public int typeOf(ObjectId id) throws IOException {
        try {
            return reader.open(id).getType();
        } catch (MissingObjectException e) {
            return -1;
        }
    }

    /** The blob of the regular file at {@code path} in {@code tree}, or null when there is none. */
    public ObjectId blobAt(ObjectId tree, String path) throws IOException {
        byte[] cur = tree(tree);
        int start = 0;
        while (true) {
            int slash = path.indexOf('/', start);
            String name = slash < 0 ? path.substring(start) : path.substring(start, slash);
            int e = TreeBytes.find(cur, name.getBytes(StandardCharsets.UTF_8));
            if (e < 0) {
                return null;
            }
            int mode = TreeBytes.mode(cur, e);
            if (slash < 0) {
                return mode == FileMode.REGULAR_FILE.getBits() ? TreeBytes.id(cur, e) : null;
            }
            if (!TreeBytes.isTree(mode)) {
                return null;
            }
            cur = tree(TreeBytes.id(cur, e));
            start = slash + 1;
        }
    }

    /** The id of the tree named {@code name} directly inside {@code tree}, or null. */
    public ObjectId subtree(ObjectId tree, String name) throws IOException {
        byte[] t = tree(tree);
        int e = TreeBytes.find(t, name.getBytes(StandardCharsets.UTF_8));
        return e >= 0 && TreeBytes.isTree(TreeBytes.mode(t, e)) ? TreeBytes.id(t, e) : null;
    }

    /** Every file path that differs between {@code oldTree} (null: empty) and {@code newTree}, in tree order. */
    public List<Change> diff(ObjectId oldTree, ObjectId newTree) throws IOException {
        List<Change> out = new ArrayList<>(4);
        try {
            TreeBytes.diff(this::tree, oldTree == null ? null : tree(oldTree), tree(newTree), "", out);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IOException("malformed tree under " + newTree.name(), e);
        }
        return out;
    }

    private byte[] tree(ObjectId id) throws IOException {
        return bytes(id, Constants.OBJ_TREE);
    }

    /** The tree of a commit read from its object; throws when it is not a commit. */
    public ObjectId treeOf(ObjectId commit) throws IOException {
        return RawCommit.parse(bytes(commit, Constants.OBJ_COMMIT)).tree();
    }

    /** The first parent of a commit read from its object, or null. */
    public ObjectId firstParentOf(ObjectId commit) throws IOException {
        List<ObjectId> ps = RawCommit.parse(bytes(commit, Constants.OBJ_COMMIT)).parents();
        return ps.isEmpty() ? null : ps.get(0);
    }

    @Override
    public void close() {
        reader.close();
    }
}
