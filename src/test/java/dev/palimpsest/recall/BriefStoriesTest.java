package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.search.Tokens;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's briefs: sections in priority, provenance on every line, the budget and the dead-ends cap. */
class BriefStoriesTest {
    @TempDir
    Path dir;

    static void claim(Store s, String id, String object, String predicate, FactId src) throws Exception {
        s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth-service", predicate, object, src).id(FactId.of(id))
                .run("run-7"));
    }

    static void supersede(Store s, String old, String id, String predicate, String object, FactId src)
            throws Exception {
        s.claims().supersede(TestStores.ALICE, FactId.of(old), ClaimSpec.of("auth-service", predicate, object, src)
                .id(FactId.of(id)));
    }

    static void authService(Store s) throws Exception {
        FactId doc = RecallStoriesTest.source(s, "ops-doc");
        claim(s, "m1", "eu-west-1", "deployed to", doc);
        claim(s, "p1", "8080", "listens on port", doc);
        claim(s, "t1", "30s", "times out after", doc);
        claim(s, "t2", "10s", "times out after", doc);
        claim(s, "a1", "redis", "depends on", doc);
        RecallStoriesTest.claim(s, "r1", "redis", "runs version", "7.2.4", doc);
        supersede(s, "m1", "m2", "deployed to", "eu-central-1", doc);
        supersede(s, "p1", "p2", "listens on port", "8443", doc);
    }

    @Test
    void aBriefHasKnownFactsContradictionsAndDeadEndsWithProvenance() throws Exception {
        try (Store s = TestStores.init(dir)) {
            authService(s);
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").build());
            assertThat(b.sections()).extracting(Brief.Section::name)
                    .containsExactly(Brief.KNOWN, Brief.CONTRADICTIONS, Brief.DEAD_ENDS);
            List<String> known = b.sections().get(0).lines();
            assertThat(known).hasSize(6);
            assertThat(known.subList(0, 5)).allSatisfy(l -> assertThat(l).startsWith("- auth-service ")
                    .contains("[source: ops-doc@", ", actor: alice", ", time: ").doesNotContain("related via"));
            assertThat(known.get(5)).startsWith("- redis runs version 7.2.4 [source: ops-doc@")
                    .contains("run: run-12").endsWith("] (related via auth-service)");
            assertThat(known).noneMatch(l -> l.contains("eu-west-1") || l.contains("8080"));
            assertThat(b.sections().get(1).lines()).singleElement().satisfies(l -> assertThat(l)
                    .startsWith("- auth-service times out after: '30s' (t1, source: ops-doc, actor: alice, run: run-7,")
                    .contains(" | '10s' (t2, source: ops-doc, actor: alice, run: run-7,"));
            List<String> dead = b.sections().get(2).lines();
            assertThat(dead).hasSize(2);
            assertThat(dead.get(0)).startsWith("- auth-service listens on port 8080 (superseded by p2 at ");
            assertThat(dead.get(1)).startsWith("- auth-service deployed to eu-west-1 (superseded by m2 at ");
            assertThat(b.omitted()).isZero();
            assertThat(b.tokens()).isEqualTo(Tokens.count(b.text()));
            assertThat(b.text()).startsWith(Brief.KNOWN + ":\n- auth-service ").contains("\n\n" + Brief.CONTRADICTIONS
                    + ":\n");
        }
    }

    @Test
    void aNinetyTokenBriefKeepsTheHeadOfThePriorityOrderAndSaysWhatItOmitted() throws Exception {
        try (Store s = TestStores.init(dir)) {
            authService(s);
            Brief full = s.recall().brief(BriefRequest.builder().entity("auth-service").build());
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxTokens(90));
            List<String> all = new ArrayList<>();
            full.sections().forEach(x -> all.addAll(x.lines()));
            List<String> kept = new ArrayList<>();
            b.sections().forEach(x -> kept.addAll(x.lines()));
            assertThat(kept).isNotEmpty();
            assertThat(all.subList(0, kept.size())).isEqualTo(kept);
            assertThat(b.omitted()).isEqualTo(all.size() - kept.size()).isPositive();
            assertThat(b.text()).endsWith("(+" + b.omitted() + " lines omitted to fit a 90-token budget)\n");
            assertThat(Tokens.count(b.text())).isEqualTo(b.tokens()).isLessThanOrEqualTo(90);
            // one more entry would not have fitted
            assertThat(Tokens.count(b.text().replace(kept.get(kept.size() - 1) + "\n",
                    kept.get(kept.size() - 1) + "\n" + all.get(kept.size()) + "\n"))).isGreaterThan(90);
            Brief tiny = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxTokens(3));
            assertThat(tiny.sections()).isEmpty();
            assertThat(tiny.text()).isEqualTo("(+" + all.size() + " lines omitted to fit a 3-token budget)\n");
        }
    }

    @Test
    void deadEndsAreCappedNewestCorrectionFirstWithTheCountOmitted() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "incident-4412");
            claim(s, "v1", "30s", "times out after", doc);
            supersede(s, "v1", "v2", "times out after", "25s", doc);
            supersede(s, "v2", "v3", "times out after", "20s", doc);
            CommitId third = s.head();
            supersede(s, "v3", "v4", "times out after", "15s", doc);
            supersede(s, "v4", "v5", "times out after", "10s", doc);
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxDeadEnds(2));
            assertThat(b.sections()).extracting(Brief.Section::name).containsExactly(Brief.KNOWN, Brief.DEAD_ENDS);
            assertThat(b.sections().get(0).lines()).singleElement().satisfies(l -> assertThat(l)
                    .startsWith("- auth-service times out after 10s [source: incident-4412@"));
            List<String> dead = b.sections().get(1).lines();
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0)).startsWith("- auth-service times out after 15s (superseded by v5 at ");
            assertThat(dead.get(1)).startsWith("- auth-service times out after 20s (superseded by v4 at ");
            assertThat(dead.get(2)).isEqualTo("- (+2 older corrections omitted)");
            Brief none = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxDeadEnds(0));
            assertThat(none.sections().get(1).lines()).containsExactly("- (+4 older corrections omitted)");
            // as of the third commit: v3 is current, two dead ends, nothing omitted
            Brief then = s.recall().brief(BriefRequest.builder().entity("auth-service").maxDeadEnds(2).at(third).build());
            assertThat(then.sections().get(0).lines().get(0)).startsWith("- auth-service times out after 20s ");
            assertThat(then.sections().get(1).lines()).hasSize(2).noneMatch(l -> l.contains("omitted"));
        }
    }
}
