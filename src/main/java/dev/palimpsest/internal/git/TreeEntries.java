package dev.palimpsest.internal.git;

import org.eclipse.jgit.lib.ObjectId;

/**
 * Git tree order over raw tree bytes ({@code mode SP name NUL id}), for comparing a folder with
 * the same folder of a commit's first parent without parsing either (the pull's copy), or two
 * trees' entries while diffing them (the audit). Stateless.
 */
public final class TreeEntries {
    private TreeEntries() {}

    /** The offset of the first entry of {@code base} at or after {@code from} not sorting before the name. */
    public static int seek(byte[] base, int from, byte[] raw, int name, int nameEnd, boolean isTree) {
        int b = from;
        while (b < base.length) {
            int sp = b;
            boolean baseTree = base[sp] == '4';
            while (base[sp] != ' ') {
                sp++;
            }
            int bn = sp + 1;
            int be = bn;
            while (base[be] != 0) {
                be++;
            }
            if (compare(base, bn, be, baseTree, raw, name, nameEnd, isTree) >= 0) {
                return b;
            }
            b = be + 21;
        }
        return b;
    }

    /** Git's tree order: names compared bytewise, a folder's name as if followed by {@code /}. */
    public static int compare(byte[] a, int as, int ae, boolean aTree, byte[] b, int bs, int be, boolean bTree) {
        int i = as;
        int j = bs;
        for (; i < ae && j < be; i++, j++) {
            int c = (a[i] & 0xff) - (b[j] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        int ca = i < ae ? a[i] & 0xff : aTree ? '/' : 0;
        int cb = j < be ? b[j] & 0xff : bTree ? '/' : 0;
        return ca - cb;
    }

    /** True when the entry of {@code base} at {@code b} is byte for byte the entry {@code raw[start, end)}; false at the end of {@code base}. */
    public static boolean sameEntry(byte[] base, int b, byte[] raw, int start, int end) {
        int len = end - start;
        return b + len <= base.length && java.util.Arrays.equals(base, b, b + len, raw, start, end);
    }

    /** The id of the folder entry of {@code base} at {@code b} when it has the name, else null (also at the end of {@code base}). */
    public static ObjectId subtreeAt(byte[] base, int b, byte[] raw, int name, int nameEnd) {
        if (b >= base.length || base[b] != '4') {
            return null;
        }
        int sp = b;
        while (base[sp] != ' ') {
            sp++;
        }
        int bn = sp + 1;
        int len = nameEnd - name;
        if (bn + len >= base.length || base[bn + len] != 0 || !java.util.Arrays.equals(base, bn, bn + len, raw, name, nameEnd)) {
            return null;
        }
        return ObjectId.fromRaw(base, bn + len + 1);
    }
}
