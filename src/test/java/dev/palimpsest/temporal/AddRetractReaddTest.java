package dev.palimpsest.temporal;

import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactSpec;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.RefStatus.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fact's life through add, revise, retract and re-add on a linear timeline: both predicates at
 * every commit, refs written after their target was retracted, and inbound refs pinned at
 * different versions of one target.
 */
class AddRetractReaddTest {
    private static final FactId F = FactId.of("f");
    private static final FactId NOISE = FactId.of("noise");
    private static final FactId T = FactId.of("t");

    @TempDir
    Path dir;

    /** What the predicates must answer for F at one commit; version null means never written. */
    private record Expected(CommitId at, boolean live, FactVersion version) {}

    @Test
    void bothPredicatesFollowAddRetractReaddAtEveryCommit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            List<Expected> table = new ArrayList<>();
            table.add(new Expected(s.head(), false, null));
            table.add(new Expected(assertFact(s, NOISE, Kind.CLAIM, "noise v1"), false, null));
            CommitId add = assertFact(s, F, Kind.CLAIM, "f v1");
            FactVersion v1 = version(s, F, add);
            table.add(new Expected(add, true, v1));
            CommitId rev = s.begin(ALICE).revise(F, "f v2", List.of()).commit().id();
            FactVersion v2 = version(s, F, rev);
            table.add(new Expected(rev, true, v2));
            table.add(new Expected(s.begin(ALICE).revise(NOISE, "noise v2", List.of()).commit().id(), true, v2));
            CommitId gone = s.begin(ALICE).retract(F, "wrong").commit().id();
            table.add(new Expected(gone, false, v2));
            table.add(new Expected(s.begin(ALICE).revise(NOISE, "noise v3", List.of()).commit().id(), false, v2));
            CommitId back = assertFact(s, F, Kind.SOURCE, "f v3, re-added as a source");
            FactVersion v3 = version(s, F, back);
            table.add(new Expected(back, true, v3));
            CommitId goneAgain = s.begin(ALICE).retract(F, "wrong again").commit().id();
            table.add(new Expected(goneAgain, false, v3));
            CommitId sameAsFirst = assertFact(s, F, Kind.CLAIM, "f v1");
            FactVersion v4 = version(s, F, sameAsFirst);
            table.add(new Expected(sameAsFirst, true, v4));
            table.add(new Expected(s.begin(ALICE).revise(NOISE, "noise v4", List.of()).commit().id(), true, v4));

