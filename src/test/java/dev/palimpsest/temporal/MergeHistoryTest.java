package dev.palimpsest.temporal;

import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Non-linear history the Palimpsest writer never makes itself: side branches and merge commits
 * written with plain JGit, then read through {@link Store}. "Before" is ancestry: a side commit is
 * not before a main commit that does not descend from it, and a version a merge takes unchanged
 * from a side branch keeps the side commit that wrote it.
 */
class MergeHistoryTest {
    private static final FactId X = FactId.of("x");
    private static final FactId Y = FactId.of("y");
    private static final FactId Z = FactId.of("z");
    private static final FactId Q = FactId.of("q");

    @TempDir
    Path dir;

    private Path gitDir;
    private KeyHome home;
    /** Commit name to commit, in creation order, for readable failures. */
    private final Map<String, CommitId> c = new LinkedHashMap<>();
    private final Map<String, BlobId> blob = new LinkedHashMap<>();

    /** main: G, A (asserts x v1), M1 (asserts z), all through the API; the store is closed after. */
    private void mainLine() throws Exception {
        home = new KeyHome(dir.resolve("home"));
        try (Store s = TestStores.init(dir)) {
            gitDir = s.gitDir();
            c.put("G", s.head());
            c.put("A", assertFact(s, X, Kind.CLAIM, "x v1"));
            blob.put("x1", s.factExistsAt(X, c.get("A")).version().blob());
            c.put("M1", assertFact(s, Z, Kind.SOURCE, "z v1"));
            blob.put("z1", s.factExistsAt(Z, c.get("M1")).version().blob());
        }
    }

    /** side from A: S1 revises x to v2, S2 asserts y citing x as of S1; MM merges (M1, S2) or (S2, M1). */
    private void sideAndMerge(boolean mainFirst) throws Exception {
        try (Plumbing p = new Plumbing(gitDir)) {
            byte[] x2 = Plumbing.fact(X, Kind.CLAIM, "x v2");
            blob.put("x2", Plumbing.blobOf(x2));
            c.put("S1", p.commit(c.get("A"), Plumbing.edits().put(X, Kind.CLAIM, x2), c.get("A")));
            byte[] y = Plumbing.fact(Y, Kind.CLAIM, "y cites x v2",
                    new Ref(X, RefRole.CITES, c.get("S1"), blob.get("x2"), null));
            blob.put("y", Plumbing.blobOf(y));
            c.put("S2", p.commit(c.get("S1"), Plumbing.edits().put(Y, Kind.CLAIM, y), c.get("S1")));
            CommitId[] parents = mainFirst ? new CommitId[] {c.get("M1"), c.get("S2")}
                    : new CommitId[] {c.get("S2"), c.get("M1")};
            c.put("MM", p.commit(c.get("M1"), Plumbing.edits().put(X, Kind.CLAIM, x2).put(Y, Kind.CLAIM, y), parents));
            p.setBranch("main", c.get("MM"));
        }
    }

    private Store open() throws Exception {
        return Store.open(gitDir, home, StoreOptions.defaults().withFsync(false));
    }

    @Test
    void aMergeKeepsTheSideCommitThatWroteEachVersionItTookUnchanged() throws Exception {
        mainLine();
        sideAndMerge(true);
        try (Store s = open()) {
            checkMergeTable(s);
            assertThat(s.inbound(X, c.get("MM"), false)).containsExactly(
                    new InboundRef(Y, c.get("S2"), RefRole.CITES, c.get("S1"), blob.get("x2"), true));
            assertThat(s.inbound(X, c.get("M1"), true)).isEmpty();
            assertThat(s.inbound(X, c.get("S2"), true)).containsExactly(
                    new InboundRef(Y, c.get("S2"), RefRole.CITES, c.get("S1"), blob.get("x2"), true));
            assertThat(s.stale(Y, c.get("MM"))).containsExactly(new RefStatus(X, RefRole.CITES, RefStatus.Status.CURRENT,
                    c.get("S1"), c.get("S1"), null));
        }
    }

    @Test
    void aMergeWhoseFirstParentIsTheSideTakesMainVersionsFromTheCommitsThatWroteThem() throws Exception {
        mainLine();
        sideAndMerge(false);
        try (Store s = open()) {
            checkMergeTable(s);
        }
    }

    @Test
    void theIndexAnswersTheSameWhetherItRebuildsOrMetTheSideBranchFirst() throws Exception {
        mainLine();
        sideAndMerge(true);
        deleteIndex();
        try (Store s = open()) {
            checkMergeTable(s);
        }
        // Now index the side branch before the merge and M1 are known: main points at S2 on open.
        deleteIndex();
        try (Plumbing p = new Plumbing(gitDir)) {
            p.setBranch("main", c.get("S2"));
        }
        try (Store s = open()) {
            expect(s, X, "S2", true, "S1", "x2");
            try (Plumbing p = new Plumbing(gitDir)) {
                p.setBranch("main", c.get("MM"));
            }
            checkMergeTable(s);
        }
        try (Store s = open()) {
            checkMergeTable(s);
        }
    }

