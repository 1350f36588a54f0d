package dev.palimpsest.internal.index;

import dev.palimpsest.testing.Forgery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every question about a commit the index has not seen indexes it first, parents before children
 * whatever the commit dates say; a removal is navigable exactly when its retraction record is there.
 */
class IndexCatchUpTest {
    @TempDir
    Path dir;

    private static void write(Store s, FactSpec spec) throws Exception {
        Transaction tx = s.begin(TestStores.ALICE);
        tx.assertFact(spec);
        tx.commit();
    }

    private static FactSpec claim(String id) {
        return FactSpec.of(Kind.CLAIM, "fact " + id).id(FactId.of(id));
    }

    @Test
    void questionsAboutACommitWrittenSinceOpenCatchUpFirst() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            write(s, claim("f0"));
            gitDir = s.gitDir();
        }
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            List<PredicateIndex> stale = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                stale.add(PredicateIndex.open(repo));
            }
            try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
                write(s, claim("g").refs(RefSpec.cites(FactId.of("f0"))));
            }
            ObjectId head = repo.head();
            FactId g = FactId.of("g");
            assertThat(stale.get(0).state(g, head).live()).isTrue();
            assertThat(stale.get(1).eventsAt(g, head)).extracting(FactState::changedAt).containsExactly(head);
            assertThat(stale.get(2).lastLive(g, head).versionCommit()).isEqualTo(head);
            Map<String, Boolean> citers = new TreeMap<>();
            stale.get(3).citersAt("f0", head, citers::put);
            assertThat(citers).containsExactly(Map.entry("g", true));
        }
    }

    @Test
    void aMergeWhoseParentIsDatedAfterItsChildIsIndexedParentsFirst() throws Exception {
        try (GitRepo repo = GitRepo.create(dir.resolve("skew.git"), false)) {
            Repository r = repo.repository();
            ObjectId root = commit(r, null, Map.of(), 10);
            ObjectId p = commit(r, root, Map.of(), 100, root);
            ObjectId a = commit(r, p, Map.of(), 50, p);
            ObjectId b = commit(r, p, Map.of(), 80, p);
            ObjectId m = commit(r, a, Map.of(), 120, a, b);
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.commitCount()).isZero();
            idx.catchUp(m);
            assertThat(idx.commitCount()).isEqualTo(5);
            assertThat(idx.indexed(m)).isTrue();
            assertThat(idx.onFirstParentChain(a, m)).isTrue();
        }
    }

    @Test
    void aCiterWhoseCitingVersionIsOnTheChainItsCommitForkedFromIsFound() throws Exception {
        FactId g = FactId.of("g");
        String path = StorePaths.factPath(Kind.CLAIM, g);
        byte[] citing = FactCodec.encode(new Fact(g, Kind.CLAIM, "cites f0", null,
                List.of(new Ref(FactId.of("f0"), RefRole.CITES, null, null, null))));
        byte[] plain = FactCodec.encode(new Fact(g, Kind.CLAIM, "cites nothing", null, List.of()));
        try (GitRepo repo = GitRepo.create(dir.resolve("fork.git"), false)) {
            Repository r = repo.repository();
            ObjectId root = commit(r, null, Map.of(path, citing), 10);
            ObjectId main = commit(r, root, Map.of(), 20, root);
            ObjectId side = commit(r, root, Map.of(path, plain), 30, root);
            PredicateIndex idx = PredicateIndex.open(repo);
            idx.catchUp(main);
            idx.catchUp(side);
            assertThat(idx.chains()).isEqualTo(2);
            Map<String, Boolean> citers = new TreeMap<>();
            idx.citersAt("f0", side, citers::put);
            assertThat(citers).containsExactly(Map.entry("g", true));
        }
    }

    @Test
    void aFileRemovedWithoutItsRetractionRecordLeavesNoNavigableVersionAndIsLoggedSo() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            write(s, claim("f0"));
            write(s, claim("f1"));
            gitDir = s.gitDir();
        }
        FactId f0 = FactId.of("f0");
        FactId f1 = FactId.of("f1");
        Map<String, byte[]> unrecorded = new TreeMap<>();
        unrecorded.put(StorePaths.factPath(Kind.CLAIM, f0), null);
        Map<String, byte[]> recorded = new TreeMap<>();
        recorded.put(StorePaths.factPath(Kind.CLAIM, f1), null);
        recorded.put(StorePaths.retractionPath(f1), "any record\n".getBytes(StandardCharsets.UTF_8));
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            ObjectId head = repo.head();
            ObjectId x = commit(repo.repository(), head, unrecorded, 2_000_000_000L, head);
            ObjectId y = commit(repo.repository(), x, recorded, 2_000_000_001L, x);
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.state(f0, x).live()).isFalse();
            assertThat(idx.state(f0, x).navigable()).isFalse();
            assertThat(idx.existing(f0, x)).isNull();
            assertThat(idx.existing(f1, y).live()).isFalse();
            assertThat(idx.existing(f1, y).versionCommit()).isEqualTo(head);
            idx.persist();
            PersistedIndex.Contents p = PersistedIndex.read(repo);
            assertThat(p.corrupt()).isFalse();
            assertThat(p.byCommit().get(x).get("f0").navigable()).isFalse();
            assertThat(p.byCommit().get(y).get("f1").navigable()).isTrue();
        }
    }

    /**
     * An unsigned commit of the tree of {@code base} (none: empty) with {@code edits} (path to
     * bytes, null removes), dated {@code seconds} after the epoch; main does not move.
     */
    private static ObjectId commit(Repository r, ObjectId base, Map<String, byte[]> edits, long seconds,
            ObjectId... parents) throws Exception {
        PersonIdent who = new PersonIdent("plumber", "plumber@example.org", Instant.ofEpochSecond(seconds),
                ZoneOffset.UTC);
        return Forgery.commit(r, base, edits, who, "commit at " + seconds + "\n", parents);
    }
}
