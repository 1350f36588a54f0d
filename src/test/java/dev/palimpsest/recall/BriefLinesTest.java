package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.FactId;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A brief's lines in full: dead ends superseded or retracted, with and without a run, across several
 * entities; provenance once per group of lines written in one commit by one actor and run, citing one
 * source, and every line with its fact id.
 */
class BriefLinesTest {
    static final String HEX = "[0-9a-f]{12}";

    @TempDir
    Path dir;

    private static void claim(Store s, String id, String subject, String object, FactId src, String run)
            throws Exception {
        ClaimSpec spec = ClaimSpec.of(subject, "times out after", object, src).id(FactId.of(id));
        s.claims().claim(TestStores.ALICE, run == null ? spec : spec.run(run));
    }

    private static void supersede(Store s, String old, String id, String subject, String object, FactId src)
            throws Exception {
        s.claims().supersede(TestStores.ALICE, FactId.of(old), ClaimSpec.of(subject, "times out after", object, src)
                .id(FactId.of(id)));
    }

    @Test
    void deadEndLinesSayWhatCorrectedThemUnderTheirGroupsProvenance() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "incident-9");
            claim(s, "v1", "auth-service", "30s", doc, "run-7");
            supersede(s, "v1", "v2", "auth-service", "20s", doc);
            supersede(s, "v2", "v3", "auth-service", "10s", doc);
            claim(s, "x1", "auth-service", "5s", doc, null);
            var tx = s.begin(TestStores.ALICE);
            tx.retract(FactId.of("x1"), "never measured");
            tx.commit();
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").build().withMaxDeadEnds(2));
            assertThat(b.sections()).extracting(Brief.Section::name).containsExactly(Brief.KNOWN, Brief.DEAD_ENDS);
            List<String> dead = b.sections().get(1).lines();
            assertThat(dead).hasSize(4);
            // one group: without a run, citing incident-9 (the day and actor, common to all, are said once)
            assertThat(dead.get(0)).isEqualTo("- source incident-9:");
            // retracted: no longer live at the brief's commit, so pinned at its last version
            assertThat(dead.get(1)).matches("  - x1@" + HEX + ": auth-service times out after 5s \\(retracted at " + HEX
                    + "\\)");
            assertThat(dead.get(2)).isEqualTo("  - v2: auth-service times out after 20s (superseded by v3)");
            assertThat(dead.get(3)).isEqualTo("- (+1 older correction omitted)");
            Brief all = s.recall().brief(BriefRequest.builder().entity("auth-service").build());
            List<String> allDead = all.sections().get(1).lines();
            assertThat(allDead).hasSize(5);
            assertThat(allDead.get(3)).isEqualTo("- run run-7, source incident-9:");
            assertThat(allDead.get(4)).isEqualTo("  - v1: auth-service times out after 30s (superseded by v2)");
        }
    }

    @Test
    void deadEndsOfSeveralEntitiesAreMergedNewestCorrectionFirst() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "incident-9");
            claim(s, "a1", "auth-service", "30s", doc, null);
            claim(s, "r1", "redis", "3s", doc, null);
            supersede(s, "a1", "a2", "auth-service", "20s", doc);
            supersede(s, "r1", "r2", "redis", "2s", doc);
            supersede(s, "a2", "a3", "auth-service", "10s", doc);
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").entity("redis").build().withMaxDeadEnds(2));
            List<String> dead = members(b.sections().get(b.sections().size() - 1).lines());
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0)).startsWith("  - a2: auth-service times out after 20s (superseded by a3");
            assertThat(dead.get(1)).startsWith("  - r1: redis times out after 3s (superseded by r2");
            assertThat(dead.get(2)).isEqualTo("- (+1 older correction omitted)");
        }
    }

    @Test
    void aFactWithoutATripleIsListedByItsBodyAndOnlyDirectHitsBringTheirSubjectsDeadEnds() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "incident-9");
            RecallStoriesTest.claim(s, "a1", "auth-service", "depends on", "redis", doc);
            claim(s, "r1", "redis", "3s", doc, null);
            supersede(s, "r1", "r2", "redis", "2s", doc);
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").query("document").maxDeadEnds(5).build());
            assertThat(b.sections()).extracting(Brief.Section::name).containsExactly(Brief.KNOWN);
            List<String> known = b.sections().get(0).lines();
            int doc9 = known.indexOf("  - incident-9: document incident-9");
            assertThat(doc9).isPositive();
            assertThat(known.get(doc9 - 1)).isEqualTo("- no run, no source:");
            int redis = known.indexOf("  - r2: redis times out after 2s (related via auth-service)");
            assertThat(redis).isPositive();
            assertThat(known.get(redis - 1)).isEqualTo("- source incident-9:");
        }
    }

    @Test
    void deadEndsCorrectedInOneCommitAreListedById() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "incident-9");
            claim(s, "a1", "auth-service", "30s", doc, null);
            claim(s, "r1", "redis", "3s", doc, null);
            var tx = s.begin(TestStores.ALICE);
            tx.retract(FactId.of("r1"), "wrong");
            tx.retract(FactId.of("a1"), "wrong");
            tx.commit();
            Brief b = s.recall().brief(BriefRequest.builder().entity("redis").entity("auth-service").build());
            assertThat(b.sections()).extracting(Brief.Section::name).containsExactly(Brief.DEAD_ENDS);
            List<String> lines = b.sections().get(0).lines();
            assertThat(lines.get(0)).startsWith("- as of commit ");
            lines = lines.subList(1, lines.size());
            assertThat(members(lines)).hasSize(2).satisfiesExactly(
                    l -> assertThat(l).matches("  - a1@" + HEX + ": auth-service times out after 30s \\(retracted at .*"),
                    l -> assertThat(l).matches("  - r1@" + HEX + ": redis times out after 3s \\(retracted at .*"));
            assertThat(lines.get(0)).isEqualTo("- source incident-9:");
        }
    }

    /** The entry lines of a section: its members and lines of their own, without group headers. */
    static List<String> members(List<String> lines) {
        return lines.stream().filter(l -> !(l.startsWith("- ") && l.endsWith(":"))).toList();
    }
}
