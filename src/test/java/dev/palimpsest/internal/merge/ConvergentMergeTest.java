package dev.palimpsest.internal.merge;

import dev.palimpsest.testing.Forgery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.git.IdOnlyInserter;
import dev.palimpsest.internal.git.TreeEditor;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The convergent merge's rules on hand-made histories, each checked in both orders. */
class ConvergentMergeTest {
    private static final FactId F = FactId.of("f");
    private static final String FACT = StorePaths.candidatePaths(F).get(0);
    private static final String RECORD = StorePaths.retractionPath(F);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private InMemoryRepository repo;
    private ObjectInserter ins;
    private Map<String, String> baseFiles;
    private ObjectId base;

    @BeforeEach
    void history() throws Exception {
        repo = new InMemoryRepository(new DfsRepositoryDescription("t"));
        ins = repo.newObjectInserter();
        baseFiles = new TreeMap<>(Map.of("palimpsest.yaml", "format: 1\n", "keys/bob.asc", "bob key",
                "keys/bob.yaml", "bob record", FACT, "version 0"));
        base = commit(T0, baseFiles);
    }

    @Test
    void aRevocationBeatsAConcurrentKeyRotation() throws Exception {
        ObjectId a = commit(T0.plusSeconds(10), without(baseFiles, "keys/bob.asc", "keys/bob.yaml"), base);
        ObjectId b = commit(T0.plusSeconds(20), with(baseFiles, "keys/bob.asc", "new bob key", "keys/bob.yaml",
                "new record"), base);
        Map<String, ObjectId> merged = both(a, b);
        assertThat(merged).doesNotContainKeys("keys/bob.asc", "keys/bob.yaml");
    }

    @Test
    void aRetractionBeatsALaterRevisionAndNothingIsLost() throws Exception {
        ObjectId a = commit(T0.plusSeconds(10), with(without(baseFiles, FACT), RECORD, "retracted"), base);
        ObjectId b = commit(T0.plusSeconds(20), with(baseFiles, FACT, "version b"), base);
        Map<String, ObjectId> merged = both(a, b);
        assertThat(merged).doesNotContainKey(FACT).containsKey(RECORD);
        assertThat(ConvergentMerge.merge(reader(), a, b).lost()).isEmpty();
    }

    @Test
    void ofTwoRevisionsTheLaterWinsAndTheLoserIsNamed() throws Exception {
        ObjectId a = commit(T0.plusSeconds(30), with(baseFiles, FACT, "version a"), base);
        ObjectId b = commit(T0.plusSeconds(20), with(baseFiles, FACT, "version b"), base);
        Map<String, ObjectId> merged = both(a, b);
        assertThat(merged.get(FACT)).isEqualTo(blob("version a"));
        assertThat(ConvergentMerge.merge(reader(), b, a).lost()).containsExactly(new ConvergentMerge.Lost(F, b, a));
        assertThat(ConvergentMerge.merge(reader(), a, b).lost()).containsExactly(new ConvergentMerge.Lost(F, b, a));
    }

    @Test
    void equalTimesAreOrderedByCommitId() throws Exception {
        ObjectId a = commit(T0.plusSeconds(30), with(baseFiles, FACT, "version a"), base);
        ObjectId b = commit(T0.plusSeconds(30), with(baseFiles, FACT, "version b"), base);
        ObjectId later = a.name().compareTo(b.name()) > 0 ? a : b;
        assertThat(both(a, b).get(FACT)).isEqualTo(blob(later == a ? "version a" : "version b"));
    }

