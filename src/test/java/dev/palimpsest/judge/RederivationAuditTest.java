package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.bench.ReceiptsBench;
import dev.palimpsest.bench.ReceiptsGraphGen;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.RederiveReport.LayerAudit;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Withdrawal;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The re-derivation audit on the receipts benchmark graph: with the symbolic oracle for entailed
 * edges and an oracle that knows the generator's true rationale for merges and summaries, the audit
 * of the dry-run plan reproduces the benchmark's ground-truth table of the applied cascade.
 */
@ExtendWith(Seeds.class)
class RederivationAuditTest {
    private static final Pattern ARTIFACT = Pattern.compile(
            "\nArtifact (\\S+) \\((merge|edge|summary)\\)(?:, sentence (\\d+))?: ");

    @TempDir
    Path tmp;

    /**
     * A judge answering from the generator's truth, question by question: a sentence asked about is
     * alive when it has a bundle without a dead member; a merge or flat summary when every sentence
     * is. It knows nothing of the plan.
     */
    static ScriptedJudge truthful(ReceiptsGraphGen gen, Set<String> dead) {
        Map<String, ReceiptsGraphGen.Artifact> byId = gen.artifacts.stream()
                .collect(Collectors.toMap(ReceiptsGraphGen.Artifact::id, a -> a));
        return ScriptedJudge.answering("oracle/truth", r -> {
            Matcher m = ARTIFACT.matcher(r.messages().get(0).content());
            if (!m.find()) {
                return "not an artifact question";
            }
            ReceiptsGraphGen.Artifact a = byId.get(m.group(1));
            List<Boolean> alive = a.sentences().stream()
                    .map(s -> s.stream().anyMatch(b -> b.stream().noneMatch(dead::contains))).toList();
            boolean truth = m.group(3) != null ? alive.get(Integer.parseInt(m.group(3)) - 1) : !alive.contains(false);
            return "{\"supported\": " + truth + "}";
        });
    }

    private record Built(Store store, ReceiptsGraphGen gen, CommitId built) {}

    private Built build(long seed) throws Exception {
        return build(seed, "distrust");
    }

    private Built build(long seed, String policy) throws Exception {
        ReceiptsGraphGen gen = new ReceiptsGraphGen(seed, 40, 320, 24, 40, 90, 48);
        Store store = TestStores.init(tmp);
        String batch = gen.batchYaml();
        assertThat(batch).startsWith("{");
        batch = "{\"policy\":\"" + policy + "\"," + batch.substring(1);
        store.receipts().ingest(TestStores.ALICE, batch.getBytes(StandardCharsets.UTF_8), false);
        store.receipts().entail(TestStores.ALICE);
        return new Built(store, gen, store.head());
    }

    private static ReceiptsBench.Truth truthAfter(Built b, Set<String> dead, CommitResult applied) throws Exception {
        try (GitRepo repo = GitRepo.open(b.store().gitDir(), false)) {
            ReceiptGraph past = ReceiptGraph.load(repo, PredicateIndex.open(repo), ObjectId.fromString(b.built().hex()),
                    new FactCache());
            return ReceiptsBench.groundTruth(b.gen(), dead, id -> b.store().factLiveAtCommit(id, applied.id()), past);
        }
    }

    private static void assertReproduces(RederiveReport r, ReceiptsBench.Truth t) {
        LayerAudit merge = r.layers().get(Layer.MERGE);
        LayerAudit edge = r.layers().get(Layer.EDGE);
        LayerAudit summary = r.layers().get(Layer.SUMMARY);
        assertThat(merge.leaky()).isEqualTo(t.leaked()[0]);
        assertThat(merge.overDeleted()).isEqualTo(t.over()[0]);
        assertThat(summary.leaky()).isEqualTo(t.leaked()[1] + t.leaked()[2]);
        assertThat(summary.overDeleted()).isEqualTo(t.over()[1] + t.over()[2]);
        assertThat(edge.leaky()).isEqualTo(t.leaked()[3]);
        assertThat(edge.overDeleted()).isEqualTo(t.over()[3]);
        for (LayerAudit l : List.of(merge, edge, summary)) {
            assertThat(l.undecided()).isZero();
            assertThat(l.ungraded()).isZero();
        }
        assertThat(edge.oracle()).isEqualTo("symbolic");
        assertThat(merge.oracle()).isEqualTo("judge");
    }

