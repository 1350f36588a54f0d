package dev.palimpsest.internal.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * The files that differ between two trees under some top-level folders, read straight from the raw
 * tree objects: what a recursive {@code TreeWalk} with a path filter and {@code ANY_DIFF} reports
 * (a path whose mode or blob differs; its new blob, or null when it is gone or not a regular file),
 * without its per-entry cost. Subtrees whose ids are equal are skipped unread. The trees a diff
 * reads on its new side are kept for the next diff, whose old side they are when commits are diffed
 * in order along a history. Not thread-safe (one per walk); the reader stays the caller's.
 */
public final class TreeDiff {
    private static final int ID = Constants.OBJECT_ID_LENGTH;
    private static final Tree EMPTY = new Tree(new byte[0], new int[0], new int[0], new int[0], 0);

    private final ObjectReader reader;
    private final byte[][] folders;
    private Map<ObjectId, Tree> previous = new HashMap<>();
    private Map<ObjectId, Tree> current = new HashMap<>();
    private final byte[] path = new byte[4096];

    /** What a diff reports, in git's tree order. */
    @FunctionalInterface
    public interface Sink {
        void changed(String path, ObjectId blob);
    }

    public TreeDiff(ObjectReader reader, List<String> folders) {
        this.reader = reader;
        this.folders = new byte[folders.size()][];
        for (int i = 0; i < this.folders.length; i++) {
            this.folders[i] = folders.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Reports every file under the folders that differs between {@code oldTree} (null: empty) and {@code newTree}. */
    public void diff(ObjectId oldTree, ObjectId newTree, Sink sink) throws IOException {
        Map<ObjectId, Tree> kept = previous;
        previous = current;
        current = kept;
        current.clear();
        Tree a = oldTree == null ? EMPTY : tree(oldTree, false);
        Tree b = tree(newTree, true);
        walk(a, b, 0, true, sink);
    }

    private void walk(Tree a, Tree b, int depth, boolean top, Sink sink) throws IOException {
        int i = 0;
        int j = 0;
        while (i < a.count || j < b.count) {
            int c = i == a.count ? 1 : j == b.count ? -1 : compare(a, i, b, j);
            if (c < 0) {
                gone(a, i++, depth, top, sink);
            } else if (c > 0) {
                added(b, j++, depth, top, sink);
            } else {
                boolean sameMode = a.mode[i] == b.mode[j];
                boolean sameId = Arrays.equals(a.raw, a.id[i], a.id[i] + ID, b.raw, b.id[j], b.id[j] + ID);
                if (!sameMode || !sameId) {
                    if (isTree(a.mode[i]) && isTree(b.mode[j])) {
                        if (wanted(b, j, top)) {
                            int len = push(b, j, depth);
                            walk(tree(a.objectId(i), false), tree(b.objectId(j), true), len, false, sink);
                        }
                    } else if (wanted(b, j, top)) {
                        // a file on each side (a tree and a file of one name sort apart and never meet here)
                        int len = push(b, j, depth);
                        sink.changed(string(len), isFile(b.mode[j]) ? b.objectId(j) : null);
                    }
                }
                i++;
                j++;
            }
        }
    }

    private void gone(Tree a, int i, int depth, boolean top, Sink sink) throws IOException {
        if (isTree(a.mode[i])) {
            if (wanted(a, i, top)) {
                walk(tree(a.objectId(i), false), EMPTY, push(a, i, depth), false, sink);
            }
        } else if (wanted(a, i, top)) {
            sink.changed(string(push(a, i, depth)), null);
        }
    }

    private void added(Tree b, int j, int depth, boolean top, Sink sink) throws IOException {
        if (isTree(b.mode[j])) {
            if (wanted(b, j, top)) {
                walk(EMPTY, tree(b.objectId(j), true), push(b, j, depth), false, sink);
            }
        } else if (wanted(b, j, top)) {
            sink.changed(string(push(b, j, depth)), isFile(b.mode[j]) ? b.objectId(j) : null);
        }
    }

    private boolean wanted(Tree t, int k, boolean top) {
        if (!top) {
            return true;
        }
        int len = t.nameEnd[k] - t.nameStart[k];
        for (byte[] f : folders) {
            if (f.length == len && Arrays.equals(f, 0, len, t.raw, t.nameStart[k], t.nameEnd[k])) {
                return true;
            }
        }
        return false;
    }

    /** Appends entry {@code k}'s name to the path at {@code depth}; returns the new length. */
    private int push(Tree t, int k, int depth) {
        int at = depth;
        if (depth > 0) {
            path[at++] = '/';
        }
        int len = t.nameEnd[k] - t.nameStart[k];
        if (at + len > path.length) {
            throw new IllegalStateException("a path deeper than " + path.length + " bytes");
        }
        System.arraycopy(t.raw, t.nameStart[k], path, at, len);
        return at + len;
    }

    private String string(int len) {
        return new String(path, 0, len, StandardCharsets.UTF_8);
    }

    /** Git's order of entries: names by bytes, a tree's name as if followed by '/'. */
    private static int compare(Tree a, int i, Tree b, int j) {
        int as = a.nameStart[i];
        int ae = a.nameEnd[i];
        int bs = b.nameStart[j];
        int be = b.nameEnd[j];
        int c = Arrays.compareUnsigned(a.raw, as, Math.min(ae, as + (be - bs)), b.raw, bs, Math.min(be, bs + (ae - as)));
        if (c != 0) {
            return c;
        }
        int la = ae - as;
        int lb = be - bs;
        int ca = la > lb ? a.raw[as + lb] & 0xff : isTree(a.mode[i]) ? '/' : 0;
        int cb = lb > la ? b.raw[bs + la] & 0xff : isTree(b.mode[j]) ? '/' : 0;
        return Integer.compare(ca, cb);
    }

    private static boolean isTree(int mode) {
        return (mode & FileMode.TYPE_MASK) == FileMode.TYPE_TREE;
    }

    private static boolean isFile(int mode) {
        return (mode & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
    }

    private Tree tree(ObjectId id, boolean newSide) throws IOException {
        Tree t = previous.get(id);
        if (t == null && !newSide) {
            t = current.get(id);
        }
        if (t == null) {
            t = Tree.parse(id, reader.open(id, Constants.OBJ_TREE).getCachedBytes());
        }
        if (newSide) {
            current.put(t.self, t);
        }
        return t;
    }

    /** One parsed tree object: per entry its mode and the offsets of its name and id in {@code raw}. */
    private static final class Tree {
        final byte[] raw;
        final int[] mode;
        final int[] nameStart;
        final int[] nameEnd;
        final int[] id;
        final int count;
        ObjectId self;

        Tree(byte[] raw, int[] mode, int[] nameStart, int[] nameEnd, int count) {
            this.raw = raw;
            this.mode = mode;
            this.nameStart = nameStart;
            this.nameEnd = nameEnd;
            this.id = new int[count];
            for (int k = 0; k < count; k++) {
                id[k] = nameEnd[k] + 1;
            }
            this.count = count;
        }

        ObjectId objectId(int k) {
            return ObjectId.fromRaw(raw, id[k]);
        }

        static Tree parse(ObjectId self, byte[] raw) throws IOException {
            int cap = Math.max(4, raw.length / 40);
            int[] mode = new int[cap];
            int[] start = new int[cap];
            int[] end = new int[cap];
            int n = 0;
            int p = 0;
            while (p < raw.length) {
                int m = 0;
                while (p < raw.length && raw[p] != ' ') {
                    int d = raw[p++] - '0';
                    if (d < 0 || d > 7) {
                        throw new IOException("tree " + self.name() + " is damaged: a mode that is not octal");
                    }
                    m = m << 3 | d;
                }
                int s = ++p;
                while (p < raw.length && raw[p] != 0) {
                    p++;
                }
                if (p + 1 + ID > raw.length || p == s) {
                    throw new IOException("tree " + self.name() + " is damaged: an entry runs past its end");
                }
                if (n == mode.length) {
                    mode = Arrays.copyOf(mode, n * 2);
                    start = Arrays.copyOf(start, n * 2);
                    end = Arrays.copyOf(end, n * 2);
                }
                mode[n] = m;
                start[n] = s;
                end[n] = p;
                n++;
                p += 1 + ID;
            }
            Tree t = new Tree(raw, mode, start, end, n);
            t.self = self.copy();
            return t;
        }
    }
}
