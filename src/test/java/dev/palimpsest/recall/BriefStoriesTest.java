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

/** The seed's briefs: sections in priority, provenance once per group, the budget and the dead-ends cap. */
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
            assertThat(known.get(0)).matches("- as of commit " + s.head().hex().substring(0, 12)
                    + ", written \\d{4}-\\d\\d-\\d\\d by alice \\(cite a fact as ID@commit\\)");
            List<String> facts = BriefLinesTest.members(known.subList(1, known.size()));
            assertThat(facts).hasSize(6);
            assertThat(facts.subList(0, 5)).allSatisfy(l -> assertThat(l).matches("  - [a-z0-9]+: auth-service .*")
                    .doesNotContain("related via"));
            assertThat(facts.get(5)).isEqualTo("  - r1: redis runs version 7.2.4 (related via auth-service)");
            // the claims of one day, actor, run and source stand under one header; r1 was written in run-12
            assertThat(known.get(1)).matches("- (run run-7, )?source ops-doc:");
            assertThat(known).filteredOn(l -> l.endsWith(":")).containsExactlyInAnyOrder("- run run-7, source ops-doc:",
                    "- source ops-doc:", "- run run-12, source ops-doc:"); // m2 and p2 have no run
            assertThat(known.get(known.size() - 2)).isEqualTo("- run run-12, source ops-doc:");
            assertThat(known).noneMatch(l -> l.contains("eu-west-1") || l.contains("8080"));
            assertThat(b.sections().get(1).lines()).singleElement().isEqualTo(
                    "- auth-service times out after: '30s' (t1, source ops-doc) | '10s' (t2, source ops-doc)");
            List<String> dead = BriefLinesTest.members(b.sections().get(2).lines());
            assertThat(dead).hasSize(2);
            assertThat(dead.get(0)).isEqualTo("  - p1: auth-service listens on port 8080 (superseded by p2)");
            assertThat(dead.get(1)).isEqualTo("  - m1: auth-service deployed to eu-west-1 (superseded by m2)");
            assertThat(b.omitted()).isZero();
            assertThat(b.tokens()).isEqualTo(Tokens.count(b.text()));
            assertThat(b.text()).startsWith(Brief.KNOWN + ":\n- as of commit ").contains("\n\n" + Brief.CONTRADICTIONS
                    + ":\n");
        }
    }

    @Test
    void aNinetyTokenBriefKeepsTheHeadOfThePriorityOrderAndSaysWhatItOmitted() throws Exception {
        try (Store s = TestStores.init(dir)) {
            authService(s);
            Brief full = s.recall().brief(BriefRequest.builder().entity("auth-service").build());
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxTokens(90));
            List<String> all = entries(full);
            List<String> kept = entries(b);
            assertThat(kept).isNotEmpty();
            assertThat(all).containsAll(kept);
            assertThat(kept.get(0)).isEqualTo(entries(full).get(0)); // the best known fact first
            assertThat(b.omitted()).isEqualTo(all.size() - kept.size()).isPositive();
            assertThat(b.text()).endsWith("(+" + b.omitted() + " lines omitted to fit a 90-token budget)\n");
            assertThat(Tokens.count(b.text())).isEqualTo(b.tokens()).isLessThanOrEqualTo(90);
            Brief tiny = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxTokens(3));
            assertThat(tiny.sections()).isEmpty();
            assertThat(tiny.text()).isEqualTo("(+" + all.size() + " lines omitted to fit a 3-token budget)\n");
        }
    }

    @Test
    void aTightBudgetKeepsOneContradictionAndOneDeadEndBeforeTheRestOfTheKnownFacts() throws Exception {
        try (Store s = TestStores.init(dir)) {
            authService(s);
            int full = s.recall().brief(BriefRequest.builder().entity("auth-service").build()).tokens();
            int budget = full - 60;
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").maxTokens(budget).build());
            assertThat(b.omitted()).isGreaterThan(2);
            assertThat(b.sections()).extracting(Brief.Section::name)
                    .containsExactly(Brief.KNOWN, Brief.CONTRADICTIONS, Brief.DEAD_ENDS);
            assertThat(BriefLinesTest.members(b.sections().get(2).lines())).singleElement()
                    .isEqualTo("  - p1: auth-service listens on port 8080 (superseded by p2)");
            assertThat(b.tokens()).isLessThanOrEqualTo(budget);
            // with the cap at 0, the line counting the dead ends is what is kept
            Brief none = s.recall().brief(BriefRequest.builder().entity("auth-service").maxTokens(budget).maxDeadEnds(0).build());
            assertThat(none.sections().get(none.sections().size() - 1).lines()).containsExactly(
                    "- (+2 older corrections omitted)");
        }
    }

    /** The entry lines of a brief in order: its members and lines of their own, without the headers of groups. */
    static List<String> entries(Brief b) {
        List<String> out = new ArrayList<>();
        b.sections().forEach(x -> out.addAll(BriefLinesTest.members(x.lines())));
        out.removeIf(l -> l.startsWith("- as of commit "));
        return out;
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
            assertThat(BriefLinesTest.members(b.sections().get(0).lines())).satisfiesExactly(
                    l -> assertThat(l).startsWith("- as of commit " + s.head().hex().substring(0, 12) + ", written "),
                    l -> assertThat(l).isEqualTo("  - v5: auth-service times out after 10s"));
            List<String> dead = BriefLinesTest.members(b.sections().get(1).lines());
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0)).isEqualTo("  - v4: auth-service times out after 15s (superseded by v5)");
            assertThat(dead.get(1)).isEqualTo("  - v3: auth-service times out after 20s (superseded by v4)");
            assertThat(dead.get(2)).isEqualTo("- (+2 older corrections omitted)");
            Brief none = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxDeadEnds(0));
            assertThat(none.sections().get(1).lines()).containsExactly("- (+4 older corrections omitted)");
            // as of the third commit: v3 is current, two dead ends, nothing omitted
            Brief then = s.recall().brief(BriefRequest.builder().entity("auth-service").maxDeadEnds(2).at(third).build());
            assertThat(BriefLinesTest.members(then.sections().get(0).lines())).contains(
                    "  - v3: auth-service times out after 20s");
            assertThat(BriefLinesTest.members(then.sections().get(1).lines())).hasSize(2)
                    .noneMatch(l -> l.contains("omitted"));
        }
    }
}
