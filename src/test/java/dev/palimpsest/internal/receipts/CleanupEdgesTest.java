package dev.palimpsest.internal.receipts;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.LayerCounts;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of cleanup: unknown and retracted documents, the report's per-layer counts (pending
 * before a cascade is applied, none after), dropped-sentence lists, multi-member bundles,
 * whole-summary death, and graphs, lists and worklists past their first resize.
 */
class CleanupEdgesTest {
    static final Path CORPUS = Path.of("examples/receipts-corpus.yaml");
    static final FactId P1 = FactId.of("pmid-39973430");
    static final FactId P2 = FactId.of("pmid-40057077");

    @TempDir
    Path dir;

    static byte[] yaml(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Map<Layer, LayerCounts> counts(Store s) throws Exception {
        return s.receipts().report(s.head()).layers();
    }

    static LayerCounts c(int alive, int dead, int touched, int pending) {
        return new LayerCounts(alive, dead, touched, pending);
    }

    @Test
    void anUnknownDocumentIsNotFoundAndARetractedOneIsNotLiveEachNamed() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, Files.readAllBytes(CORPUS), false);
            CommitId gone = s.begin(ALICE).retract(P2, "withdrawn").commit().id();
            RejectedException e = catchThrowableOfType(() -> s.receipts().planRetractSource(
                    List.of(FactId.of("ghost"), P2, P1), "x"), RejectedException.class);
            assertThat(e.violations()).containsExactly(
                    new Violation(Rule.NOT_FOUND, "document ghost", "does not exist at " + gone.hex()),
                    new Violation(Rule.NOT_LIVE, "document " + P2, "is not live at " + gone.hex()));
            RejectedException none = catchThrowableOfType(() -> s.receipts().planRetractSource(List.of(), "x"),
                    RejectedException.class);
            assertThat(none.violations()).extracting(Violation::rule).containsExactly(Rule.EMPTY_TRANSACTION);
        }
    }

    @Test
    void theReportCountsEveryLayerAndPendingUntilTheCascadeIsApplied() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, Files.readAllBytes(CORPUS), false);
            assertThat(counts(s)).containsExactly(Map.entry(Layer.ASSERTION, c(4, 0, 0, 0)),
                    Map.entry(Layer.MERGE, c(1, 0, 0, 0)), Map.entry(Layer.EDGE, c(0, 0, 0, 0)),
                    Map.entry(Layer.SUMMARY, c(2, 0, 0, 0)));
            // a plain retraction, no cascade: the summaries rest on a dead assertion but are still in the tree
            s.begin(ALICE).retract(P2, "withdrawn").retract(FactId.of("a2"), "withdrawn").commit();
            assertThat(counts(s)).containsExactly(Map.entry(Layer.ASSERTION, c(3, 1, 0, 0)),
                    Map.entry(Layer.MERGE, c(1, 0, 0, 0)), Map.entry(Layer.EDGE, c(0, 0, 0, 0)),
                    Map.entry(Layer.SUMMARY, c(1, 1, 1, 2)));
            CleanupPlan plan = s.receipts().planRetractSource(List.of(P1), "retracted");
            assertThat(plan.roots()).containsExactly(P1, FactId.of("a1"));
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::id).containsExactly(FactId.of("s-aim2-flat"));
            assertThat(plan.removals().get(0).why()).isEqualTo("flat summary receipt touched (policy distrust)");
            assertThat(plan.revisions()).containsExactly(new CleanupPlan.Revision(FactId.of("s-aim2"), List.of(0), 1));
            assertThat(plan.touched()).containsExactly(FactId.of("m1"));
            CommitId applied = s.receipts().apply(ALICE, plan).id();
            assertThat(counts(s)).containsExactly(Map.entry(Layer.ASSERTION, c(2, 2, 0, 0)),
                    Map.entry(Layer.MERGE, c(1, 0, 1, 0)), Map.entry(Layer.EDGE, c(0, 0, 0, 0)),
                    Map.entry(Layer.SUMMARY, c(1, 1, 0, 0)));
            var s2 = ((FactRead.Found) s.read(FactId.of("s-aim2"), applied)).fact();
            assertThat(s2.body()).isEqualTo("ERK1/2 signalling regulates apoptosis.");
            assertThat(s2.grounding().sentences()).hasSize(1);
        }
    }

    static final String THREE = """
            sources:
              - {id: d1, body: "First document."}
              - {id: d2, body: "Second document."}
              - {id: d3, body: "Third document."}
            assertions:
              - {id: x1, source: d1, subject: A, predicate: rel, object: B}
              - {id: x2, source: d2, subject: C, predicate: rel, object: D}
              - {id: x3, source: d3, subject: E, predicate: other, object: F}
            artifacts:
              - {id: both, kind: merge, body: "x1 and x2 together", receipt: [[x1, x2]]}
              - {id: either, kind: merge, body: "x1 and x2, or x3", receipt: [[x1, x2], [x3]]}
              - {id: e1, kind: edge, subject: A, predicate: rel, object: D, receipt: [[both]]}
              - id: sum
                kind: summary
                sentences:
                  - {text: "One.", receipt: [[x1]]}
                  - {text: "Two.", receipt: [[x3]]}
                  - {text: "Three.", receipt: [[x2]]}
              - id: gone
                kind: summary
                sentences:
                  - {text: "One.", receipt: [[x1]]}
                  - {text: "Two.", receipt: [[x2], [x1]]}
            """;

    @Test
    void aMultiMemberBundleDiesWithAnyMemberAndTheCascadeFollowsIt() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(THREE), false);
            CleanupPlan plan = s.receipts().planRetractSource(List.of(FactId.of("d2")), "retracted");
            assertThat(plan.roots()).containsExactly(FactId.of("d2"), FactId.of("x2"));
            assertThat(plan.removals()).containsExactly(
                    new CleanupPlan.Removal(FactId.of("both"), Layer.MERGE, "no live bundle"),
                    new CleanupPlan.Removal(FactId.of("e1"), Layer.EDGE, "no live bundle"));
            assertThat(plan.revisions()).containsExactly(new CleanupPlan.Revision(FactId.of("sum"), List.of(2), 2));
            assertThat(plan.touched()).containsExactlyInAnyOrder(FactId.of("either"), FactId.of("gone"));
        }
    }

    @Test
    void aSummaryWhoseEverySentenceDiesIsRemovedAndOneLosingSomeListsThemInOrder() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(THREE), false);
            CleanupPlan plan = s.receipts().planRetractSource(List.of(FactId.of("d1"), FactId.of("d2")), "retracted");
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::id).containsExactly(FactId.of("both"),
                    FactId.of("e1"), FactId.of("gone"));
            assertThat(plan.revisions()).containsExactly(new CleanupPlan.Revision(FactId.of("sum"), List.of(0, 2), 1));
            assertThat(plan.touched()).containsExactly(FactId.of("either"));
            CommitId applied = s.receipts().apply(ALICE, plan).id();
            var sum = ((FactRead.Found) s.read(FactId.of("sum"), applied)).fact();
            assertThat(sum.body()).isEqualTo("Two.");
            assertThat(counts(s)).containsExactly(Map.entry(Layer.ASSERTION, c(1, 2, 0, 0)),
                    Map.entry(Layer.MERGE, c(1, 1, 1, 0)), Map.entry(Layer.EDGE, c(0, 1, 0, 0)),
                    Map.entry(Layer.SUMMARY, c(1, 1, 0, 0)));
        }
    }

    @Test
    void revokeRelationRootsEveryAssertionOfThePredicateOnly() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(THREE), false);
            CleanupPlan plan = s.receipts().planRevokeRelation("other", "wrong relation");
            assertThat(plan.roots()).containsExactly(FactId.of("x3"));
            assertThat(plan.removals()).isEmpty();
            assertThat(plan.revisions()).containsExactly(new CleanupPlan.Revision(FactId.of("sum"), List.of(1), 2));
            assertThat(plan.touched()).containsExactly(FactId.of("either"));
        }
    }

    /**
     * 1,100 assertions of one document (past the graph's 1,024 nodes and the worklist's 64), a merge
     * whose one bundle names 300 of them and 300 merges on one each (past the lists' 256 entries).
     */
    @Test
    void aCascadePastEveryFirstResizeKillsExactlyWhatRestsOnTheDocument() throws Exception {
        StringBuilder y = new StringBuilder("sources:\n  - {id: big, body: \"A big document.\"}\n"
                + "  - {id: small, body: \"A small document.\"}\nassertions:\n");
        for (int i = 0; i < 1100; i++) {
            y.append("  - {id: a").append(i).append(", source: big, subject: S").append(i)
                    .append(", predicate: rel, object: O}\n");
        }
        y.append("  - {id: keep, source: small, subject: K, predicate: rel, object: O}\nartifacts:\n");
        StringBuilder wide = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            y.append("  - {id: m").append(i).append(", kind: merge, body: \"m").append(i)
                    .append("\", receipt: [[a").append(i).append("], [keep]]}\n");
            wide.append(i == 0 ? "" : ", ").append('a').append(i);
        }
        y.append("  - {id: wide, kind: merge, body: \"all of them\", receipt: [[").append(wide).append("]]}\n");
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(ALICE, yaml(y.toString()), false);
            assertThat(counts(s).get(Layer.ASSERTION)).isEqualTo(c(1101, 0, 0, 0));
            assertThat(counts(s).get(Layer.MERGE)).isEqualTo(c(301, 0, 0, 0));
            CleanupPlan plan = s.receipts().planRetractSource(List.of(FactId.of("big")), "retracted");
            assertThat(plan.roots()).hasSize(1101).startsWith(FactId.of("big")).doesNotContain(FactId.of("keep"));
            assertThat(plan.removals()).containsExactly(new CleanupPlan.Removal(FactId.of("wide"), Layer.MERGE,
                    "no live bundle"));
            assertThat(plan.touched()).hasSize(300).contains(FactId.of("m0"), FactId.of("m299"));
        }
    }
}
