package dev.palimpsest.internal.git;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;

/**
 * Applies path edits to a tree without an index: only the trees on edited paths are read and
 * rewritten, so the cost of an edit grows with path depth and folder fan-out, never with the
 * number of files in the store. Empty folders are dropped. Stateless.
 */
public final class TreeEditor {
    private TreeEditor() {}

    /**
     * Writes the tree that results from {@code edits} (path to blob id, or to null for a deletion)
     * applied to {@code base} (null for an empty tree); returns its id.
     */
    public static ObjectId apply(ObjectReader reader, ObjectInserter inserter, ObjectId base,
            Map<String, ObjectId> edits) throws IOException {
        List<Edit> list = new ArrayList<>(edits.size());
        edits.forEach((path, id) -> list.add(new Edit(path.split("/"), id)));
        ObjectId result = rewrite(reader, inserter, base, list, 0);
        return result == null ? inserter.insert(new TreeFormatter()) : result;
    }

    private record Edit(String[] parts, ObjectId blob) {}

    private record Entry(String name, FileMode mode, ObjectId id) {}

    private static ObjectId rewrite(ObjectReader reader, ObjectInserter inserter, ObjectId tree, List<Edit> edits,
            int depth) throws IOException {
        TreeMap<String, Entry> entries = new TreeMap<>();
        if (tree != null) {
            CanonicalTreeParser p = new CanonicalTreeParser(null, reader, tree);
            for (; !p.eof(); p.next()) {
                FileMode mode = p.getEntryFileMode();
                String name = p.getEntryPathString();
                entries.put(sortKey(name, mode), new Entry(name, mode, p.getEntryObjectId()));
            }
        }
        TreeMap<String, List<Edit>> subEdits = new TreeMap<>();
        for (Edit e : edits) {
            String name = e.parts[depth];
            if (e.parts.length == depth + 1) {
                entries.remove(sortKey(name, FileMode.REGULAR_FILE));
                if (e.blob != null) {
                    entries.put(sortKey(name, FileMode.REGULAR_FILE), new Entry(name, FileMode.REGULAR_FILE, e.blob));
                }
            } else {
                subEdits.computeIfAbsent(name, k -> new ArrayList<>()).add(e);
            }
        }
        for (Map.Entry<String, List<Edit>> sub : subEdits.entrySet()) {
            String key = sortKey(sub.getKey(), FileMode.TREE);
            Entry old = entries.get(key);
            ObjectId child = rewrite(reader, inserter, old == null ? null : old.id, sub.getValue(), depth + 1);
            if (child == null) {
                entries.remove(key);
            } else {
                entries.put(key, new Entry(sub.getKey(), FileMode.TREE, child));
            }
        }
        if (entries.isEmpty()) {
            return null;
        }
        TreeFormatter f = new TreeFormatter(entries.size() * 64);
        for (Entry e : entries.values()) {
            f.append(e.name, e.mode, e.id);
        }
        return inserter.insert(f);
    }

    /** Git orders tree entries by name, comparing a folder's name as if it ended in '/'. */
    private static String sortKey(String name, FileMode mode) {
        return mode == FileMode.TREE ? name + "/" : name;
    }
}
