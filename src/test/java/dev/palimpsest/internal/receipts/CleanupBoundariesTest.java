package dev.palimpsest.internal.receipts;

import static dev.palimpsest.api.TestStores.ALICE;
import static dev.palimpsest.internal.receipts.CleanupEdgesTest.c;
import static dev.palimpsest.internal.receipts.CleanupEdgesTest.counts;
import static dev.palimpsest.internal.receipts.CleanupEdgesTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.Policy;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cleanup at the boundaries of its arithmetic: the graph's first node (a store of documents only,
 * or a single artifact), removals ordered by layer before id, the policy the plan and report name,
 * what counts as pending, restricting a cascade, and graphs of exactly the nodes' first capacity.
 */
class CleanupBoundariesTest {
    @TempDir
    Path dir;

    static FactId id(String s) {
        return FactId.of(s);
    }

    @Test
    void aStoreOfDocumentsOnlyRetractsTheDocumentAsItsOneRoot() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml("sources:\n  - {id: d1, body: \"The only document.\"}\n"), false);
            CleanupPlan plan = s.receipts().planRetractSource(List.of(id("d1")), "retracted");
            assertThat(plan.roots()).containsExactly(id("d1"));
            assertThat(plan.removals()).isEmpty();
        }
    }

    @Test
    void removalsListMergesBeforeEdgesWhateverTheirIds() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml("""
                    sources:
                      - {id: d1, body: "First document."}
                    assertions:
                      - {id: x1, source: d1, subject: A, predicate: rel, object: B}
                    artifacts:
                      - {id: zz-merge, kind: merge, body: "x1 alone", receipt: [[x1]]}
                      - {id: aa-edge, kind: edge, subject: A, predicate: rel, object: B, receipt: [[zz-merge]]}
                      - {id: mm-merge, kind: merge, body: "x1 again", receipt: [[x1]]}
                    """), false);
            CleanupPlan plan = s.receipts().planRetractSource(List.of(id("d1")), "retracted");
            assertThat(plan.roots()).containsExactly(id("d1"), id("x1"));
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::id)
                    .containsExactly(id("mm-merge"), id("zz-merge"), id("aa-edge"));
            assertThat(plan.policy()).isEqualTo(Policy.DISTRUST);
            assertThat(s.receipts().report(s.head()).policy()).isEqualTo(Policy.DISTRUST);
        }
    }

    @Test
    void aTrustingStoreNamesItsPolicyInPlansAndReports() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml("""
                    policy: trust
                    sources:
                      - {id: d1, body: "First document."}
                    """), false);
            assertThat(s.receipts().planRetractSource(List.of(id("d1")), "retracted").policy()).isEqualTo(Policy.TRUST);
            assertThat(s.receipts().report(s.head()).policy()).isEqualTo(Policy.TRUST);
        }
    }

    @Test
    void anArtifactIsPendingWhenItsOnlyBundleOrASentenceDied() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml("""
                    sources:
                      - {id: d1, body: "First document."}
                    assertions:
                      - {id: x1, source: d1, subject: A, predicate: rel, object: B}
                    artifacts:
                      - {id: m1, kind: merge, body: "x1 alone", receipt: [[x1]]}
                    """), false);
            s.begin(ALICE).retract(id("x1"), "withdrawn").commit();
            Cleanup one = TestStores.cleanup(s, s.head());
            assertThat(one.graph().find(id("m1"))).as("the only artifact is the first node").isZero();
            assertThat(one.pending(id("m1"))).isTrue();
            assertThat(one.pending(id("x1"))).as("retracted").isFalse();
            assertThat(one.pending(id("d1"))).as("a document").isFalse();
            assertThat(one.pending(id("ghost"))).isFalse();
        }
    }

    @Test
    void aPartlyDeadSummaryIsPendingAndAHealthyArtifactIsNot() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(CleanupEdgesTest.THREE), false);
            s.begin(ALICE).retract(id("x2"), "withdrawn").commit();
            Cleanup c = TestStores.cleanup(s, s.head());
            assertThat(c.pending(id("sum"))).as("one sentence of three died").isTrue();
            assertThat(c.pending(id("both"))).as("its only bundle died").isTrue();
            assertThat(c.pending(id("either"))).as("a live bundle is left").isFalse();
            assertThat(c.pending(id("gone"))).as("each sentence keeps a live bundle").isFalse();
            assertThat(c.pending(id("x1"))).as("an assertion").isFalse();
            CleanupPlan all = c.plan(dev.palimpsest.model.Withdrawal.RETRACT, List.of("t"), "r", new int[0]);
            assertThat(all.removals()).extracting(CleanupPlan.Removal::id).containsExactly(id("both"), id("e1"));
            assertThat(all.revisions()).extracting(CleanupPlan.Revision::id).containsExactly(id("sum"));
            Set<FactId> keep = Set.of(id("e1"));
            CleanupPlan some = Cleanup.restrict(all, keep::contains);
            assertThat(some.removals()).extracting(CleanupPlan.Removal::id).containsExactly(id("e1"));
            assertThat(some.revisions()).isEmpty();
            assertThat(some.touched()).isEqualTo(all.touched());
            assertThat(some.roots()).isEqualTo(all.roots());
            assertThat(Cleanup.restrict(all, id("sum")::equals).revisions()).isEqualTo(all.revisions());
        }
    }

    /**
     * One document, {@code n} assertions and one merge: {@code n + 2} nodes, so 1,022 fills the
     * node arrays' first capacity (1,024) exactly; plans and reports read no node past the last.
     */
    @ParameterizedTest(name = "{0} assertions")
    @ValueSource(ints = {1021, 1022, 1023})
    void aGraphAtTheNodesFirstCapacityPlansAndReports(int n) throws Exception {
        StringBuilder y = new StringBuilder("sources:\n  - {id: big, body: \"A big document.\"}\nassertions:\n");
        for (int i = 0; i < n; i++) {
            y.append("  - {id: a").append(i).append(", source: big, subject: S").append(i)
                    .append(", predicate: rel, object: O}\n");
        }
        y.append("artifacts:\n  - {id: m, kind: merge, body: \"the last one\", receipt: [[a").append(n - 1).append("]]}\n");
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(y.toString()), false);
            assertThat(TestStores.cleanup(s, s.head()).graph().size()).isEqualTo(n + 2);
            assertThat(counts(s).get(Layer.ASSERTION)).isEqualTo(c(n, 0, 0, 0));
            assertThat(counts(s).get(Layer.MERGE)).isEqualTo(c(1, 0, 0, 0));
            CleanupPlan plan = s.receipts().planRetractSource(List.of(id("big")), "retracted");
            assertThat(plan.roots()).hasSize(n + 1);
            assertThat(plan.removals()).containsExactly(new CleanupPlan.Removal(id("m"), Layer.MERGE, "no live bundle"));
        }
    }

    @Test
    void anAssertionWhoseSourceWasForgottenStaysAliveInTheReport() throws Exception {
        try (Store s = TestStores.init(dir)) {
            var t = s.begin(ALICE);
            t.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.SOURCE, "A sensitive document.")
                    .id(id("d1")).asSensitive());
            t.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.ASSERTION, "A rel B.").id(id("x1"))
                    .refs(List.of(new dev.palimpsest.model.RefSpec(id("d1"), null, dev.palimpsest.model.RefRole.SOURCE,
                            null))).grounding(dev.palimpsest.model.Grounding.triple("A", "rel", "B")));
            t.commit();
            s.erasure().forget(ALICE, List.of(id("d1")), "erasure request", false);
            Cleanup c = TestStores.cleanup(s, s.head());
            assertThat(c.graph().size()).as("x1, and d1 named by x1 only").isEqualTo(2);
            assertThat(counts(s).get(Layer.ASSERTION)).isEqualTo(c(1, 0, 0, 0));
            assertThat(c.pending(id("x1"))).isFalse();
        }
    }

    @Test
    void aReportOfACommitAnotherInstanceWroteSeesItsRetractedArtifacts() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().report(s.head());
            try (Store other = Store.open(s.gitDir(), new dev.palimpsest.api.KeyHome(dir.resolve("home")))) {
                other.receipts().ingest(ALICE, yaml("""
                        sources:
                          - {id: d1, body: "First document."}
                        assertions:
                          - {id: x1, source: d1, subject: A, predicate: rel, object: B}
                        artifacts:
                          - {id: m1, kind: merge, body: "x1 alone", receipt: [[x1]]}
                        """), false);
                other.begin(ALICE).retract(id("m1"), "withdrawn").commit();
            }
            assertThat(counts(s).get(Layer.MERGE)).isEqualTo(c(0, 1, 0, 0));
        }
    }
}