    @Test
    void retractSourceAuditReproducesTheBenchGroundTruthTable() throws Exception {
        Built b = build(7);
        try (Store store = b.store()) {
            List<FactId> docs = b.gen().retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
            Set<String> dead = new HashSet<>();
            b.gen().assertions.stream().filter(a -> b.gen().retracted.contains(a.doc())).forEach(a -> dead.add(a.id()));
            ScriptedJudge oracle = truthful(b.gen(), dead);
            RederiveReport r = store.rederivations().retractSource(docs, b.built(), 5, 0.2, AuditOracles.of(oracle));
            assertThat(store.head()).isEqualTo(b.built()); // a dry run writes nothing
            CommitResult applied = store.receipts().apply(TestStores.ALICE,
                    store.receipts().planRetractSource(docs, "audit test"));
            ReceiptsBench.Truth t = truthAfter(b, dead, applied);
            assertReproduces(r, t);
            // the known shape of the table: nothing leaks; the distrusted flat summaries are the over-deletions
            // the known shape of the table: nothing leaks; the over-deletions are entailed edges whose receipts
            // kept only the smallest 8 derivations, all hit, while another derivation survives, and flat summaries
            // removed under the distrust policy although every sentence keeps a live bundle
            assertThat(t.leaked()).containsExactly(0, 0, 0, 0);
            Set<String> flat = new HashSet<>();
            b.gen().artifacts.stream().filter(ReceiptsGraphGen.Artifact::flat).forEach(a -> flat.add(a.id()));
            assertThat(r.layers().get(Layer.SUMMARY).overDeletedIds()).hasSize(3)
                    .allSatisfy(id -> assertThat(flat).contains(id.value()));
            assertThat(r.layers().get(Layer.EDGE).overDeletedIds()).hasSize(t.over()[3])
                    .allSatisfy(id -> assertThat(id.value()).startsWith("e-"));
            // pinned for this seed: the table and the audit's population
            assertThat(t.over()).containsExactly(PINNED_OVER);
            assertThat(counts(r)).isEqualTo(PINNED_COUNTS);
            int judged = r.layers().get(Layer.MERGE).graded() + r.layers().get(Layer.SUMMARY).graded();
            assertThat(oracle.calls() % 5).isZero();
            assertThat(oracle.calls()).isGreaterThan(5 * judged); // sentence summaries: one question per sentence
            assertThat(oracle.received()).allSatisfy(q -> assertThat(q.temperature()).hasValue(1.0));
            assertThat(oracle.received().stream().map(JudgeRequest::draw).distinct().sorted().toList())
                    .containsExactly(0, 1, 2, 3, 4);
        }
    }

    @Test
    void underTheTrustPolicyTheAuditFindsTheLeakyFlatSummariesTheTableCounts() throws Exception {
        Built b = build(7, "trust");
        try (Store store = b.store()) {
            List<FactId> docs = b.gen().retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
            Set<String> dead = new HashSet<>();
            b.gen().assertions.stream().filter(a -> b.gen().retracted.contains(a.doc())).forEach(a -> dead.add(a.id()));
            RederiveReport r = store.rederivations().retractSource(docs, b.built(), 5, 0.2,
                    AuditOracles.of(truthful(b.gen(), dead)));
            CommitResult applied = store.receipts().apply(TestStores.ALICE,
                    store.receipts().planRetractSource(docs, "audit test"));
            ReceiptsBench.Truth t = truthAfter(b, dead, applied);
            assertReproduces(r, t);
            assertThat(t.leaked()[2]).isPositive();
            assertThat(t.over()[2]).isZero();
            assertThat(r.layers().get(Layer.SUMMARY).leakyIds()).hasSize(t.leaked()[2]);
        }
    }

