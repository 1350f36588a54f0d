package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conflicts between facts that only the merged tree shows (two supersessions of one fact, a receipt
 * cycle, one key under two names, every key revoked, an artifact whose member the other side
 * retracted) are settled the same way whichever replica merges, the merge commits of opposite
 * orders have equal trees and equal trailers, and the audit (which recomputes every merge) is clean.
 */
class MergeSettleTest {
    private static final TransferProgress NONE = TransferProgress.none();
    private static final ActorName DAVE = ActorName.of("dave");
    private static final ActorName DAVID = ActorName.of("david");

    @TempDir
    Path dir;

    @Test
    void twoConcurrentSupersessionsOfOneFactBothStayAndTheLaterOneWins() throws Exception {
        Replicas rs = Replicas.create(dir);
        FactId t = hubFact(rs, "t", "The original statement.");
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            var tx = s.begin(BOB);
            tx.supersede(t, FactSpec.of(Kind.CLAIM, "Corrected on a.").id(FactId.of("s-a")));
            tx.commit();
        }
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            var tx = s.begin(CAROL);
            tx.supersede(t, FactSpec.of(Kind.CLAIM, "Corrected on b, later.").id(FactId.of("s-b")));
            tx.commit();
        }
        List<PullResult.Merged> ms = bothOrders(rs, a, b, ALICE, ALICE);
        for (PullResult.Merged m : ms) {
            assertThat(m.settled()).containsExactly("superseded-twice t s-a s-b");
        }
    }

    @Test
    void aReceiptCycleClosedAcrossTheSidesIsBrokenAtTheLaterRevision() throws Exception {
        Replicas rs = Replicas.create(dir);
        try (Store s = rs.open(rs.hub)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "Premise one.").id(FactId.of("p1")));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "Premise two.").id(FactId.of("p2")));
            tx.assertFact(artifact("x", "Artifact x.", List.of(List.of(Pin.of(FactId.of("p1"))))));
            tx.assertFact(artifact("y", "Artifact y.", List.of(List.of(Pin.of(FactId.of("p2"))))));
            tx.commit();
        }
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        addBundle(rs, a, BOB, "x", "y");
        Thread.sleep(1100);
        addBundle(rs, b, CAROL, "y", "x");
        List<PullResult.Merged> ms = bothOrders(rs, a, b, ALICE, ALICE);
        for (PullResult.Merged m : ms) {
            assertThat(m.settled()).singleElement().asString().startsWith("receipt-cycle y ");
            try (Store s = rs.open(dir.resolve(m == ms.get(0) ? "a2.git" : "b2.git"))) {
                FactRead.Found y = (FactRead.Found) s.read(FactId.of("y"), m.head());
                assertThat(y.fact().grounding().receipt().members()).containsExactly(FactId.of("p2"));
                FactRead.Found x = (FactRead.Found) s.read(FactId.of("x"), m.head());
                assertThat(x.fact().grounding().receipt().members()).contains(FactId.of("y"));
            }
        }
    }

    @Test
    void oneKeyAddedUnderTwoNamesOnTheTwoSidesKeepsTheEarlierName() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        String key = rs.home.generateKey(DAVE, "dave@example.org");
        try (Store s = rs.open(a)) {
            s.begin(ALICE).addKey(DAVE, key, KeyRole.AGENT).commit();
        }
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            s.begin(ALICE).addKey(DAVID, key, KeyRole.AGENT).commit();
        }
        List<PullResult.Merged> ms = bothOrders(rs, a, b, ALICE, ALICE);
        for (PullResult.Merged m : ms) {
            assertThat(m.settled()).containsExactly("key-in-use david dave");
            try (Store s = rs.open(dir.resolve(m == ms.get(0) ? "a2.git" : "b2.git"))) {
                assertThat(s.keys(m.head())).extracting(ActorKey::name).containsExactly(ALICE, BOB, CAROL, DAVE);
            }
        }
    }

    @Test
    void concurrentRevocationsOfEveryKeyKeepTheLastRevokedKey() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            s.begin(CAROL).revokeKey(ALICE).revokeKey(BOB).commit();
        }
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            s.begin(ALICE).revokeKey(CAROL).commit();
        }
        List<PullResult.Merged> ms = bothOrders(rs, a, b, CAROL, ALICE);
        for (PullResult.Merged m : ms) {
            assertThat(m.settled()).containsExactly("last-key carol");
            try (Store s = rs.open(dir.resolve(m == ms.get(0) ? "a2.git" : "b2.git"))) {
                assertThat(s.keys(m.head())).extracting(ActorKey::name).containsExactly(CAROL);
            }
        }
    }

    @Test
    void anArtifactWhoseMemberTheOtherSideRetractedIsCascadedAfterTheMergeAndReplicasConverge() throws Exception {
        Replicas rs = Replicas.create(dir);
        FactId p = hubFact(rs, "p", "A premise.");
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            s.begin(BOB).retract(p, "the premise was wrong").commit();
        }
        try (Store s = rs.open(b)) {
            var tx = s.begin(CAROL);
            tx.assertFact(artifact("n", "Resting on p.", List.of(List.of(Pin.of(p)))));
            tx.commit();
        }
        List<PullResult.Merged> ms = bothOrders(rs, a, b, ALICE, CAROL);
        for (PullResult.Merged m : ms) {
            assertThat(m.cascade()).isNotNull();
        }
        for (String name : List.of("a2.git", "b2.git")) {
            try (Store s = rs.open(dir.resolve(name))) {
                assertThat(s.read(FactId.of("n"), s.head())).isInstanceOf(FactRead.Retracted.class);
                assertThat(s.receipts().review(s.head())).isEmpty();
            }
        }
    }

    /**
     * Merges a and b in both orders on copies (a2 pulls b, b2 pulls a), checks the two merge
     * commits have one tree and one set of trailers, then syncs a2 and b2 once more both ways and
     * checks they end on one tree with clean audits. Returns the merges (a2's, b2's).
     */
    private List<PullResult.Merged> bothOrders(Replicas rs, Path a, Path b, ActorName onA, ActorName onB)
            throws Exception {
        Path a2 = Replicas.copy(a, dir.resolve("a2.git"));
        Path b2 = Replicas.copy(b, dir.resolve("b2.git"));
        List<PullResult.Merged> out = new ArrayList<>();
        for (Object[] pair : new Object[][] {{a2, b, onA}, {b2, a, onB}}) {
            try (Store s = rs.open((Path) pair[0])) {
                s.replication().addRemote(new Remote("peer", pair[1].toString()));
                out.add((PullResult.Merged) s.replication().pullAs("peer", (ActorName) pair[2], NONE));
            }
        }
        assertThat(treeOf(a2, out.get(0).head())).isEqualTo(treeOf(b2, out.get(1).head()));
        assertThat(out.get(0).settled()).isEqualTo(out.get(1).settled());
        assertThat(out.get(0).lost()).isEqualTo(out.get(1).lost());
        for (Object[] pair : new Object[][] {{a2, b2, onA}, {b2, a2, onB}}) {
            try (Store s = rs.open((Path) pair[0])) {
                s.replication().addRemote(new Remote("other", pair[1].toString()));
                assertThat(s.replication().pullAs("other", (ActorName) pair[2], NONE))
                        .isNotInstanceOf(PullResult.Refused.class);
            }
        }
        assertThat(Replicas.tree(a2)).isEqualTo(Replicas.tree(b2));
        assertThat(Replicas.audit(a2).violations()).isEmpty();
        assertThat(Replicas.audit(b2).violations()).isEmpty();
        return out;
    }

    private static ObjectId treeOf(Path gitDir, dev.palimpsest.model.CommitId commit) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.resolve(commit.hex() + "^{tree}");
        }
    }

    private static FactId hubFact(Replicas rs, String id, String body) throws Exception {
        try (Store s = rs.open(rs.hub)) {
            return ReplicationTest.assertFact(s, ALICE, id, body);
        }
    }

    private static FactSpec artifact(String id, String body, List<List<Pin>> bundles) {
        return FactSpec.of(Kind.MERGE, body).id(FactId.of(id))
                .grounding(new Grounding(null, null, null, new Receipt(bundles), List.of(), false));
    }

    /** Regrounds artifact {@code id} on replica {@code at} with one more bundle: {@code member} alone. */
    private static void addBundle(Replicas rs, Path at, ActorName who, String id, String member) throws Exception {
        try (Store s = rs.open(at)) {
            FactRead.Found f = (FactRead.Found) s.read(FactId.of(id), s.head());
            List<List<Pin>> bundles = new ArrayList<>(f.fact().grounding().receipt().bundles());
            bundles.add(List.of(Pin.of(FactId.of(member))));
            s.begin(who).reground(FactId.of(id), f.fact().grounding().withReceipts(new Receipt(bundles), List.of()))
                    .commit();
        }
    }
}
