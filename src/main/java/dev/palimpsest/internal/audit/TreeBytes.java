package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.git.TreeEntries;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Reads git tree objects from their raw bytes ({@code <octal mode> SP <name> NUL <20-byte id>},
 * sorted as git sorts them) without allocating per entry, and diffs two trees by skipping their
 * identical runs with a vectorised byte comparison. Stateless.
 */
final class TreeBytes {
    /** Loads the raw bytes of a tree by id. */
    interface Loader {
        byte[] tree(ObjectId id) throws java.io.IOException;
    }

    private TreeBytes() {}

    /** The offset of the entry named {@code name} in {@code tree}, or -1. */
    static int find(byte[] tree, byte[] name) {
        int pos = 0;
        while (pos < tree.length) {
            int sp = indexOf(tree, (byte) ' ', pos);
            int nul = indexOf(tree, (byte) 0, sp);
            if (nul - sp - 1 == name.length && Arrays.equals(tree, sp + 1, nul, name, 0, name.length)) {
                return pos;
            }
            pos = nul + 21;
        }
        return -1;
    }

    /** The raw mode of the entry at {@code entry}. */
    static int mode(byte[] tree, int entry) {
        int m = 0;
        for (int p = entry; tree[p] != ' '; p++) {
            m = (m << 3) + (tree[p] - '0');
        }
        return m;
    }

    /** The object id of the entry at {@code entry}. */
    static ObjectId id(byte[] tree, int entry) {
        return ObjectId.fromRaw(tree, indexOf(tree, (byte) 0, entry) + 1);
    }

    static boolean isTree(int mode) {
        return (mode & FileMode.TYPE_MASK) == FileMode.TYPE_TREE;
    }

    /** Adds to {@code out} every file path that differs between two trees (null: empty), as {@link Change}s. */
    static void diff(Loader loader, byte[] a, byte[] b, String prefix, List<Change> out) throws java.io.IOException {
        a = a == null ? new byte[0] : a;
        b = b == null ? new byte[0] : b;
        int i = 0;
        int j = 0;
        while (true) {
            int m = Arrays.mismatch(a, i, a.length, b, j, b.length);
            if (m < 0) {
                return;
            }
            for (int next; (next = next(a, i)) - i <= m; ) {
                m -= next - i;
                j += next - i;
                i = next;
            }
            int cmp = i >= a.length ? 1 : j >= b.length ? -1 : compare(a, i, b, j);
            if (cmp < 0) {
                gone(loader, a, i, prefix, out, true);
                i = next(a, i);
            } else if (cmp > 0) {
                gone(loader, b, j, prefix, out, false);
                j = next(b, j);
            } else {
                int ma = mode(a, i);
                int mb = mode(b, j);
                String path = prefix + name(a, i);
                if (isTree(ma)) {
                    diff(loader, loader.tree(id(a, i)), loader.tree(id(b, j)), path + "/", out);
                } else {
                    out.add(new Change(path, id(a, i), id(b, j), mb));
                }
                i = next(a, i);
                j = next(b, j);
            }
        }
    }

    /** The offset just past the entry at {@code entry}. */
    private static int next(byte[] t, int entry) {
        return indexOf(t, (byte) 0, entry) + 21;
    }

    /** Reports the entry at {@code entry} (recursively for a tree) as deleted ({@code old}) or added. */
    private static void gone(Loader loader, byte[] t, int entry, String prefix, List<Change> out, boolean old)
            throws java.io.IOException {
        int mode = mode(t, entry);
        String path = prefix + name(t, entry);
        if (isTree(mode)) {
            byte[] sub = loader.tree(id(t, entry));
            diff(loader, old ? sub : null, old ? null : sub, path + "/", out);
        } else if (old) {
            out.add(new Change(path, id(t, entry), null, 0));
        } else {
            out.add(new Change(path, null, id(t, entry), mode));
        }
    }

    private static String name(byte[] t, int entry) {
        int sp = indexOf(t, (byte) ' ', entry);
        return new String(t, sp + 1, indexOf(t, (byte) 0, sp) - sp - 1, StandardCharsets.UTF_8);
    }

    /**
     * Git's tree order of the entries at {@code ea} and {@code eb}: a file and a folder of the same
     * name are different entries (the file first), as TreeWalk reports them.
     */
    private static int compare(byte[] a, int ea, byte[] b, int eb) {
        int sa = indexOf(a, (byte) ' ', ea) + 1;
        int sb = indexOf(b, (byte) ' ', eb) + 1;
        return TreeEntries.compare(a, sa, indexOf(a, (byte) 0, sa), isTree(mode(a, ea)),
                b, sb, indexOf(b, (byte) 0, sb), isTree(mode(b, eb)));
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return b.length;
    }
}