    @Test
    void theJudgeSeesTheSurvivingCorpusOnEachArtifactNeverAWithdrawnMemberAndIsAskedInIdOrder() throws Exception {
        Built b = build(7);
        try (Store store = b.store()) {
            List<FactId> docs = b.gen().retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
            Set<String> dead = new HashSet<>();
            b.gen().assertions.stream().filter(a -> b.gen().retracted.contains(a.doc())).forEach(a -> dead.add(a.id()));
            ScriptedJudge judge = ScriptedJudge.answering("j", r -> "{\"supported\": true}");
            store.rederivations().retractSource(docs, b.built(), 1, 0.0, AuditOracles.of(judge));
            Map<String, ReceiptsGraphGen.Artifact> byId = b.gen().artifacts.stream()
                    .collect(Collectors.toMap(ReceiptsGraphGen.Artifact::id, a -> a));
            Pattern member = Pattern.compile("\n- (\\S+): ");
            List<String> asked = new java.util.ArrayList<>();
            int withLoss = 0;
            int beyondReceipt = 0;
            for (JudgeRequest r : judge.received()) {
                String prompt = r.messages().get(0).content();
                Matcher m = ARTIFACT.matcher(prompt);
                assertThat(m.find()).isTrue();
                asked.add(m.group(1));
                Set<String> members = new java.util.TreeSet<>();
                byId.get(m.group(1)).sentences().forEach(sentence -> sentence.forEach(members::addAll));
                Set<String> surviving = new java.util.TreeSet<>(members);
                surviving.removeAll(dead);
                withLoss += surviving.size() < members.size() ? 1 : 0;
                List<String> listed = new java.util.ArrayList<>();
                for (Matcher e = member.matcher(prompt); e.find(); ) {
                    listed.add(e.group(1));
                }
                // the receipt's survivors and other surviving assertions on its entities: never a withdrawn one
                assertThat(listed).as("evidence put to the judge about %s", m.group(1)).isSorted()
                        .doesNotHaveDuplicates().doesNotContainAnyElementsOf(dead);
                if (!surviving.isEmpty()) {
                    assertThat(listed).as("evidence put to the judge about %s", m.group(1)).isNotEmpty();
                }
                beyondReceipt += listed.stream().anyMatch(id -> !members.contains(id)) ? 1 : 0;
            }
            assertThat(asked).isSorted();
            assertThat(asked.stream().distinct().count()).isEqualTo(24 + 40);
            assertThat(asked.size()).as("a sentence summary is asked once per kept sentence").isGreaterThan(24 + 40);
            assertThat(withLoss).isPositive();
            assertThat(beyondReceipt).as("questions showing surviving evidence the receipt does not cite").isPositive();
        }
    }

    static final int[] PINNED_OVER = {0, 0, 3, 11};
    static final String PINNED_COUNTS = "merge: graded 24 alive 21 dead 3 leaky 0 over 0 agree 24; "
            + "edge: graded 1291 alive 1017 dead 274 leaky 0 over 11 agree 1280; "
            + "summary: graded 40 alive 25 dead 15 leaky 0 over 3 agree 37; ";

    static String counts(RederiveReport r) {
        StringBuilder s = new StringBuilder();
        for (Layer l : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
            LayerAudit a = r.layers().get(l);
            s.append(l).append(": graded ").append(a.graded()).append(" alive ").append(a.alive()).append(" dead ")
                    .append(a.dead()).append(" leaky ").append(a.leaky()).append(" over ").append(a.overDeleted())
                    .append(" agree ").append(a.agree()).append("; ");
        }
        return s.toString();
    }

    @Test
    void revokeRelationAuditReproducesTheGroundTruthOfRevokingThePredicate(Seed seed) throws Exception {
        Built b = build(seed.value());
        try (Store store = b.store()) {
            Set<String> dead = new HashSet<>();
            b.gen().assertions.stream().filter(a -> a.triple().p().equals("regulates")).forEach(a -> dead.add(a.id()));
            RederiveReport r = store.rederivations().revokeRelation("regulates", b.built(), 3, 0.2,
                    AuditOracles.of(truthful(b.gen(), dead)));
            assertThat(r.operation()).isEqualTo(Withdrawal.REVOKE_RELATION);
            assertThat(r.targets()).containsExactly("regulates");
            CommitResult applied = store.receipts().apply(TestStores.ALICE,
                    store.receipts().planRevokeRelation("regulates", "audit test"));
            assertReproduces(r, truthAfter(b, dead, applied));
        }
    }

