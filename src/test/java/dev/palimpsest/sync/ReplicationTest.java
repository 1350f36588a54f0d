package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.PushResult;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.ReviewItem;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.testing.Forgery;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clone, remotes, push and audited pull between replicas of one store over file remotes. */
class ReplicationTest {
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    private Replicas rs;

    @BeforeEach
    void hub() throws Exception {
        rs = Replicas.create(dir);
    }

    @Test
    void aCloneHasTheHubsMainAndOriginAndAuditsClean() throws Exception {
        Path a = rs.cloneHub("a");
        assertThat(Replicas.head(a)).isEqualTo(Replicas.head(rs.hub));
        try (Store s = rs.open(a)) {
            assertThat(s.replication().remotes()).containsExactly(new Remote("origin", rs.hub.toString()));
        }
        assertThat(Replicas.audit(a).clean()).isTrue();
    }

    @Test
    void aCloneIntoAFolderThatIsNotEmptyIsRefusedAndLeavesItAlone() throws Exception {
        Path a = rs.cloneHub("a");
        assertThatThrownBy(() -> rs.cloneHub("a")).isInstanceOf(dev.palimpsest.model.RejectedException.class)
                .hasMessageContaining("store-exists");
        assertThat(Replicas.head(a)).isEqualTo(Replicas.head(rs.hub));
    }