            assertThat(v4.blob()).as("equal content, equal blob").isEqualTo(v1.blob());
            assertThat(v4.commit()).as("but a new version").isEqualTo(sameAsFirst);
            List<CommitId> newestFirst = new ArrayList<>(table.stream().map(Expected::at).toList());
            java.util.Collections.reverse(newestFirst);
            assertThat(s.log(0)).as("the table covers every commit").extracting(LogEntry::commit)
                    .containsExactlyElementsOf(newestFirst);
            for (Expected e : table) {
                if (e.version() == null) {
                    assertThatThrownBy(() -> s.factLiveAtCommit(F, e.at())).as("live at %s", e.at())
                            .isInstanceOf(NotFoundException.class);
                    assertThatThrownBy(() -> s.factExistsAt(F, e.at())).as("exists at %s", e.at())
                            .isInstanceOf(NotFoundException.class);
                } else {
                    assertThat(s.factLiveAtCommit(F, e.at())).as("live at %s", e.at()).isEqualTo(e.live());
                    assertThat(s.factExistsAt(F, e.at())).as("exists at %s", e.at())
                            .isEqualTo(new ExistsAt(e.version(), e.live()));
                }
            }
        }
    }

    @Test
    void onlyALiveFactCanBeRetractedOrRevisedAndNothingIsWrittenOtherwise() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertFact(s, F, Kind.CLAIM, "f v1");
            CommitId gone = s.begin(ALICE).retract(F, "wrong").commit().id();
            var before = TestStores.durableState(s.gitDir());
            assertThatThrownBy(() -> s.begin(ALICE).retract(F, "again").commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("already retracted at " + gone.hex());
            assertThatThrownBy(() -> s.begin(ALICE).revise(F, "f v2", List.of()).commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("already retracted at " + gone.hex());
            assertThatThrownBy(() -> s.begin(ALICE).retract(FactId.of("never"), "no").commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("does not exist at " + gone.hex());
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
            assertThat(s.head()).isEqualTo(gone);
        }
    }

    @Test
    void aRefWrittenAfterItsTargetWasRetractedPinsTheRetractedVersion() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId t1 = assertFact(s, T, Kind.SOURCE, "target v1");
            CommitId t2 = s.begin(ALICE).revise(T, "target v2", List.of()).commit().id();
            BlobId b1 = version(s, T, t1).blob();
            BlobId b2 = version(s, T, t2).blob();
            CommitId gone = s.begin(ALICE).retract(T, "retracted by the journal").commit().id();
            FactId late = FactId.of("late");
            FactId early = FactId.of("early");
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "cites the retracted target").id(late)
                    .refs(List.of(RefSpec.cites(T))));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "cites it as read at t1").id(early)
                    .refs(List.of(RefSpec.cites(T).at(t1))));
            CommitId r = tx.commit().id();

            assertThat(refs(s, late, r)).containsExactly(new Ref(T, RefRole.CITES, t2, b2, null));
            assertThat(refs(s, early, r)).containsExactly(new Ref(T, RefRole.CITES, t1, b1, null));
            assertThat(s.stale(late, r)).containsExactly(new RefStatus(T, RefRole.CITES, Status.RETRACTED, t2, gone, null));
            assertThat(s.stale(early, r)).containsExactly(new RefStatus(T, RefRole.CITES, Status.RETRACTED, t1, gone, null));
            assertThat(s.inbound(T, r, false)).containsExactly(
                    new InboundRef(early, r, RefRole.CITES, t1, b1, true), new InboundRef(late, r, RefRole.CITES, t2, b2, true));

            Transaction readd = s.begin(ALICE);
            readd.assertFact(FactSpec.of(Kind.SOURCE, "target v1").id(T));
            CommitId back = readd.commit().id();
            assertThat(s.stale(early, back)).as("re-added with v1's content: the pinned blob is current again")
                    .containsExactly(new RefStatus(T, RefRole.CITES, Status.CURRENT, t1, back, null));
            assertThat(s.stale(late, back))
                    .containsExactly(new RefStatus(T, RefRole.CITES, Status.REVISED, t2, back, null));
        }
    }

    @Test
    void inboundListsReferrersPinnedAtDifferentVersionsOfOneTarget() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId t1 = assertFact(s, T, Kind.SOURCE, "target v1");
            BlobId b1 = version(s, T, t1).blob();
            FactId a = FactId.of("a");
            FactId b = FactId.of("b");
            CommitId a1 = assertFact(s, a, Kind.CLAIM, "a cites v1", RefSpec.cites(T));
            CommitId t2 = s.begin(ALICE).revise(T, "target v2", List.of()).commit().id();
            BlobId b2 = version(s, T, t2).blob();
            CommitId bAt = assertFact(s, b, Kind.CLAIM, "b cites v2", RefSpec.cites(T));

            assertThat(s.inbound(T, bAt, false)).containsExactly(
                    new InboundRef(a, a1, RefRole.CITES, t1, b1, true), new InboundRef(b, bAt, RefRole.CITES, t2, b2, true));
            assertThat(s.inbound(T, t2, false)).containsExactly(new InboundRef(a, a1, RefRole.CITES, t1, b1, true));
            assertThat(s.inbound(T, t1, true)).isEmpty();
            assertThat(s.stale(a, bAt)).containsExactly(new RefStatus(T, RefRole.CITES, Status.REVISED, t1, t2, null));
            assertThat(s.stale(b, bAt)).containsExactly(new RefStatus(T, RefRole.CITES, Status.CURRENT, t2, t2, null));

            // a revised keeps its ref: the new version is live, the old one is listed only with all
            CommitId a2 = s.begin(ALICE).revise(a, "a v2 still cites v1", List.of()).commit().id();
            assertThat(s.inbound(T, a2, false)).containsExactly(
                    new InboundRef(a, a2, RefRole.CITES, t1, b1, true), new InboundRef(b, bAt, RefRole.CITES, t2, b2, true));
            assertThat(s.inbound(T, a2, true)).containsExactly(
                    new InboundRef(a, a2, RefRole.CITES, t1, b1, true), new InboundRef(b, bAt, RefRole.CITES, t2, b2, true),
                    new InboundRef(a, a1, RefRole.CITES, t1, b1, false));

            // superseded outranks revised; retracted outranks superseded
            Transaction tx = s.begin(ALICE);
            FactId c = tx.supersede(T, FactSpec.of(Kind.SOURCE, "target, corrected").id(FactId.of("c")));
            CommitId sup = tx.commit().id();
            assertThat(s.stale(a, sup)).containsExactly(new RefStatus(T, RefRole.CITES, Status.SUPERSEDED, t1, t2, c));
            assertThat(s.stale(b, sup)).containsExactly(new RefStatus(T, RefRole.CITES, Status.SUPERSEDED, t2, t2, c));
            assertThat(s.factLiveAtCommit(T, sup)).as("superseding is by addition").isTrue();
            assertThat(s.inbound(T, sup, false)).contains(new InboundRef(c, sup, RefRole.SUPERSEDES, t2, b2, true));
            CommitId gone = s.begin(ALICE).retract(T, "wrong").commit().id();
            assertThat(s.stale(a, gone)).containsExactly(new RefStatus(T, RefRole.CITES, Status.RETRACTED, t1, gone, null));

            // a re-added referrer without the ref drops out of the live listing but stays in all
            s.begin(ALICE).retract(a, "a was wrong").commit();
            CommitId aBack = assertFact(s, a, Kind.CLAIM, "a again, citing nothing");
            assertThat(s.inbound(T, aBack, false)).extracting(InboundRef::referrer).containsExactly(b, c);
            assertThat(s.inbound(T, aBack, true)).filteredOn(i -> i.referrer().equals(a))
                    .containsExactlyInAnyOrder(new InboundRef(a, a1, RefRole.CITES, t1, b1, false),
                            new InboundRef(a, a2, RefRole.CITES, t1, b1, false));
        }
    }

    @Test
    void aSameTransactionRefKeepsItsPinWhenTheReferrerIsRevised() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId r = FactId.of("r");
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "target v1").id(T));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "cites the target written with it").id(r)
                    .refs(List.of(RefSpec.cites(T))));
            CommitId c1 = tx.commit().id();
            CommitId c2 = s.begin(ALICE).revise(T, "target v2", List.of()).commit().id();
            assertThat(s.stale(r, c2)).containsExactly(new RefStatus(T, RefRole.CITES, Status.REVISED, c1, c2, null));
            CommitId c3 = s.begin(ALICE).revise(r, "referrer v2", List.of()).commit().id();
            assertThat(s.inbound(T, c3, false)).extracting(InboundRef::pinnedCommit).containsExactly(c1);
            assertThat(s.stale(r, c3)).containsExactly(new RefStatus(T, RefRole.CITES, Status.REVISED, c1, c2, null));
        }
    }

    @Test
    void staleOfARetractedFactReportsTheRefsOfItsLastVersion() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId t1 = assertFact(s, T, Kind.SOURCE, "target v1");
            FactId r = FactId.of("r");
            assertFact(s, r, Kind.CLAIM, "cites the target", RefSpec.cites(T));
            CommitId gone = s.begin(ALICE).retract(r, "wrong").commit().id();
            assertThat(s.factExistsAt(r, gone).live()).isFalse();
            assertThat(s.stale(r, gone)).containsExactly(new RefStatus(T, RefRole.CITES, Status.CURRENT, t1, t1, null));
        }
    }

    private static CommitId assertFact(Store s, FactId id, Kind kind, String body, RefSpec... refs)
            throws PalimpsestException {
        Transaction tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(kind, body).id(id).refs(List.of(refs)));
        return tx.commit().id();
    }

    private static FactVersion version(Store s, FactId id, CommitId at) throws PalimpsestException {
        FactVersion v = s.factExistsAt(id, at).version();
        assertThat(v.commit()).as("%s written at %s", id, at).isEqualTo(at);
        return v;
    }

    private static List<Ref> refs(Store s, FactId id, CommitId at) throws PalimpsestException {
        return ((FactRead.Found) s.read(id, at)).fact().refs();
    }
}