    @Test
    void withoutAJudgeMergesAndSummariesAreUngradedAndEdgesStillDecided() throws Exception {
        Built b = build(7);
        try (Store store = b.store()) {
            List<FactId> docs = b.gen().retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
            RederiveReport r = store.rederivations().retractSource(docs, b.built(), 5, 0.2, AuditOracles.NONE);
            LayerAudit merge = r.layers().get(Layer.MERGE);
            assertThat(merge.oracle()).isEqualTo("none");
            assertThat(merge.ungraded()).isEqualTo(merge.graded()).isPositive();
            assertThat(merge.agree() + merge.leaky() + merge.overDeleted()).isZero();
            LayerAudit edge = r.layers().get(Layer.EDGE);
            assertThat(edge.ungraded()).isZero();
            assertThat(edge.alive() + edge.dead()).isEqualTo(edge.graded()).isPositive();
        }
    }

    @Test
    void splitDrawsAreUndecidedAndMalformedRepliesCountForNeitherSide() throws Exception {
        Built b = build(7);
        try (Store store = b.store()) {
            List<FactId> docs = b.gen().retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
            // draws 0..3 say alive, draw 4 says dead: 4 of 5 alive reaches 1 - 0.2
            ScriptedJudge mostly = ScriptedJudge.answering("j", r -> "{\"supported\": " + (r.draw() < 4) + "}");
            LayerAudit m = store.rederivations().retractSource(docs, b.built(), 5, 0.2, AuditOracles.of(mostly)).layers().get(Layer.MERGE);
            assertThat(m.alive()).isEqualTo(m.graded());
            // with tau 0.1, 4 of 5 is not enough: undecided
            ScriptedJudge again = ScriptedJudge.answering("j", r -> "{\"supported\": " + (r.draw() < 4) + "}");
            m = store.rederivations().retractSource(docs, b.built(), 5, 0.1, AuditOracles.of(again)).layers().get(Layer.MERGE);
            assertThat(m.undecided()).isEqualTo(m.graded());
            assertThat(m.alive() + m.dead() + m.leaky() + m.overDeleted() + m.agree()).isZero();
            // "true" as a string is no vote: 3 real dead votes of 5 is not 1 - 0.2
            ScriptedJudge sloppy = ScriptedJudge.answering("j", r -> r.draw() < 2 ? "{\"supported\": \"true\"}"
                    : "{\"supported\": false}");
            m = store.rederivations().retractSource(docs, b.built(), 5, 0.2, AuditOracles.of(sloppy)).layers().get(Layer.MERGE);
            assertThat(m.undecided()).isEqualTo(m.graded());
            ScriptedJudge dead = ScriptedJudge.answering("j", r -> "{\"supported\": false}");
            m = store.rederivations().retractSource(docs, b.built(), 5, 0.2, AuditOracles.of(dead)).layers().get(Layer.MERGE);
            assertThat(m.dead()).isEqualTo(m.graded());
            assertThat(m.leaky()).isEqualTo(m.graded() - m.overDeleted() - m.agree());
        }
    }

    @Test
    void badDrawsTauOrTargetsAreRejected() throws Exception {
        Built b = build(7);
        try (Store store = b.store()) {
            List<FactId> docs = List.of(FactId.of(ReceiptsGraphGen.doc(b.gen().retracted.first())));
            assertThatThrownBy(() -> store.rederivations().retractSource(docs, b.built(), 0, 0.2, AuditOracles.NONE))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("--draws");
            assertThatThrownBy(() -> store.rederivations().retractSource(docs, b.built(), 5, 0.5, AuditOracles.NONE))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("--tau");
            assertThatThrownBy(() -> store.rederivations().retractSource(docs, b.built(), 5, -0.1, AuditOracles.NONE))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("--tau");
            assertThatThrownBy(() -> store.rederivations().revokeRelation("no_such", b.built(), 5, 0.2, AuditOracles.NONE))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("no live assertion uses it");
            assertThatThrownBy(() -> store.rederivations().retractSource(List.of(FactId.of("doc-999")), b.built(), 5,
                    0.2, AuditOracles.NONE)).isInstanceOf(RejectedException.class).hasMessageContaining("doc-999");
        }
    }
}
