package dev.palimpsest.receipts;

import dev.palimpsest.model.Layer;
import dev.palimpsest.model.Policy;
import dev.palimpsest.model.Withdrawal;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.ReceiptReport;
import dev.palimpsest.model.ReviewItem;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceiptsTest {
    static final Path CORPUS = Path.of("examples/receipts-corpus.yaml");

    @TempDir
    Path dir;

    static byte[] yaml(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ingestLandsTheWholeBatchAsOneCommitWithPinnedReceipts() throws Exception {
        try (Store store = TestStores.init(dir)) {
            IngestResult r = store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            assertThat(r.kinds()).containsEntry("source", 3).containsEntry("assertion", 4).containsEntry("merge", 1)
                    .containsEntry("summary", 2);
            assertThat(r.configured()).isTrue();
            assertThat(store.log(0)).hasSize(2);
            FactRead m1 = store.read(FactId.of("m1"), r.commit().id());
            assertThat(m1).isInstanceOf(FactRead.Found.class);
            List<List<Pin>> bundles = ((FactRead.Found) m1).fact().grounding().receipt().bundles();
            assertThat(bundles).hasSize(2);
            assertThat(bundles.get(0).get(0).commit()).as("same-batch members carry no pin").isNull();
        }
    }

    @Test
    void aPlainRevisionOfAnArtifactKeepsItsReceiptAndTheAuditStaysClean() throws Exception {
        try (Store store = TestStores.init(dir)) {
            IngestResult r = store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            FactRead.Found before = (FactRead.Found) store.read(FactId.of("m1"), r.commit().id());
            dev.palimpsest.model.CommitResult revised = store.begin(TestStores.ALICE)
                    .revise(FactId.of("m1"), "MAPK/ERK pathway == ERK1/2 signalling (reworded)", List.of()).commit();
            FactRead.Found after = (FactRead.Found) store.read(FactId.of("m1"), revised.id());
            assertThat(after.fact().body()).endsWith("(reworded)");
            assertThat(after.fact().grounding()).isEqualTo(before.fact().grounding());
            try (dev.palimpsest.api.Auditor a = dev.palimpsest.api.Auditor.open(store.gitDir())) {
                assertThat(a.audit(dev.palimpsest.model.AuditProgress.none()).violations()).isEmpty();
            }
        }
    }

    @Test
    void retractSourceCascadesLayerByLayerInOneCommitAndKeepsWhatAStandingPaperSupports() throws Exception {
        try (Store store = TestStores.init(dir)) {
            CommitId ingested = store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false).commit().id();
            CleanupPlan plan = store.receipts().planRetractSource(
                    List.of(FactId.of("pmid-39973430"), FactId.of("pmid-40057077")), "journal retraction");
            assertThat(plan.roots()).extracting(FactId::value)
                    .containsExactlyInAnyOrder("pmid-39973430", "pmid-40057077", "a1", "a2");
            assertThat(plan.removals()).extracting(rm -> rm.id().value()).containsExactly("s-aim2-flat");
            assertThat(plan.revisions()).singleElement().satisfies(rv -> {
                assertThat(rv.id().value()).isEqualTo("s-aim2");
                assertThat(rv.dropped()).containsExactly(0);
                assertThat(rv.kept()).isEqualTo(1);
            });
            assertThat(plan.touched()).extracting(FactId::value).contains("m1");

            CommitResult landed = store.receipts().apply(TestStores.ALICE, plan);
            assertThat(store.log(0)).hasSize(3);
            assertThat(store.log(1).get(0).trailers()).extracting(t -> t.key() + ": " + t.value()).containsExactly(
                    "Palimpsest-Actor: alice",
                    "Palimpsest-Op: retract", "Palimpsest-Fact: pmid-39973430",
                    "Palimpsest-Op: retract", "Palimpsest-Fact: pmid-40057077",
                    "Palimpsest-Op: retract", "Palimpsest-Fact: a1",
                    "Palimpsest-Op: retract", "Palimpsest-Fact: a2",
                    "Palimpsest-Op: retract", "Palimpsest-Fact: s-aim2-flat",
                    "Palimpsest-Op: revise", "Palimpsest-Fact: s-aim2");
            assertThat(landed.retracted()).extracting(FactId::value)
                    .containsExactly("pmid-39973430", "pmid-40057077", "a1", "a2", "s-aim2-flat");
            FactRead s = store.read(FactId.of("s-aim2"), landed.id());
            assertThat(((FactRead.Found) s).fact().body()).isEqualTo("ERK1/2 signalling regulates apoptosis.");
            assertThat(store.factLiveAtCommit(FactId.of("m1"), landed.id())).isTrue();

            ReceiptReport now = store.receipts().report(landed.id());
            assertThat(now.layers().get(Layer.MERGE).alive()).isEqualTo(1);
            assertThat(now.layers().get(Layer.MERGE).touched()).isEqualTo(1);
            assertThat(now.layers().get(Layer.SUMMARY).alive()).isEqualTo(1);
            assertThat(now.layers().get(Layer.SUMMARY).dead()).isEqualTo(1);
            assertThat(now.layers().get(Layer.SUMMARY).pending()).isZero();
            ReceiptReport before = store.receipts().report(ingested);
            assertThat(before.layers().get(Layer.SUMMARY).alive()).isEqualTo(2);
            assertThat(before.layers().get(Layer.MERGE).touched()).isZero();
        }
    }

    @Test
    void planRetractCascadesFromAnyFactAndRetractsAnArtifactRootOnlyOnce() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            CleanupPlan plan = store.receipts().planRetract(List.of(FactId.of("a2")), "misread");
            assertThat(plan.operation()).isEqualTo(Withdrawal.RETRACT);
            assertThat(plan.roots()).extracting(FactId::value).containsExactly("a2");
            assertThat(plan.removals()).extracting(rm -> rm.id().value()).containsExactly("s-aim2-flat");
            assertThat(plan.revisions()).extracting(rv -> rv.id().value()).containsExactly("s-aim2");
            CommitResult landed = store.receipts().apply(TestStores.ALICE, plan);
            assertThat(landed.retracted()).extracting(FactId::value).containsExactly("a2", "s-aim2-flat");
            FactRead s = store.read(FactId.of("s-aim2"), landed.id());
            assertThat(((FactRead.Found) s).fact().body()).isEqualTo("ERK1/2 signalling regulates apoptosis.");

            CleanupPlan merge = store.receipts().planRetract(List.of(FactId.of("m1")), "not the same pathway");
            assertThat(merge.roots()).extracting(FactId::value).containsExactly("m1");
            assertThat(merge.removals()).isEmpty();
            assertThat(store.receipts().apply(TestStores.ALICE, merge).retracted()).extracting(FactId::value)
                    .containsExactly("m1");
        }
    }

    @Test
    void planRetractInAStoreWithoutArtifactsIsTheRetractionAlone() throws Exception {
        try (Store store = TestStores.init(dir)) {
            var tx = store.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(dev.palimpsest.model.Kind.SOURCE, "text").id(FactId.of("src")));
            tx.commit();
            CleanupPlan plan = store.receipts().planRetract(List.of(FactId.of("src")), "withdrawn");
            assertThat(plan.roots()).extracting(FactId::value).containsExactly("src");
            assertThat(plan.removals()).isEmpty();
            assertThat(plan.policy()).isEqualTo(Policy.DISTRUST);
            assertThat(plan.at()).isEqualTo(store.head());
            assertThatThrownBy(() -> store.receipts().planRetract(List.of(FactId.of("src"), FactId.of("src")), "twice"))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("duplicate-operation");
            assertThatThrownBy(() -> store.receipts().planRetract(List.of(), "nothing"))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("no ids given");
        }
    }

    @Test
    void theTrustPolicyKeepsAFlatSummaryThatStillHasALiveBundle() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            store.receipts().ingest(TestStores.ALICE, yaml("policy: trust\n"), false);
            CleanupPlan plan = store.receipts().planRetractSource(List.of(FactId.of("pmid-40057077")), "retracted");
            assertThat(plan.removals()).isEmpty();
            assertThat(plan.touched()).extracting(FactId::value).containsExactly("s-aim2-flat");
        }
    }

    @Test
    void revokeRelationRetractsEveryAssertionUsingThePredicate() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            CleanupPlan plan = store.receipts().planRevokeRelation("regulates", "unsound predicate");
            assertThat(plan.roots()).extracting(FactId::value).containsExactly("a1", "a5");
            assertThat(plan.removals()).extracting(rm -> rm.id().value()).containsExactly("m1", "s-aim2-flat");
            assertThat(plan.revisions()).extracting(rv -> rv.id().value()).containsExactly("s-aim2");
        }
    }

    @Test
    void theGateRejectsMissingReceiptsMissingMembersSelfMembersCyclesAndSourcelessAssertions() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            String bad = """
                    sources: [{id: doc9, body: "some text"}]
                    assertions:
                      - {id: a9, source: m1, subject: x, predicate: p, object: y}
                    artifacts:
                      - {id: e9, kind: edge, subject: x, predicate: p, object: y, receipt: [[nope]]}
                      - {id: m9, kind: merge, body: "x == y", receipt: [[m9], [a5]]}
                      - {id: c1, kind: merge, body: "c1", receipt: [[c2]]}
                      - {id: c2, kind: merge, body: "c2", receipt: [[c1]]}
                      - {id: s9, kind: summary, body: "flat", receipt: [[a5]]}
                    """;
            assertThatThrownBy(() -> store.receipts().ingest(TestStores.ALICE, yaml(bad), false))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule().id())
                            .contains("assertion-source", "receipt-member-missing", "self-receipt", "receipt-cycle",
                                    "flat-unflagged"));
            assertThatThrownBy(() -> store.receipts().ingest(TestStores.ALICE,
                    yaml("artifacts: [{id: e8, kind: edge, subject: x, predicate: p, object: y}]"), false))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("receipt");
            assertThat(store.log(0)).hasSize(2);
        }
    }

    @Test
    void receiptsOverEightBundlesKeepTheSmallestUnlessStrict() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            String many = "artifacts: [{id: big, kind: merge, body: big, receipt: [[a1, a2, a5], [a6], [a5], [a2], [a1],"
                    + " [a1, a2], [a1, a5], [a2, a5], [a2, a6], [a5, a6]]}]";
            assertThatThrownBy(() -> store.receipts().ingest(TestStores.ALICE, yaml(many), true))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("at most 8");
            IngestResult r = store.receipts().ingest(TestStores.ALICE, yaml(many), false);
            assertThat(r.truncated()).extracting(FactId::value).containsExactly("big");
            FactRead big = store.read(FactId.of("big"), r.commit().id());
            List<List<Pin>> bundles = ((FactRead.Found) big).fact().grounding().receipt().bundles();
            assertThat(bundles).hasSize(8);
            assertThat(bundles.get(7)).extracting(p -> p.id().value()).containsExactly("a2", "a6");
        }
    }

    @Test
    void entailMaterialisesEdgesWithDerivationReceiptsAndTheCascadeRemovesEdgesThatLostTheirSupport() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            EntailResult first = store.receipts().entail(TestStores.ALICE);
            assertThat(first.added()).isEqualTo(first.edges()).isPositive();
            FactId upstream = EntailSync.edgeId(new Entailer.Triple("MAPK/ERK pathway", "upstream_of", "apoptosis"));
            FactRead edge = store.read(upstream, first.commit().id());
            assertThat(((FactRead.Found) edge).fact().grounding().receipt().bundles())
                    .singleElement().satisfies(b -> assertThat(b).extracting(p -> p.id().value()).containsExactly("a1"));
            assertThat(store.receipts().entail(TestStores.ALICE).commit()).as("nothing changed").isNull();

            CleanupPlan plan = store.receipts().planRetractSource(List.of(FactId.of("pmid-39973430")), "retracted");
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::id).contains(upstream);
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::layer).containsOnly(Layer.EDGE);
            store.receipts().apply(TestStores.ALICE, plan);
            EntailResult after = store.receipts().entail(TestStores.ALICE);
            assertThat(after.incremental()).isTrue();
            assertThat(after.added()).as("nothing the cascade removed is still derivable").isZero();
            assertThat(after.retracted()).isZero();
        }
    }

    @Test
    void reviewListsTouchedButAliveArtifactsAndStaleRefsUntilAcknowledged() throws Exception {
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            assertThat(store.receipts().review(store.head())).isEmpty();
            store.receipts().apply(TestStores.ALICE, store.receipts().planRetractSource(
                    List.of(FactId.of("pmid-39973430")), "retracted"));
            store.begin(TestStores.ALICE).retract(FactId.of("pmid-38800001"), "withdrawn without cascade").commit();
            List<ReviewItem> items = store.receipts().review(store.head());
            assertThat(items).anySatisfy(i -> {
                assertThat(i.id().value()).isEqualTo("m1");
                assertThat(i.reason()).isEqualTo(ReviewItem.Reason.TOUCHED);
                assertThat(i.details()).contains("lost a1");
            });
            assertThat(items).anySatisfy(i -> {
                assertThat(i.id().value()).isEqualTo("a5");
                assertThat(i.reason()).isEqualTo(ReviewItem.Reason.STALE_REFS);
            });
            store.receipts().acknowledge(TestStores.ALICE, FactId.of("m1"), "checked: a5 still stands");
            assertThat(store.receipts().review(store.head())).extracting(i -> i.id().value()).doesNotContain("m1")
                    .contains("a5");
        }
    }

    @Test
    void reviewListsTheCitersOfRevisedRetractedAndSupersededFactsAndNoOther() throws Exception {
        try (Store store = TestStores.init(dir)) {
            var tx = store.begin(TestStores.ALICE);
            for (String t : List.of("t-revised", "t-retracted", "t-superseded", "t-kept")) {
                tx.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.CLAIM, "target " + t).id(FactId.of(t)));
            }
            tx.commit();
            tx = store.begin(TestStores.ALICE);
            for (String t : List.of("t-revised", "t-retracted", "t-superseded", "t-kept")) {
                tx.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.CLAIM, "cites " + t)
                        .id(FactId.of("by-" + t)).refs(dev.palimpsest.model.RefSpec.cites(FactId.of(t))));
            }
            var before = tx.commit().id();
            tx = store.begin(TestStores.ALICE);
            tx.revise(FactId.of("t-revised"), "target revised", List.of());
            tx.retract(FactId.of("t-retracted"), "wrong");
            tx.supersede(FactId.of("t-superseded"), dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.CLAIM,
                    "the successor").id(FactId.of("successor")));
            tx.commit();
            tx = store.begin(TestStores.ALICE);
            tx.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.CLAIM, "cites the new version")
                    .id(FactId.of("by-new")).refs(dev.palimpsest.model.RefSpec.cites(FactId.of("t-revised"))));
            tx.commit();

            List<ReviewItem> items = store.receipts().review(store.head());
            assertThat(items).allSatisfy(i -> assertThat(i.reason()).isEqualTo(ReviewItem.Reason.STALE_REFS));
            assertThat(items).extracting(i -> i.id().value() + ": " + String.join(", ", i.details()))
                    .containsExactlyInAnyOrder("by-t-revised: cites t-revised revised",
                            "by-t-retracted: cites t-retracted retracted",
                            "by-t-superseded: cites t-superseded superseded");
            assertThat(store.receipts().review(before)).as("nothing was stale before the changes").isEmpty();
        }
    }
}
