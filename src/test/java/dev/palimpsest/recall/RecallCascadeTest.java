package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a retract-source cascade, the top 10 of every query at the new commit holds no dead
 * artifact (seed 000's tainted@10 is 0), while at the commit before the same queries still show
 * them; the revised summary is returned in its revised version only.
 */
class RecallCascadeTest {
    static final Path CORPUS = Path.of("examples/receipts-corpus.yaml");
    static final List<String> QUERIES = List.of("AIM2", "oral carcinoma", "MAPK/ERK pathway", "apoptosis",
            "ERK1/2 signalling", "programmed cell death", "caspase-3 activity", "regulates apoptosis",
            "tumour proliferation", "AIM2 suppresses oral carcinoma", "upstream of apoptosis", "xenograft models");

    @TempDir
    Path dir;

    static double tainted(Store s, CommitId at, Set<String> dead, List<String> seen) throws Exception {
        int taintedQueries = 0;
        for (String q : QUERIES) {
            List<SearchHit> top = s.recall().search(SearchQuery.builder(q).at(at).build());
            boolean hit = false;
            for (SearchHit h : top) {
                seen.add(h.id().value());
                hit |= dead.contains(h.id().value());
            }
            taintedQueries += hit ? 1 : 0;
        }
        return (double) taintedQueries / QUERIES.size();
    }

    @Test
    void retractSourceLeavesNoDeadArtifactInAnyTopTenWhileTheCommitBeforeStillShowsThem() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(TestStores.ALICE, Files.readAllBytes(CORPUS), false);
            s.receipts().entail(TestStores.ALICE);
            CommitId before = s.head();
            CleanupPlan plan = s.receipts().planRetractSource(
                    List.of(FactId.of("pmid-39973430"), FactId.of("pmid-40057077")), "journal retraction");
            CommitId after = s.receipts().apply(TestStores.ALICE, plan).id();
            Set<String> dead = new HashSet<>();
            plan.roots().forEach(f -> dead.add(f.value()));
            plan.removals().forEach(r -> dead.add(r.id().value()));
            assertThat(dead).contains("a1", "a2", "s-aim2-flat", "pmid-39973430");

            List<String> seenBefore = new ArrayList<>();
            double taintedBefore = tainted(s, before, dead, seenBefore);
            assertThat(taintedBefore).isPositive();
            assertThat(seenBefore).contains("a1", "a2", "s-aim2-flat", "pmid-39973430", "pmid-40057077");

            List<String> seenAfter = new ArrayList<>();
            assertThat(tainted(s, after, dead, seenAfter)).isZero();
            assertThat(seenAfter).contains("a5", "m1", "s-aim2"); // what still stands is still found
            for (String q : QUERIES) {
                for (SearchHit h : s.recall().search(SearchQuery.builder(q).at(after).build())) {
                    if (h.id().value().equals("s-aim2")) {
                        assertThat(h.body()).isEqualTo("ERK1/2 signalling regulates apoptosis.");
                    }
                }
            }
            assertThat(s.recall().search(SearchQuery.builder("AIM2 suppresses").at(after).build().with(10, 0)))
                    .extracting(h -> h.id().value()).doesNotContain("s-aim2", "s-aim2-flat", "a2");
        }
    }
}
