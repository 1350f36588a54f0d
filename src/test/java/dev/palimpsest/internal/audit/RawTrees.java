package dev.palimpsest.internal.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Writes tree objects byte by byte, the way a tamperer with {@code git hash-object --literally}
 * could: one entry with any mode string, kept beside an entry of the same name or replacing it,
 * written in git's order or after everything else. Trees are read and written with JGit by
 * {@link #mainWith} and through any {@link TreeStore}, such as git's plumbing, by {@link #with}.
 */
public final class RawTrees {
    private record Entry(String mode, String name, ObjectId id) {
        boolean tree() {
            return mode.equals("40000");
        }

        String sortName() {
            return tree() ? name + "/" : name;
        }
    }

    private RawTrees() {}

    /** How the new entry joins its folder. */
    public enum Placement { REPLACE, DUPLICATE }

    /** Reads and writes the tree objects of one repository, however the caller reaches it. */
    public interface TreeStore {
        /** The raw content of the tree {@code id}. */
        byte[] read(ObjectId id) throws IOException;

        /** Writes {@code raw} as a tree object, unchecked, and returns its id. */
        ObjectId write(byte[] raw) throws IOException;
    }

    /**
     * The tree of {@code main} in {@code gitDir} with an entry {@code mode id} at {@code path}
     * (folders created as needed), placed as {@code how}.
     */
    static ObjectId mainWith(Path gitDir, String path, String mode, ObjectId id, Placement how) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter();
                ObjectReader reader = r.newObjectReader();
                RevWalk walk = new RevWalk(reader)) {
            ObjectId root = walk.parseCommit(r.resolve(Constants.R_HEADS + "main")).getTree();
            ObjectId out = with(new TreeStore() {
                @Override
                public byte[] read(ObjectId tree) throws IOException {
                    return reader.open(tree, Constants.OBJ_TREE).getBytes();
                }

                @Override
                public ObjectId write(byte[] raw) throws IOException {
                    return ins.insert(Constants.OBJ_TREE, raw);
                }
            }, root, path, mode, id, how);
            ins.flush();
            return out;
        }
    }

    /** Inserts {@code bytes} as a blob of main's repository and returns its id. */
    static ObjectId blob(Path gitDir, byte[] bytes) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            ObjectId id = ins.insert(Constants.OBJ_BLOB, bytes);
            ins.flush();
            return id;
        }
    }

    /**
     * {@code tree} (null: an empty tree) with an entry {@code mode id} at {@code path}, folders
     * created as needed, placed as {@code how}; every tree on the way is written to {@code trees}.
     */
    public static ObjectId with(TreeStore trees, ObjectId tree, String path, String mode, ObjectId id, Placement how)
            throws IOException {
        List<Entry> entries = tree == null ? new ArrayList<>() : parse(trees.read(tree));
        int slash = path.indexOf('/');
        String name = slash < 0 ? path : path.substring(0, slash);
        Entry old = entries.stream().filter(e -> e.name().equals(name)).findFirst().orElse(null);
        if (slash >= 0) {
            entries.remove(old);
            entries.add(new Entry("40000", name, with(trees, old == null ? null : old.id(),
                    path.substring(slash + 1), mode, id, how)));
        } else {
            if (how == Placement.REPLACE) {
                entries.remove(old);
            }
            entries.add(new Entry(mode, name, id));
        }
        entries.sort((a, b) -> compareBytes(a.sortName(), b.sortName()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] raw = new byte[Constants.OBJECT_ID_LENGTH];
        for (Entry e : entries) {
            out.writeBytes((e.mode() + " " + e.name()).getBytes(StandardCharsets.UTF_8));
            out.write(0);
            e.id().copyRawTo(raw, 0);
            out.writeBytes(raw);
        }
        return trees.write(out.toByteArray());
    }

    private static List<Entry> parse(byte[] t) {
        List<Entry> out = new ArrayList<>();
        int pos = 0;
        while (pos < t.length) {
            int sp = indexOf(t, (byte) ' ', pos);
            int nul = indexOf(t, (byte) 0, sp);
            out.add(new Entry(new String(t, pos, sp - pos, StandardCharsets.US_ASCII),
                    new String(t, sp + 1, nul - sp - 1, StandardCharsets.UTF_8), ObjectId.fromRaw(t, nul + 1)));
            pos = nul + 1 + Constants.OBJECT_ID_LENGTH;
        }
        return out;
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        throw new IllegalArgumentException("truncated tree");
    }

    private static int compareBytes(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    }
}