    @Test
    void aSignedWriteOnTopOfAMergeLeavesEveryEarlierAnswerUnchanged() throws Exception {
        mainLine();
        sideAndMerge(true);
        try (Store s = open()) {
            CommitId n = s.begin(TestStores.ALICE).revise(X, "x v3", List.of()).retract(Z, "wrong").commit().id();
            c.put("N", n);
            blob.put("x3", s.factExistsAt(X, n).version().blob());
            assertThat(s.log(1).get(0).parents()).containsExactly(c.get("MM"));
            checkMergeTable(s);
            expect(s, X, "N", true, "N", "x3");
            expect(s, Y, "N", true, "S2", "y");
            expect(s, Z, "N", false, "M1", "z1");
            assertThat(s.stale(Y, n)).containsExactly(new RefStatus(X, RefRole.CITES, RefStatus.Status.REVISED,
                    c.get("S1"), n, null));
            // y's side version reached main through the merge: listed once, under the side commit
            CommitId n2 = s.begin(TestStores.ALICE).revise(Y, "y v2 on main", List.of()).commit().id();
            c.put("N2", n2);
            assertThat(s.inbound(X, n2, true)).containsExactly(
                    new InboundRef(Y, n2, RefRole.CITES, c.get("S1"), blob.get("x2"), true),
                    new InboundRef(Y, c.get("S2"), RefRole.CITES, c.get("S1"), blob.get("x2"), false));
            assertThat(s.inbound(X, c.get("MM"), true)).containsExactly(
                    new InboundRef(Y, c.get("S2"), RefRole.CITES, c.get("S1"), blob.get("x2"), true));
        }
        try (Store s = open()) {
            checkMergeTable(s);
            expect(s, X, "N", true, "N", "x3");
        }
    }

