package dev.palimpsest.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.Policy;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.TrustChange;
import dev.palimpsest.model.TrustPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-layer trust: stored in palimpsest.yaml, followed by every plan, and updated from an audit's verdict. */
class TrustPolicyTest {
    static final Path CORPUS = Path.of("examples/receipts-corpus.yaml");
    static final List<FactId> AIM2 = List.of(FactId.of("pmid-40057077"));
    static final List<FactId> MAPK = List.of(FactId.of("pmid-39973430"));

    @TempDir
    Path dir;

    private Store corpus() throws Exception {
        Store store = TestStores.init(dir);
        store.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
        return store;
    }

    @Test
    void aDistrustedLayerLosesATouchedArtifactEvenWithALiveBundle() throws Exception {
        try (Store store = corpus()) {
            assertThat(store.receipts().planRetractSource(MAPK, "r").touched()).extracting(FactId::value)
                    .contains("m1");
            store.receipts().setTrust(TestStores.ALICE, TrustPolicy.DEFAULT.with(Layer.MERGE, false));
            CleanupPlan plan = store.receipts().planRetractSource(MAPK, "r");
            assertThat(plan.removals()).filteredOn(rm -> rm.id().value().equals("m1"))
                    .singleElement().satisfies(rm -> assertThat(rm.why()).contains("merge receipts distrusted"));
        }
    }

    @Test
    void theLabelFreePolicyRemovesEveryTouchedArtifactAndASentenceSummaryWhole() throws Exception {
        try (Store store = corpus()) {
            assertThat(store.receipts().planRetractSource(AIM2, "r").revisions()).extracting(rv -> rv.id().value())
                    .containsExactly("s-aim2");
            store.receipts().setTrust(TestStores.ALICE, TrustPolicy.LABEL_FREE);
            CleanupPlan plan = store.receipts().planRetractSource(AIM2, "r");
            assertThat(plan.revisions()).isEmpty();
            assertThat(plan.removals()).extracting(rm -> rm.id().value()).containsExactlyInAnyOrder("s-aim2",
                    "s-aim2-flat");
        }
    }

    @Test
    void trustIsWrittenToPalimpsestYamlInOneSignedCommitAndReadAsOfEachCommit() throws Exception {
        try (Store store = corpus()) {
            CommitId before = store.head();
            assertThat(store.receipts().trust(before)).isEqualTo(TrustPolicy.DEFAULT);
            TrustPolicy next = TrustPolicy.TRUST_ALL.with(Layer.SUMMARY, false);
            CommitId written = store.receipts().setTrust(TestStores.ALICE, next).orElseThrow().id();
            assertThat(store.receipts().trust(written)).isEqualTo(next);
            assertThat(store.receipts().trust(before)).isEqualTo(TrustPolicy.DEFAULT);
            assertThat(store.receipts().setTrust(TestStores.ALICE, next)).isEmpty();
            assertThat(store.head()).isEqualTo(written);
            try (Auditor a = Auditor.open(store.gitDir())) {
                assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
            }
        }
    }

    @Test
    void theConfigFileListsDistrustedLayersAndRefusesUnknownOnes() throws Exception {
        StoreConfig c = StoreConfig.current().withLayerTrust(java.util.Map.of("summary", false, "merge", true));
        byte[] bytes = FactCodec.encode(c);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("distrust_layers:").contains("summary");
        assertThat(FactCodec.decodeConfig(bytes, "palimpsest.yaml")).isEqualTo(c);
        assertThat(FactCodec.encode(StoreConfig.current())).isEqualTo(FactCodec.encode(
                StoreConfig.current().withLayerTrust(java.util.Map.of("edge", true))));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FactCodec.decodeConfig(
                "format: 1\nlayout: sha256-2x2\ndistrust_layers: [assertion]\n".getBytes(StandardCharsets.UTF_8),
                "palimpsest.yaml")).hasMessageContaining("assertion");
    }

    @Test
    void anAuditOfTheReceiptsAsWrittenDistrustsTheLeakyLayerAndTrustsTheOthers() throws Exception {
        try (Store store = corpus()) {
            store.receipts().entail(TestStores.ALICE);
            // the flat summary's receipt keeps it alive through a5, but its AIM2 sentence no longer re-derives
            ScriptedJudge oracle = ScriptedJudge.answering("oracle", q -> {
                String p = q.messages().get(0).content();
                return "{\"supported\": " + !p.contains("Artifact s-aim2-flat") + "}";
            });
            RederiveReport r = store.rederivations().retractSource(AIM2, store.head(), 3, 0.2,
                    AuditOracles.of(oracle), TrustPolicy.TRUST_ALL);
            assertThat(r.policy()).isEqualTo(TrustPolicy.TRUST_ALL);
            assertThat(r.layers().get(Layer.SUMMARY).leakyIds()).extracting(FactId::value)
                    .containsExactly("s-aim2-flat");
            TrustChange change = store.receipts().applyVerdict(TestStores.ALICE, r, 0.2);
            assertThat(change.commit()).isPresent();
            Set<Layer> distrusted = new TreeSet<>(change.policy().distrusted());
            assertThat(distrusted).containsExactly(Layer.SUMMARY);
            assertThat(change.policy().flat()).isEqualTo(Policy.DISTRUST);
            assertThat(store.receipts().trust(store.head())).isEqualTo(change.policy());
            assertThat(store.receipts().planRetractSource(AIM2, "r").removals()).extracting(rm -> rm.id().value())
                    .contains("s-aim2", "s-aim2-flat");
        }
    }
}
