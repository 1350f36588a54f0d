package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a writer or a pull already knows about a commit (its changed paths, its decoded facts) is
 * taken as offered, not read again from git, and gives its events in the order a rebuild finds them;
 * what it does not offer is read from the commit's files.
 */
class OfferedEventsTest {
    private static final FactId F0 = FactId.of("f0");

    @TempDir
    Path dir;
    private GitRepo repo;
    private PredicateIndex stale;
    private int before;
    private ObjectId parent;
    private ObjectId commit;

    @BeforeEach
    void writeTwoFactsInOneCommitPastAnOpenIndex() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "fact f0").id(F0));
            tx.commit();
            gitDir = s.gitDir();
        }
        repo = GitRepo.open(gitDir, false);
        stale = PredicateIndex.open(repo);
        before = stale.commitCount();
        parent = repo.head();
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
            Transaction tx = s.begin(TestStores.ALICE);
            for (String id : new String[] {"g1", "g2", "g3"}) {
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + id).id(FactId.of(id)));
            }
            tx.commit();
        }
        commit = repo.head();
    }

    @AfterEach
    void close() {
        repo.close();
    }

    /** Every path {@code commit} changed against {@code parent}, in reverse path order (the reader must sort). */
    private Map<String, ObjectId> changes() throws Exception {
        List<String> paths = new ArrayList<>();
        Map<String, ObjectId> blobs = new HashMap<>();
        try (RevWalk walk = new RevWalk(repo.repository()); TreeWalk tw = new TreeWalk(repo.repository())) {
            RevCommit p = walk.parseCommit(parent);
            RevCommit c = walk.parseCommit(commit);
            tw.addTree(p.getTree());
            tw.addTree(c.getTree());
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                paths.add(0, tw.getPathString());
                blobs.put(tw.getPathString(), tw.getRawMode(1) == 0 ? null : tw.getObjectId(1));
            }
        }
        Map<String, ObjectId> out = new LinkedHashMap<>();
        for (String path : paths) {
            out.put(path, blobs.get(path));
        }
        return out;
    }

    /** By path, a decoding of each written fact that cites f0, which its file does not. */
    private Map<String, Fact> citingF0(Map<String, ObjectId> changes) {
        Map<String, Fact> out = new HashMap<>();
        for (String path : changes.keySet()) {
            FactId id = StorePaths.idFromPath(path);
            if (id != null && path.startsWith(StorePaths.FACTS + "/")) {
                out.put(path, new Fact(id, Kind.CLAIM, "decoded", null, List.of(new Ref(F0, RefRole.CITES, null, null, null))));
            }
        }
        return out;
    }

    private static List<String> eventsSince(PredicateIndex idx, int from) {
        List<String> ids = new ArrayList<>();
        idx.eventsSince(from, (id, st) -> ids.add(id));
        return ids;
    }

    private void assertEventsInTheOrderOfARebuild() {
        List<String> own = eventsSince(stale, before);
        PersistedIndex.discard(repo);
        PredicateIndex rebuilt = PredicateIndex.open(repo);
        assertThat(own).hasSizeGreaterThanOrEqualTo(3).isEqualTo(eventsSince(rebuilt, before));
    }

    @Test
    void theWritersDecodedFactsAreTakenWithoutReadingTheirFilesInPathOrder() throws Exception {
        Map<String, ObjectId> changes = changes();
        stale.indexOwnCommit(commit, parent, changes, citingF0(changes));
        assertThat(stale.citers(F0)).containsExactlyInAnyOrder("g1", "g2", "g3");
        assertEventsInTheOrderOfARebuild();
    }

    @Test
    void filesTheWriterDidNotDecodeAreReadAndAFileNamedLikeAFactFolderIsNoFact() throws Exception {
        Map<String, ObjectId> changes = changes();
        changes.put(StorePaths.FACTS, changes.get(StorePaths.factPath(Kind.CLAIM, FactId.of("g1"))));
        stale.indexOwnCommit(commit, parent, changes, Map.of());
        assertThat(stale.citers(F0)).isEmpty();
        assertThat(stale.state(FactId.of("g2"), commit).kind()).isEqualTo(Kind.CLAIM.value());
        assertEventsInTheOrderOfARebuild();
    }

    @Test
    void anOwnCommitOnAnUnindexedParentIsIndexedWithItsAncestryFromGit() throws Exception {
        ObjectId grandparent = parent;
        parent = commit;
        try (Store s = Store.open(repo.gitDir(), new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
            Transaction tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "fact h").id(FactId.of("h")));
            tx.commit();
        }
        commit = repo.head();
        stale.indexOwnCommit(commit, parent, changes(), Map.of());
        assertThat(stale.indexed(parent)).isTrue();
        assertThat(stale.indexed(commit)).isTrue();
        assertThat(stale.onFirstParentChain(grandparent, commit)).isTrue();
        assertThat(stale.state(FactId.of("h"), commit).live()).isTrue();
    }

    @Test
    void aPullsKnownChangesAndDecodedFactsAreTakenWithoutDiffingInPathOrder() throws Exception {
        Map<ObjectId, Fact> decoded = new HashMap<>();
        Map<String, ObjectId> changes = changes();
        citingF0(changes).forEach((path, f) -> decoded.put(changes.get(path), f));
        stale.catchUp(commit, offering(changes, decoded));
        assertThat(stale.citers(F0)).containsExactlyInAnyOrder("g1", "g2", "g3");
        assertEventsInTheOrderOfARebuild();
    }

    @Test
    void aKnownChangeWhoseFactIsNotDecodedIsReadFromItsFile() throws Exception {
        stale.catchUp(commit, offering(changes(), Map.of()));
        assertThat(stale.citers(F0)).isEmpty();
        assertThat(stale.state(FactId.of("g2"), commit).kind()).isEqualTo(Kind.CLAIM.value());
        assertEventsInTheOrderOfARebuild();
    }

    @Test
    void aPullsCommitBytesAreWalkedInsteadOfTheRepositorysObject() throws Exception {
        byte[] real;
        org.eclipse.jgit.lib.CommitBuilder unchanged = new org.eclipse.jgit.lib.CommitBuilder();
        try (RevWalk walk = new RevWalk(repo.repository())) {
            RevCommit c = walk.parseCommit(commit);
            real = c.getRawBuffer().clone();
            unchanged.setTreeId(walk.parseCommit(parent).getTree());
            unchanged.setParentId(parent);
            unchanged.setAuthor(c.getAuthorIdent());
            unchanged.setCommitter(c.getCommitterIdent());
            unchanged.setMessage("the parent's tree again\n");
        }
        List<ObjectId> asked = new ArrayList<>();
        byte[] offered = unchanged.build();
        stale.catchUp(commit, new KnownChanges() {
            @Override
            public Map<String, Change> changes(ObjectId c) {
                return null;
            }

            @Override
            public Fact fact(ObjectId blob) {
                return null;
            }

            @Override
            public byte[] commit(org.eclipse.jgit.lib.AnyObjectId c) {
                asked.add(c.copy());
                return c.equals(commit) ? offered : null;
            }
        });
        assertThat(asked).contains(commit);
        assertThat(stale.indexed(commit)).isTrue();
        assertThat(stale.state(FactId.of("g2"), commit)).as("the offered bytes name the parent's tree").isNull();
        assertThat(real).isNotEqualTo(offered);
    }

    /** Knows {@code commit}'s files as added with the blobs {@code added} names (in its order), and the decoded {@code facts}. */
    private KnownChanges offering(Map<String, ObjectId> added, Map<ObjectId, Fact> facts) {
        Map<String, KnownChanges.Change> changes = new LinkedHashMap<>();
        added.forEach((path, blob) -> changes.put(path, new KnownChanges.Change(null, blob)));
        return new KnownChanges() {
            @Override
            public Map<String, Change> changes(ObjectId c) {
                return c.equals(commit) ? changes : null;
            }

            @Override
            public Fact fact(ObjectId blob) {
                return facts.get(blob);
            }
        };
    }
}
