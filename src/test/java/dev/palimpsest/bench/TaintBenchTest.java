package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.model.FactId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table 4 on a small generated graph: the policies' contamination is ordered as in the paper. */
class TaintBenchTest {
    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void trustingReceiptsCutsContaminationAndDistrustingSummariesOrAllLabelsRemovesItAtSomeRecall() throws Exception {
        ReceiptsGraphGen gen = new ReceiptsGraphGen(7, 40, 320, 24, 40, 90, 48);
        try (Store store = TestStores.init(tmp)) {
            store.receipts().ingest(TestStores.ALICE, gen.batchYaml().getBytes(StandardCharsets.UTF_8), false);
            store.receipts().entail(TestStores.ALICE);
            try (GitRepo repo = GitRepo.open(store.gitDir(), false)) {
                ReceiptGraph g = ReceiptGraph.load(repo, PredicateIndex.open(repo),
                        ObjectId.fromString(store.head().hex()), new FactCache());
                List<FactId> docs = gen.retracted.stream().map(d -> FactId.of(ReceiptsGraphGen.doc(d))).toList();
                Set<String> dead = new HashSet<>();
                gen.assertions.stream().filter(a -> gen.retracted.contains(a.doc())).forEach(a -> dead.add(a.id()));
                StringWriter log = new StringWriter();
                TaintBench tb = new TaintBench(gen, g, new PrintWriter(log));
                List<String> queries = tb.queries(1, 60);
                assertThat(queries).hasSize(60).doesNotHaveDuplicates();
                Map<String, Object> t = tb.measure("retract-source", dead, new Cleanup(g).sourceRoots(docs), queries);
                double deployed = tainted(t, "deployed");
                double trust = tainted(t, "trust");
                assertThat(deployed).isGreaterThan(trust);
                assertThat(trust).isGreaterThan(0.0); // flat summaries whose surviving bundle vouches for a dead sentence
                assertThat(tainted(t, "distrust")).isZero();
                assertThat(tainted(t, "label-free")).isZero();
                for (String p : TaintBench.POLICIES) {
                    double recall = (double) ((Map<String, Object>) t.get(p)).get("recall_at_10");
                    assertThat(recall).isBetween(0.0, 100.0);
                }
                assertThat((int) ((Map<String, Object>) t.get("label-free")).get("removed"))
                        .isGreaterThanOrEqualTo((int) ((Map<String, Object>) t.get("distrust")).get("removed"));
                assertThat(log.toString()).contains("Table 4, retract-source").contains("28.0% / 89.3%");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static double tainted(Map<String, Object> t, String policy) {
        return (double) ((Map<String, Object>) t.get(policy)).get("tainted_at_10");
    }
}