    @Test
    void aRetractionOnTheSideIsInheritedByTheMerge() throws Exception {
        mainLine();
        try (Plumbing p = new Plumbing(gitDir)) {
            FactVersion v1 = new FactVersion(X, c.get("A"), blob.get("x1"));
            c.put("S1", p.commit(c.get("A"), Plumbing.edits().retract(X, Kind.CLAIM, v1, "wrong"), c.get("A")));
            c.put("MM", p.commit(c.get("M1"), Plumbing.edits().retract(X, Kind.CLAIM, v1, "wrong"), c.get("M1"),
                    c.get("S1")));
            p.setBranch("main", c.get("MM"));
        }
        try (Store s = open()) {
            expect(s, X, "S1", false, "A", "x1");
            expect(s, X, "M1", true, "A", "x1");
            expect(s, X, "MM", false, "A", "x1");
            expect(s, Z, "MM", true, "M1", "z1");
            assertThatThrownBy(() -> s.begin(TestStores.ALICE).retract(X, "again").commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("already retracted at");
            Transaction tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "x back").id(X));
            CommitId n = tx.commit().id();
            expect(s, X, n, true, n, s.factExistsAt(X, n).version().blob());
            expect(s, X, "MM", false, "A", "x1");
            expect(s, X, "M1", true, "A", "x1");
        }
    }

    /** side from A: S1 revises x to v2, S2 retracts it (record pins S1); MM merges (M1, S2). */
    private void sideRevisesThenRetracts() throws Exception {
        try (Plumbing p = new Plumbing(gitDir)) {
            byte[] x2 = Plumbing.fact(X, Kind.CLAIM, "x v2");
            blob.put("x2", Plumbing.blobOf(x2));
            c.put("S1", p.commit(c.get("A"), Plumbing.edits().put(X, Kind.CLAIM, x2), c.get("A")));
            FactVersion v2 = v(X, "S1", "x2");
            c.put("S2", p.commit(c.get("S1"), Plumbing.edits().retract(X, Kind.CLAIM, v2, "wrong"), c.get("S1")));
            c.put("MM", p.commit(c.get("M1"), Plumbing.edits().retract(X, Kind.CLAIM, v2, "wrong"), c.get("M1"),
                    c.get("S2")));
            p.setBranch("main", c.get("MM"));
        }
    }

    @Test
    void aMergedSideRetractionOfARevisedFactIsAnsweredOnTheSideBranch() throws Exception {
        mainLine();
        sideRevisesThenRetracts();
        try (Store s = open()) {
            expect(s, X, "S1", true, "S1", "x2");
            expect(s, X, "S2", false, "S1", "x2");
            expect(s, X, "M1", true, "A", "x1");
            assertThat(s.factLiveAtCommit(X, c.get("MM"))).isFalse();
            FactRead.Retracted r = (FactRead.Retracted) s.read(X, c.get("MM"));
            assertThat(r.lastVersion()).isEqualTo(v(X, "S1", "x2"));
        }
    }

    @Test
    void aMergedSideRetractionOfARevisedFactExistsAsTheRetractedSideVersion() throws Exception {
        mainLine();
        sideRevisesThenRetracts();
        try (Store s = open()) {
            expect(s, X, "MM", false, "S1", "x2");
        }
    }

    @Test
    void aMergedSideRetractionKeepsTheSideCommitAsTheRetractionCommit() throws Exception {
        mainLine();
        sideRevisesThenRetracts();
        try (Store s = open()) {
            FactRead.Retracted r = (FactRead.Retracted) s.read(X, c.get("MM"));
            assertThat(r.retractedAt()).as("retraction commit").isEqualTo(c.get("S2"));
        }
    }

    @Test
    void aCommitOnABranchNeverMergedIsAnsweredAndRemembered() throws Exception {
        mainLine();
        byte[] x9 = Plumbing.fact(X, Kind.CLAIM, "x v9 on a dead branch");
        byte[] q = Plumbing.fact(Q, Kind.SOURCE, "q only on the dead branch");
        blob.put("x9", Plumbing.blobOf(x9));
        blob.put("q", Plumbing.blobOf(q));
        try (Plumbing p = new Plumbing(gitDir)) {
            c.put("U1", p.commit(c.get("A"), Plumbing.edits().put(X, Kind.CLAIM, x9), c.get("A")));
            c.put("U2", p.commit(c.get("U1"), Plumbing.edits().put(Q, Kind.SOURCE, q), c.get("U1")));
        }
        try (Store s = open()) {
            expect(s, Q, "U2", true, "U2", "q");
            expect(s, X, "U2", true, "U1", "x9");
            expect(s, X, "U1", true, "U1", "x9");
            expect(s, Q, "U1", false, null, null);
            expect(s, Q, "M1", false, null, null);
            expect(s, X, "M1", true, "A", "x1");
            CommitId unknown = CommitId.of("0123456789abcdef0123456789abcdef01234567");
            assertThatThrownBy(() -> s.factExistsAt(X, unknown)).isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> s.factLiveAtCommit(X, unknown)).isInstanceOf(NotFoundException.class);
            // a write persists what the reads indexed, side commits included
            c.put("N", s.begin(TestStores.ALICE).revise(X, "x v2 on main", List.of()).commit().id());
            expect(s, Q, "N", false, null, null);
        }
        try (Store s = open()) {
            expect(s, Q, "U2", true, "U2", "q");
            expect(s, X, "U1", true, "U1", "x9");
            expect(s, X, "M1", true, "A", "x1");
            blob.put("xN", s.factExistsAt(X, c.get("N")).version().blob());
            expect(s, X, "N", true, "N", "xN");
        }
    }

    /** x, y, z at every commit of the merge scenario (and at N when present). */
    private void checkMergeTable(Store s) throws PalimpsestException {
        expect(s, X, "G", false, null, null);
        expect(s, Y, "G", false, null, null);
        expect(s, Z, "G", false, null, null);
        expect(s, X, "A", true, "A", "x1");
        expect(s, Y, "A", false, null, null);
        expect(s, Z, "A", false, null, null);
        expect(s, X, "S1", true, "S1", "x2");
        expect(s, Y, "S1", false, null, null);
        expect(s, Z, "S1", false, null, null);
        expect(s, X, "S2", true, "S1", "x2");
        expect(s, Y, "S2", true, "S2", "y");
        expect(s, Z, "S2", false, null, null);
        expect(s, X, "M1", true, "A", "x1");
        expect(s, Y, "M1", false, null, null);
        expect(s, Z, "M1", true, "M1", "z1");
        expect(s, X, "MM", true, "S1", "x2");
        expect(s, Y, "MM", true, "S2", "y");
        expect(s, Z, "MM", true, "M1", "z1");
    }

    private void expect(Store s, FactId id, String at, boolean live, String version, String blobName)
            throws PalimpsestException {
        expect(s, id, c.get(at), live, version == null ? null : c.get(version),
                blobName == null ? null : blob.get(blobName));
    }

    private void expect(Store s, FactId id, CommitId at, boolean live, CommitId version, BlobId b)
            throws PalimpsestException {
        String where = id + " at " + name(at);
        if (version == null) {
            assertThatThrownBy(() -> s.factLiveAtCommit(id, at)).as("live: " + where)
                    .isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> s.factExistsAt(id, at)).as("exists: " + where)
                    .isInstanceOf(NotFoundException.class);
        } else {
            assertThat(s.factLiveAtCommit(id, at)).as("live: " + where).isEqualTo(live);
            assertThat(s.factExistsAt(id, at)).as("exists: " + where + " (version " + name(version) + ")")
                    .isEqualTo(new ExistsAt(new FactVersion(id, version, b), live));
        }
    }

    private FactVersion v(FactId id, String commit, String blobName) {
        return new FactVersion(id, c.get(commit), blob.get(blobName));
    }

    private String name(CommitId id) {
        return c.entrySet().stream().filter(e -> e.getValue().equals(id)).map(Map.Entry::getKey).findFirst()
                .orElse(id.abbreviated());
    }

    private void deleteIndex() throws IOException {
        Path idx = gitDir.resolve("palimpsest-index");
        if (Files.exists(idx)) {
            try (Stream<Path> files = Files.walk(idx)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    private static CommitId assertFact(Store s, FactId id, Kind kind, String body) throws PalimpsestException {
        Transaction tx = s.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(kind, body).id(id));
        return tx.commit().id();
    }
}