    @Test
    void oneSidedChangesAndNewPathsMergeByPath() throws Exception {
        ObjectId a = commit(T0.plusSeconds(10), with(baseFiles, "files/aa/bb/x", "content x", FACT, "version a"), base);
        ObjectId b = commit(T0.plusSeconds(20), with(without(baseFiles, "keys/bob.asc", "keys/bob.yaml"),
                "files/cc/dd/y", "content y", "palimpsest.yaml", "format: 1\npolicy: \"trust\"\n"), base);
        Map<String, ObjectId> merged = both(a, b);
        assertThat(merged).containsEntry("files/aa/bb/x", blob("content x")).containsEntry("files/cc/dd/y",
                blob("content y")).containsEntry(FACT, blob("version a"))
                .containsEntry("palimpsest.yaml", blob("format: 1\npolicy: \"trust\"\n"))
                .doesNotContainKey("keys/bob.asc");
        assertThat(ConvergentMerge.merge(reader(), a, b).lost()).isEmpty();
    }

    @Test
    void aConfigChangedOnBothSidesTakesTheLaterVersion() throws Exception {
        ObjectId a = commit(T0.plusSeconds(40), with(baseFiles, "palimpsest.yaml", "a"), base);
        ObjectId b = commit(T0.plusSeconds(20), with(baseFiles, "palimpsest.yaml", "b"), base);
        assertThat(both(a, b).get("palimpsest.yaml")).isEqualTo(blob("a"));
    }

    @Test
    void historiesWithoutACommonCommitDoNotMerge() throws Exception {
        ObjectId other = commit(T0, Map.of("palimpsest.yaml", "other"));
        assertThatThrownBy(() -> ConvergentMerge.merge(reader(), base, other))
                .isInstanceOf(ConvergentMerge.UnrelatedException.class);
    }

    /** Merges in both orders, checks the trees agree, and returns the merged tree's files. */
    private Map<String, ObjectId> both(ObjectId a, ObjectId b) throws Exception {
        ObjectId ab = mergedTree(a, b);
        ObjectId ba = mergedTree(b, a);
        assertThat(ab).isEqualTo(ba);
        Map<String, ObjectId> files = new HashMap<>();
        try (org.eclipse.jgit.treewalk.TreeWalk tw = new org.eclipse.jgit.treewalk.TreeWalk(reader())) {
            tw.addTree(ab);
            tw.setRecursive(true);
            while (tw.next()) {
                files.put(tw.getPathString(), tw.getObjectId(0));
            }
        }
        return files;
    }

    private ObjectId mergedTree(ObjectId ours, ObjectId theirs) throws Exception {
        ConvergentMerge.Result r = ConvergentMerge.merge(reader(), ours, theirs);
        try (RevWalk w = new RevWalk(repo)) {
            ObjectId t = TreeEditor.apply(reader(), ins, w.parseCommit(ours).getTree(), r.edits());
            ins.flush();
            try (IdOnlyInserter ids = new IdOnlyInserter()) {
                assertThat(TreeEditor.apply(reader(), ids, w.parseCommit(ours).getTree(), r.edits())).isEqualTo(t);
            }
            return t;
        }
    }

    private ObjectReader reader() {
        return repo.newObjectReader();
    }

    private ObjectId blob(String content) throws Exception {
        ObjectId id = ins.insert(Constants.OBJ_BLOB, content.getBytes(StandardCharsets.UTF_8));
        ins.flush();
        return id;
    }

    private ObjectId commit(Instant when, Map<String, String> files, ObjectId... parents) throws Exception {
        Map<String, byte[]> bytes = new TreeMap<>();
        files.forEach((path, content) -> bytes.put(path, content.getBytes(StandardCharsets.UTF_8)));
        return Forgery.commit(repo, null, bytes, new PersonIdent("bob", "bob@x", when, ZoneOffset.UTC), "c\n", parents);
    }

    private static Map<String, String> with(Map<String, String> m, String... kv) {
        Map<String, String> out = new TreeMap<>(m);
        for (int i = 0; i < kv.length; i += 2) {
            out.put(kv[i], kv[i + 1]);
        }
        return out;
    }

    private static Map<String, String> without(Map<String, String> m, String... keys) {
        Map<String, String> out = new TreeMap<>(m);
        for (String k : keys) {
            out.remove(k);
        }
        return out;
    }
}
