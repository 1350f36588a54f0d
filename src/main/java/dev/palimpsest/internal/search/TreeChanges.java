package dev.palimpsest.internal.search;

import dev.palimpsest.internal.git.TreeDiff;
import dev.palimpsest.internal.layout.StorePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/** What a commit changed in the fact folders (path to new blob, null when removed), and file chores. Stateless. */
final class TreeChanges {
    private TreeChanges() {}

    /** The fact files {@code c} changed against its first parent (against nothing for a root), in tree order. */
    static Map<String, ObjectId> diff(TreeDiff differ, RevWalk walk, RevCommit c) throws IOException {
        RevCommit first = c.getParentCount() > 0 ? walk.parseCommit(c.getParent(0)) : null;
        Map<String, ObjectId> changes = new LinkedHashMap<>();
        differ.diff(first == null ? null : first.getTree(), c.getTree(), changes::put);
        return changes;
    }

    /** A differ over the fact folders. */
    static TreeDiff differ(ObjectReader reader) {
        return new TreeDiff(reader, StorePaths.FACT_FOLDERS);
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
