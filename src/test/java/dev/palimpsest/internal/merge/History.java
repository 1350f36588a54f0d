package dev.palimpsest.internal.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.git.TreeEditor;
import dev.palimpsest.testing.Forgery;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Test fixture: hand-made histories in an in-memory repository, and their convergent merge taken
 * in both orders (which must agree on the tree, the losers and the settlements).
 */
final class History {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    final InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("t"));

    /** The merge of two tips, in both orders: its result (from the first order) and merged files. */
    record Merged(ConvergentMerge.Result result, Map<String, ObjectId> files) {}

    /**
     * A commit at {@code T0 + seconds} whose tree is its first parent's (none: empty) with the edits
     * (path, content; null content removes the path).
     */
    ObjectId commit(long seconds, String message, String[] edits, ObjectId... parents) throws Exception {
        Map<String, byte[]> bytes = new TreeMap<>();
        for (int i = 0; i < edits.length; i += 2) {
            bytes.put(edits[i], edits[i + 1] == null ? null : edits[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return Forgery.commit(repo, parents.length == 0 ? null : parents[0], bytes,
                new PersonIdent("bob", "bob@x", T0.plusSeconds(seconds), ZoneOffset.UTC), message, parents);
    }

    ObjectId commit(long seconds, String[] edits, ObjectId... parents) throws Exception {
        return commit(seconds, "c\n", edits, parents);
    }

    static String[] edits(String... pathsAndContents) {
        return pathsAndContents;
    }

    ObjectId blob(String content) throws Exception {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId id = ins.insert(Constants.OBJ_BLOB, content.getBytes(StandardCharsets.UTF_8));
            ins.flush();
            return id;
        }
    }

    Merged merge(ObjectId a, ObjectId b) throws Exception {
        try (ObjectReader reader = repo.newObjectReader()) {
            ConvergentMerge.Result ab = ConvergentMerge.merge(reader, a, b);
            ConvergentMerge.Result ba = ConvergentMerge.merge(reader, b, a);
            Map<String, ObjectId> files = files(tree(a, ab));
            assertThat(files(tree(b, ba))).isEqualTo(files);
            assertThat(ba.lost()).isEqualTo(ab.lost());
            assertThat(ba.settled()).isEqualTo(ab.settled());
            return new Merged(ab, files);
        }
    }

    private ObjectId tree(ObjectId ours, ConvergentMerge.Result r) throws Exception {
        try (RevWalk w = new RevWalk(repo); ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId t = TreeEditor.apply(w.getObjectReader(), ins, w.parseCommit(ours).getTree(), r.edits());
            ins.flush();
            return t;
        }
    }

    private Map<String, ObjectId> files(ObjectId tree) throws Exception {
        Map<String, ObjectId> files = new HashMap<>();
        try (TreeWalk tw = new TreeWalk(repo)) {
            tw.addTree(tree);
            tw.setRecursive(true);
            while (tw.next()) {
                files.put(tw.getPathString(), tw.getObjectId(0));
            }
        }
        return files;
    }
}
