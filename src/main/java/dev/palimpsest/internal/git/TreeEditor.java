package dev.palimpsest.internal.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * Applies path edits to a tree without an index: only the trees on edited paths are read and
 * rewritten, so the cost of an edit grows with path depth and folder fan-out, never with the
 * number of files in the store. Edits are sorted once by path bytes, which is git's tree order at
 * every level (a folder sorts as its name followed by {@code /}); each tree on an edited path is
 * then rewritten in one merge pass over its raw entries, copying untouched entries as they are.
 * Files are written with mode {@code 100644}; a file edit replaces a file of that name, never a
 * folder. Empty folders are dropped. Stateless.
 */
public final class TreeEditor {
    private static final byte[] FILE_MODE = "100644 ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TREE_MODE = "40000 ".getBytes(StandardCharsets.US_ASCII);

    private TreeEditor() {}

    /**
     * Writes the tree that results from {@code edits} (path to blob id, or to null for a deletion)
     * applied to {@code base} (null for an empty tree); returns its id.
     */
    public static ObjectId apply(ObjectReader reader, ObjectInserter inserter, ObjectId base,
            Map<String, ObjectId> edits) throws IOException {
        Edit[] list = new Edit[edits.size()];
        int i = 0;
        for (Map.Entry<String, ObjectId> e : edits.entrySet()) {
            list[i++] = new Edit(e.getKey().getBytes(StandardCharsets.UTF_8), e.getValue());
        }
        Arrays.parallelSort(list, (a, b) -> Arrays.compareUnsigned(a.path, b.path));
        ObjectId result = new Rewriter(reader, inserter, list).rewrite(base, 0, list.length, 0);
        return result == null ? inserter.insert(new TreeFormatter()) : result;
    }

    private record Edit(byte[] path, ObjectId blob) {}

    private static final class Rewriter {
        private final ObjectReader reader;
        private final ObjectInserter inserter;
        private final Edit[] edits;

        Rewriter(ObjectReader reader, ObjectInserter inserter, Edit[] edits) {
            this.reader = reader;
            this.inserter = inserter;
            this.edits = edits;
        }

        /** Rewrites {@code tree} with edits [lo, hi), whose paths share the first {@code off} bytes. */
        ObjectId rewrite(ObjectId tree, int lo, int hi, int off) throws IOException {
            byte[] raw = tree == null ? new byte[0] : reader.open(tree, Constants.OBJ_TREE).getCachedBytes();
            Out out = new Out(raw.length + (hi - lo) * 64);
            int pos = 0;
            int e = lo;
            while (pos < raw.length || e < hi) {
                int nameStart = pos < raw.length ? RawParseUtils.next(raw, pos, ' ') : -1;
                int nameEnd = nameStart < 0 ? -1 : RawParseUtils.next(raw, nameStart, '\0') - 1;
                boolean entryIsTree = nameStart >= 0 && raw[pos] == '4';
                int cmp;
                int compEnd = -1;
                boolean groupIsTree = false;
                if (e < hi) {
                    byte[] p = edits[e].path;
                    compEnd = indexOf(p, off, (byte) '/');
                    groupIsTree = compEnd >= 0;
                    if (!groupIsTree) {
                        compEnd = p.length;
                    }
                }
                if (nameStart < 0) {
                    cmp = 1;
                } else if (e >= hi) {
                    cmp = -1;
                } else {
                    cmp = compare(raw, nameStart, nameEnd, entryIsTree, edits[e].path, off, compEnd, groupIsTree);
                }
                if (cmp < 0) {
                    int next = nameEnd + 1 + Constants.OBJECT_ID_LENGTH;
                    out.write(raw, pos, next - pos);
                    pos = next;
                    continue;
                }
                ObjectId old = null;
                if (cmp == 0) {
                    old = ObjectId.fromRaw(raw, nameEnd + 1);
                    pos = nameEnd + 1 + Constants.OBJECT_ID_LENGTH;
                }
                byte[] p = edits[e].path;
                if (groupIsTree) {
                    int groupEnd = e + 1;
                    while (groupEnd < hi && sameFolder(edits[groupEnd].path, p, off, compEnd)) {
                        groupEnd++;
                    }
                    ObjectId child = rewrite(old, e, groupEnd, compEnd + 1);
                    if (child != null) {
                        out.entry(TREE_MODE, p, off, compEnd, child);
                    }
                    e = groupEnd;
                } else {
                    ObjectId blob = edits[e].blob;
                    if (blob != null) {
                        out.entry(FILE_MODE, p, off, compEnd, blob);
                    }
                    e++;
                }
            }
            if (out.size == 0) {
                return null;
            }
            return inserter.insert(Constants.OBJ_TREE, out.buf, 0, out.size);
        }

        private static int indexOf(byte[] p, int from, byte b) {
            for (int i = from; i < p.length; i++) {
                if (p[i] == b) {
                    return i;
                }
            }
            return -1;
        }

        /** True when {@code q} continues into the folder {@code p[off, slash)}. */
        private static boolean sameFolder(byte[] q, byte[] p, int off, int slash) {
            return q.length > slash && q[slash] == '/' && Arrays.equals(q, off, slash, p, off, slash);
        }

        /** Git's entry order: names compared bytewise, a tree's name as if followed by {@code /}. */
        private static int compare(byte[] a, int aStart, int aEnd, boolean aTree, byte[] b, int bStart, int bEnd,
                boolean bTree) {
            int n = Math.min(aEnd - aStart, bEnd - bStart);
            int c = Arrays.compareUnsigned(a, aStart, aStart + n, b, bStart, bStart + n);
            if (c != 0) {
                return c;
            }
            int ca = aStart + n < aEnd ? a[aStart + n] & 0xff : aTree ? '/' : -1;
            int cb = bStart + n < bEnd ? b[bStart + n] & 0xff : bTree ? '/' : -1;
            if (ca == cb && aEnd - aStart == bEnd - bStart) {
                return aTree == bTree ? 0 : aTree ? 1 : -1;
            }
            return Integer.compare(ca, cb);
        }
    }

    /** A growable byte buffer of raw tree entries. */
    private static final class Out {
        byte[] buf;
        int size;

        Out(int capacity) {
            buf = new byte[Math.max(64, capacity)];
        }

        void write(byte[] src, int off, int len) {
            ensure(len);
            System.arraycopy(src, off, buf, size, len);
            size += len;
        }

        void entry(byte[] mode, byte[] name, int from, int to, ObjectId id) {
            ensure(mode.length + (to - from) + 1 + Constants.OBJECT_ID_LENGTH);
            System.arraycopy(mode, 0, buf, size, mode.length);
            size += mode.length;
            System.arraycopy(name, from, buf, size, to - from);
            size += to - from;
            buf[size++] = 0;
            id.copyRawTo(buf, size);
            size += Constants.OBJECT_ID_LENGTH;
        }

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }
    }
}