    @Test
    void remotesAreAddedListedSortedAndRemoved() throws Exception {
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(a)) {
            s.replication().addRemote(new Remote("zeta", "/tmp/z.git"));
            s.replication().addRemote(new Remote("beta", "git://127.0.0.1:9/b.git"));
            assertThat(s.replication().remotes()).extracting(Remote::name).containsExactly("beta", "origin", "zeta");
            assertThatThrownBy(() -> s.replication().addRemote(new Remote("beta", "/x.git")))
                    .isInstanceOf(ConflictException.class);
            s.replication().removeRemote("zeta");
            assertThat(s.replication().remotes()).extracting(Remote::url)
                    .containsExactly("git://127.0.0.1:9/b.git", rs.hub.toString());
            assertThatThrownBy(() -> s.replication().removeRemote("zeta")).isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> s.replication().pullAs("nope", BOB, NONE)).isInstanceOf(NotFoundException.class);
        }
        assertThatThrownBy(() -> new Remote("../x", "/x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPushThenAPullFastForwardsAndTheFactIsReadable() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        FactId x;
        try (Store s = rs.open(a)) {
            x = assertFact(s, BOB, "x", "Written on replica a.");
            var hubBefore = Replicas.headId(rs.hub);
            PushResult p = s.replication().push("origin", NONE);
            assertThat(p).isEqualTo(new PushResult.Pushed(hubBefore, s.head()));
            assertThat(s.replication().push("origin", NONE)).isInstanceOf(PushResult.UpToDate.class);
        }
        try (Store s = rs.open(b)) {
            var before = s.head();
            PullResult r = s.replication().pullAs("origin", CAROL, NONE);
            assertThat(r).isEqualTo(new PullResult.FastForward(before, s.head(), 1));
            assertThat(s.read(x, s.head())).isInstanceOf(FactRead.Found.class);
            assertThat(s.replication().pullAs("origin", CAROL, NONE)).isEqualTo(new PullResult.UpToDate(s.head()));
        }
        assertThat(Replicas.head(b)).isEqualTo(Replicas.head(rs.hub));
        assertThat(refExists(b, "refs/palimpsest/quarantine/origin")).isFalse();
    }

    @Test
    void aPushBehindTheHubIsAConflictUntilPulled() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            assertFact(s, BOB, "x", "Written on replica a.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            assertFact(s, CAROL, "y", "Written on replica b.");
            assertThatThrownBy(() -> s.replication().push("origin", NONE)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("pull first");
            PullResult r = s.replication().pullAs("origin", CAROL, NONE);
            assertThat(r).isInstanceOf(PullResult.Merged.class);
            assertThat(s.replication().push("origin", NONE)).isInstanceOf(PushResult.Pushed.class);
        }
        assertThat(Replicas.head(b)).isEqualTo(Replicas.head(rs.hub));
    }

    @Test
    void divergentWritesMergeIntoOneSignedCommitHoldingBothAndAuditClean() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        FactId x;
        FactId y;
        try (Store s = rs.open(a)) {
            x = assertFact(s, BOB, "x", "Written on replica a.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            y = assertFact(s, CAROL, "y", "Written on replica b.");
            var ours = s.head();
            PullResult.Merged m = (PullResult.Merged) s.replication().pullAs("origin", CAROL, NONE);
            assertThat(m.ours()).isEqualTo(ours);
            assertThat(m.theirs().hex()).isEqualTo(Replicas.head(rs.hub).name());
            assertThat(m.lost()).isEmpty();
            assertThat(m.head()).isEqualTo(s.head());
            assertThat(s.read(x, s.head())).isInstanceOf(FactRead.Found.class);
            assertThat(s.read(y, s.head())).isInstanceOf(FactRead.Found.class);
            assertThat(s.log(1).get(0).actor()).isEqualTo("carol");
            assertThat(s.log(1).get(0).trailers()).extracting(t -> t.key() + ": " + t.value())
                    .containsExactly("Palimpsest-Actor: carol", "Palimpsest-Op: merge",
                            "Palimpsest-Merge: " + m.theirs().hex());
        }
        assertThat(Replicas.audit(b).violations()).isEmpty();
        assertThat(Replicas.git(b, "fsck", "--strict").code()).isZero();
    }

    @Test
    void mergesInOppositeOrdersGiveEqualTrees() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            assertFact(s, BOB, "x", "Written on replica a.");
        }
        try (Store s = rs.open(b)) {
            assertFact(s, CAROL, "y", "Written on replica b.");
        }
        Path a2 = Replicas.copy(a, dir.resolve("a2.git"));
        Path b2 = Replicas.copy(b, dir.resolve("b2.git"));
        try (Store s = rs.open(a2)) {
            s.replication().addRemote(new Remote("peer", b.toString()));
            assertThat(s.replication().pullAs("peer", BOB, NONE)).isInstanceOf(PullResult.Merged.class);
        }
        try (Store s = rs.open(b2)) {
            s.replication().addRemote(new Remote("peer", a.toString()));
            assertThat(s.replication().pullAs("peer", CAROL, NONE)).isInstanceOf(PullResult.Merged.class);
        }
        assertThat(Replicas.head(a2)).isNotEqualTo(Replicas.head(b2));
        assertThat(Replicas.tree(a2)).isEqualTo(Replicas.tree(b2));
        assertThat(Replicas.audit(a2).violations()).isEmpty();
        assertThat(Replicas.audit(b2).violations()).isEmpty();
    }

    @Test
    void twoConcurrentRevisionsResolveToTheLaterOnBothSidesAndTheLoserStaysInHistory() throws Exception {
        Path a = rs.cloneHub("a");
        FactId f;
        try (Store s = rs.open(a)) {
            f = assertFact(s, BOB, "f", "The first version.");
            s.replication().push("origin", NONE);
        }
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            s.begin(BOB).revise(f, "Revised on a.", List.of()).commit();
        }
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            s.begin(CAROL).revise(f, "Revised on b, later.", List.of()).commit();
        }
        Path a2 = Replicas.copy(a, dir.resolve("a2.git"));
        Path b2 = Replicas.copy(b, dir.resolve("b2.git"));
        for (Path[] pair : new Path[][] {{a2, b}, {b2, a}}) {
            try (Store s = rs.open(pair[0])) {
                s.replication().addRemote(new Remote("peer", pair[1].toString()));
                PullResult.Merged m = (PullResult.Merged) s.replication().pullAs("peer", ALICE, NONE);
                assertThat(m.lost()).containsExactly(f);
                FactRead.Found now = (FactRead.Found) s.read(f, s.head());
                assertThat(now.fact().body()).isEqualTo("Revised on b, later.");
                assertThat(s.history(f)).extracting(HistoryEntry::change).filteredOn(c -> c == HistoryEntry.Change.REVISED)
                        .hasSize(2);
                assertThat(s.receipts().review(s.head())).singleElement().satisfies(i -> {
                    assertThat(i.id()).isEqualTo(f);
                    assertThat(i.reason()).isEqualTo(ReviewItem.Reason.CONCURRENT_REVISION);
                    assertThat(i.version()).isEqualTo(now.version().commit());
                });
            }
        }
        assertThat(Replicas.tree(a2)).isEqualTo(Replicas.tree(b2));
        assertThat(Replicas.audit(a2).violations()).isEmpty();
        try (Store s = rs.open(a2)) {
            s.receipts().acknowledge(ALICE, f);
            assertThat(s.receipts().review(s.head())).isEmpty();
        }
    }

    @Test
    void aRetractionBeatsAConcurrentRevisionInEitherOrder() throws Exception {
        Path a = rs.cloneHub("a");
        FactId f;
        try (Store s = rs.open(a)) {
            f = assertFact(s, BOB, "f", "The first version.");
            s.replication().push("origin", NONE);
        }
        Path b = rs.cloneHub("b");
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            s.begin(CAROL).revise(f, "Revised on b, after the retraction.", List.of()).commit();
        }
        try (Store s = rs.open(a)) {
            s.begin(BOB).retract(f, "wrong").commit();
        }
        Path a2 = Replicas.copy(a, dir.resolve("a2.git"));
        Path b2 = Replicas.copy(b, dir.resolve("b2.git"));
        for (Path[] pair : new Path[][] {{a2, b}, {b2, a}}) {
            try (Store s = rs.open(pair[0])) {
                s.replication().addRemote(new Remote("peer", pair[1].toString()));
                PullResult.Merged m = (PullResult.Merged) s.replication().pullAs("peer", ALICE, NONE);
                assertThat(m.lost()).isEmpty();
                assertThat(s.read(f, s.head())).isInstanceOf(FactRead.Retracted.class);
                assertThat(s.factLiveAtCommit(f, s.head())).isFalse();
            }
        }
        assertThat(Replicas.tree(a2)).isEqualTo(Replicas.tree(b2));
        assertThat(Replicas.audit(b2).violations()).isEmpty();
    }

    @Test
    void aPullFromARemoteHoldingAForgedCommitAdoptsNothingAndListsEveryViolation() throws Exception {
        Path a = rs.cloneHub("a");
        ObjectId forged = Forgery.unsignedCommitOnMain(rs.hub, "bob");
        try (Store s = rs.open(a)) {
            var before = s.head();
            PullResult r = s.replication().pullAs("origin", BOB, NONE);
            PullResult.Refused refused = (PullResult.Refused) r;
            assertThat(refused.head()).isEqualTo(before);
            assertThat(refused.report().violations()).extracting(v -> v.rule())
                    .contains(Rule.UNSIGNED, Rule.BAD_TRAILERS);
            assertThat(refused.report().violations()).allMatch(v -> v.commit().hex().equals(forged.name()));
            assertThat(s.head()).isEqualTo(before);
        }
        assertThat(refExists(a, "refs/palimpsest/quarantine/origin")).isTrue();
        assertThat(Replicas.head(a)).isNotEqualTo(forged);
    }

    @Test
    void aCloneOfAForgedHistoryIsRefusedAndLeavesNoStore() throws Exception {
        Forgery.unsignedCommitOnMain(rs.hub, "bob");
        Path to = dir.resolve("c.git");
        PullResult r = dev.palimpsest.api.Replication.cloneStore(rs.hub.toString(), to, Replicas.OPTIONS, NONE);
        assertThat(r).isInstanceOf(PullResult.Refused.class);
        assertThat(to).doesNotExist();
    }

    @Test
    void aPullFromAnotherStoreIsAConflictAndAdoptsNothing() throws Exception {
        Path a = rs.cloneHub("a");
        Path other = dir.resolve("other.git");
        try (Store s = Store.initializer(other).home(rs.home).actor(BOB).options(Replicas.OPTIONS).create()) {
            assertFact(s, BOB, "elsewhere", "A fact of another store.");
        }
        try (Store s = rs.open(a)) {
            var before = s.head();
            s.replication().addRemote(new Remote("other", other.toString()));
            assertThatThrownBy(() -> s.replication().pullAs("other", BOB, NONE)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("holds another store");
            assertThat(s.head()).isEqualTo(before);
        }
    }

    @Test
    void aMergeNeedsAnActorWhoseKeyIsTrustedAndTheHomeHolds() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            assertFact(s, BOB, "x", "Written on replica a.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            assertFact(s, CAROL, "y", "Written on replica b.");
            var before = s.head();
            assertThatThrownBy(() -> s.replication().pullAs("origin", dev.palimpsest.model.ActorName.of("mallory"), NONE))
                    .isInstanceOf(dev.palimpsest.model.RejectedException.class);
            assertThatThrownBy(() -> s.replication().pull("origin", NONE))
                    .isInstanceOf(dev.palimpsest.model.RejectedException.class).hasMessageContaining("unknown-actor");
            assertThat(s.head()).isEqualTo(before);
        }
    }

    private static boolean refExists(Path gitDir, String ref) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.exactRef(ref) != null;
        }
    }

    static FactId assertFact(Store s, dev.palimpsest.model.ActorName who, String id, String body) throws Exception {
        var tx = s.begin(who);
        FactId f = tx.assertFact(FactSpec.of(Kind.CLAIM, body).id(FactId.of(id)));
        tx.commit();
        return f;
    }
}
