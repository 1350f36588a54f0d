package dev.palimpsest.internal.search;

import dev.palimpsest.internal.layout.StorePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/** What a commit changed in the fact folders (path to new blob, null when removed), and file chores. Stateless. */
final class TreeChanges {
    private TreeChanges() {}

    /** The fact files {@code c} changed against its first parent (against nothing for a root). */
    static Map<String, ObjectId> diff(ObjectReader reader, RevWalk walk, RevCommit c) throws IOException {
        RevCommit first = c.getParentCount() > 0 ? walk.parseCommit(c.getParent(0)) : null;
        Map<String, ObjectId> changes = new TreeMap<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(StorePaths.FACT_FOLDERS),
                    TreeFilter.ANY_DIFF));
            if (first == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(first.getTree());
            }
            tw.addTree(c.getTree());
            while (tw.next()) {
                boolean present = (tw.getRawMode(1) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
                changes.put(tw.getPathString(), present ? tw.getObjectId(1) : null);
            }
        }
        return changes;
    }

    static boolean inFactFolder(String path) {
        for (String f : StorePaths.FACT_FOLDERS) {
            if (path.startsWith(f) && path.length() > f.length() && path.charAt(f.length()) == '/') {
                return true;
            }
        }
        return false;
    }

    /** Deletes a file or a folder with everything in it. */
    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(p);
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
