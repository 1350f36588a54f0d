package dev.palimpsest.api;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.StoreOptions;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.Weight;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemporalOpsTest {
    @TempDir
    Path dir;

    private static final FactId S1 = FactId.of("s1");
    private static final FactId S2 = FactId.of("s2");

    private static CommitId add(Store s, FactId id, Kind kind, String body, Double conf, RefSpec... refs)
            throws PalimpsestException {
        Transaction tx = s.begin(ALICE);
        FactSpec spec = FactSpec.of(kind, body).id(id).refs(List.of(refs));
        tx.assertFact(conf == null ? spec : spec.confidence(conf));
        return tx.commit().id();
    }

    private static Fact fact(Store s, FactId id, CommitId at) throws PalimpsestException {
        return ((FactRead.Found) s.read(id, at)).fact();
    }

    @Test
    void supersessionAddsANewFactAndLeavesTheOldOneLive() throws Exception {
        try (Store s = TestStores.init(dir)) {
            add(s, S1, Kind.CLAIM, "The budget is 10 units as of May.", null);
            CommitId c0 = add(s, FactId.of("c"), Kind.CLAIM, "relies on the budget", null, RefSpec.cites(S1));
            Transaction tx = s.begin(ALICE);
            FactId newer = tx.supersede(S1, FactSpec.of(Kind.CLAIM, "The budget is 12 units as of June."));
            CommitId c1 = tx.commit().id();
            assertThat(s.factLiveAtCommit(S1, c1)).isTrue();
            assertThat(fact(s, newer, c1).refs()).extracting(r -> r.role()).containsExactly(RefRole.SUPERSEDES);
            List<RefStatus> st = s.stale(FactId.of("c"), c1);
            assertThat(st).singleElement().satisfies(r -> {
                assertThat(r.status()).isEqualTo(RefStatus.Status.SUPERSEDED);
                assertThat(r.by()).isEqualTo(newer);
            });
            assertThat(s.stale(FactId.of("c"), c0)).extracting(RefStatus::status).containsExactly(RefStatus.Status.CURRENT);
        }
    }

    @Test
    void staleReportsRevisedAndRetractedTargetsWithPinnedAndCurrentCommits() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId v1 = add(s, S1, Kind.SOURCE, "first source text, version one", null);
            add(s, S2, Kind.SOURCE, "second source text", null);
            add(s, FactId.of("c"), Kind.CLAIM, "claim", null, RefSpec.cites(S1), RefSpec.cites(S2));
            CommitId v2 = s.begin(ALICE).revise(S1, "first source text, version two", List.of()).commit().id();
            CommitId gone = s.begin(ALICE).retract(S2, "withdrawn").commit().id();
            List<RefStatus> st = s.stale(FactId.of("c"), gone);
            assertThat(st).extracting(RefStatus::status).containsExactly(RefStatus.Status.REVISED,
                    RefStatus.Status.RETRACTED);
            assertThat(st.get(0).pinned()).isEqualTo(v1);
            assertThat(st.get(0).current()).isEqualTo(v2);
            assertThat(st.get(1).current()).isEqualTo(gone);
        }
    }

    @Test
    void mergeWritesTheMergedFactWithPooledEvidenceAndRetractsTheInputsInOneCommit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            add(s, S1, Kind.SOURCE, "source one", null);
            add(s, S2, Kind.SOURCE, "source two", 0.5);
            add(s, FactId.of("a"), Kind.CLAIM, "duplicate a", null, RefSpec.cites(S1));
            CommitId before = add(s, FactId.of("b"), Kind.CLAIM, "duplicate b", null, RefSpec.cites(S1),
                    RefSpec.cites(S2));
            Weight wb = s.weight(FactId.of("b"), before);
            assertThat(wb.s()).isEqualTo(1.5);
            Transaction tx = s.begin(ALICE);
            FactId m = tx.merge(List.of(FactId.of("a"), FactId.of("b")), FactSpec.of(Kind.CLAIM, "merged")
                    .id(FactId.of("m")));
            CommitResult r = tx.commit();
            assertThat(r.retracted()).containsExactly(FactId.of("a"), FactId.of("b"));
            assertThat(s.log(1).get(0).parents()).containsExactly(before);
            Fact merged = fact(s, m, r.id());
            assertThat(merged.pooled()).containsEntry(S1, 1.0).containsEntry(S2, 0.5).hasSize(2);
            assertThat(merged.refs()).extracting(ref -> ref.role()).containsOnly(RefRole.MERGED_FROM);
            assertThat(s.weight(m, r.id()).s()).isEqualTo(1.5);
            assertThat(s.weight(m, r.id()).w()).isEqualTo(0.6);
            CommitId dropped = s.begin(ALICE).retract(S2, "withdrawn").commit().id();
            assertThat(s.weight(m, dropped).s()).as("a retracted pooled source stops counting").isEqualTo(1.0);
        }
    }

    @Test
    void weightSkipsHypothesesRetractedRefsAndCountsEachSourceOnce() throws Exception {
        try (Store s = TestStores.init(dir)) {
            add(s, S1, Kind.SOURCE, "source one", 0.8);
            add(s, FactId.of("h"), Kind.HYPOTHESIS, "a guess", null, RefSpec.cites(S1));
            add(s, FactId.of("x"), Kind.CLAIM, "x", null, RefSpec.cites(S1));
            CommitId c = add(s, FactId.of("y"), Kind.CLAIM, "y", null, RefSpec.cites(FactId.of("x")),
                    RefSpec.cites(S1), RefSpec.cites(FactId.of("h")));
            assertThat(s.weight(FactId.of("y"), c).s()).isEqualTo(0.8);
            CommitId r = s.begin(ALICE).retract(S1, "gone").commit().id();
            assertThat(s.weight(FactId.of("y"), r).s()).isZero();
            assertThat(s.weight(FactId.of("y"), c).s()).as("weight is evaluable at any past commit").isEqualTo(0.8);
        }
    }

    @Test
    void weightTerminatesOnCyclesThroughRevisedRefs() throws Exception {
        try (Store s = TestStores.init(dir)) {
            add(s, S1, Kind.SOURCE, "source", null);
            add(s, FactId.of("a"), Kind.CLAIM, "a", null, RefSpec.cites(S1));
            add(s, FactId.of("b"), Kind.CLAIM, "b", null, RefSpec.cites(FactId.of("a")));
            CommitId c = s.begin(ALICE).revise(FactId.of("a"), "a cites b now",
                    List.of(RefSpec.cites(FactId.of("b")))).commit().id();
            assertThat(s.weight(FactId.of("b"), c).s()).isEqualTo(1.0);
        }
    }

    @Test
    void subsumptionCitesTheHypothesisAndRetractsItInTheSameCommit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            add(s, FactId.of("h"), Kind.HYPOTHESIS, "the pump fails under load", null);
            Transaction tx = s.begin(ALICE);
            FactId obs = tx.subsume(FactId.of("h"), FactSpec.of(Kind.CLAIM, "observed: the pump failed at 80% load"));
            CommitResult r = tx.commit();
            assertThat(r.retracted()).containsExactly(FactId.of("h"));
            assertThat(s.factLiveAtCommit(FactId.of("h"), r.id())).isFalse();
            assertThat(fact(s, obs, r.id()).refs()).singleElement()
                    .satisfies(ref -> assertThat(ref.role()).isEqualTo(RefRole.SUBSUMES));
            add(s, S1, Kind.SOURCE, "not a hypothesis", null);
            Transaction bad = s.begin(ALICE);
            bad.subsume(S1, FactSpec.of(Kind.CLAIM, "x"));
            assertThatThrownBy(bad::commit).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("only a hypothesis can be subsumed");
        }
    }

    @Test
    void inboundListsLiveReferrersAndWithAllTheirEarlierVersions() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId t1 = add(s, S1, Kind.SOURCE, "target version one", null);
            CommitId a1 = add(s, FactId.of("a"), Kind.CLAIM, "a cites s1", null, RefSpec.cites(S1));
            CommitId t2 = s.begin(ALICE).revise(S1, "target version two", List.of()).commit().id();
            CommitId b1 = add(s, FactId.of("b"), Kind.CLAIM, "b cites s1 v2", null, RefSpec.cites(S1));
            CommitId a2 = s.begin(ALICE).revise(FactId.of("a"), "a revised", List.of()).commit().id();
            List<InboundRef> now = s.inbound(S1, a2, false);
            assertThat(now).extracting(InboundRef::referrer, InboundRef::referrerVersion, InboundRef::pinnedCommit)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(FactId.of("a"), a2, t1),
                            org.assertj.core.groups.Tuple.tuple(FactId.of("b"), b1, t2));
            assertThat(s.inbound(S1, a2, true)).filteredOn(i -> !i.live())
                    .extracting(InboundRef::referrerVersion).containsExactly(a1);
            assertThat(s.inbound(S1, a1, false)).extracting(InboundRef::referrer).containsExactly(FactId.of("a"));
            CommitId gone = s.begin(ALICE).retract(FactId.of("b"), "wrong").commit().id();
            assertThat(s.inbound(S1, gone, false)).extracting(InboundRef::referrer).containsExactly(FactId.of("a"));
        }
    }

    @Test
    void predicatesAnswerFromAPersistedIndexThatSurvivesReopenAndCorruption() throws Exception {
        Path gitDir;
        CommitId added;
        CommitId gone;
        try (Store s = TestStores.init(dir)) {
            added = add(s, S1, Kind.SOURCE, "text", null);
            gone = s.begin(ALICE).retract(S1, "wrong").commit().id();
            gitDir = s.gitDir();
        }
        Path log = gitDir.resolve("palimpsest-index/index-v1.log");
        assertThat(log).exists();
        java.nio.file.Files.write(log, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults())) {
            assertThat(s.factLiveAtCommit(S1, added)).isTrue();
            assertThat(s.factLiveAtCommit(S1, gone)).isFalse();
            assertThat(s.factExistsAt(S1, gone).version().commit()).isEqualTo(added);
        }
        assertThat(java.nio.file.Files.size(log)).as("the rebuilt index was written back").isGreaterThan(9);
    }
}
