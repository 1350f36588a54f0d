package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.ClaimView;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A brief around a hit that is one turn of a longer source: the turns before and after it as
 * context, within the budget; dead ends ranked by relevance to the query, in the brief and in
 * {@code deadEnds}.
 */
class BriefContextTest {
    @TempDir
    Path dir;

    static void turns(Store s, String stem, String... bodies) throws Exception {
        var tx = s.begin(TestStores.ALICE);
        for (int i = 0; i < bodies.length; i++) {
            tx.assertFact(FactSpec.of(Kind.SOURCE, bodies[i]).id(FactId.of(stem + (i + 1))));
        }
        tx.commit();
    }

    @Test
    void aHitThatIsOneTurnBringsTheTurnsBeforeAndAfterItAsContext() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            turns(s, "chat-7.turn-", "user: we should plan the offsite", "assistant: which city do you prefer?",
                    "user: Lisbon, the pasteis there are great", "assistant: noted, I will book flights",
                    "user: thanks, also remind me about the dentist");
            Brief b = s.recall().brief(BriefRequest.builder().query("Lisbon pasteis").build());
            List<String> known = b.sections().get(0).lines();
            assertThat(BriefLinesTest.members(known.subList(1, known.size()))).containsExactly(
                    "  - chat-7.turn-2 (context): assistant: which city do you prefer?",
                    "  - chat-7.turn-3: user: Lisbon, the pasteis there are great",
                    "  - chat-7.turn-4 (context): assistant: noted, I will book flights");
            // context is the first thing a budget drops, after every hit
            Brief tight = s.recall().brief(BriefRequest.builder().query("Lisbon pasteis").maxTokens(b.tokens() - 1).build());
            assertThat(tight.omitted()).isEqualTo(1);
            assertThat(BriefLinesTest.members(tight.sections().get(0).lines())).contains(
                    "  - chat-7.turn-3: user: Lisbon, the pasteis there are great").noneMatch(l -> l.contains("turn-4"));
        }
    }

    @Test
    void aTurnThatIsItselfAHitIsNotRepeatedAsContextAndAFactWithoutAPartNumberHasNone() throws Exception {
        try (Store s = TestStores.init(dir)) {
            turns(s, "log.", "deploy of gateway started", "gateway deploy failed on step 3", "rollback of gateway done");
            turns(s, "note-", "gateway runbook", "unrelated note");
            Brief b = s.recall().brief(BriefRequest.builder().query("gateway deploy").build());
            List<String> lines = BriefLinesTest.members(b.sections().get(0).lines());
            assertThat(lines).filteredOn(l -> l.contains("log.2")).hasSize(1);
            assertThat(lines).filteredOn(l -> l.contains("(context)")).allSatisfy(l -> assertThat(l).contains("log."));
            assertThat(lines).noneMatch(l -> l.contains("note-2"));
        }
    }

    @Test
    void sectionsImportedNumberedAreTurnsOfTheirNoteAndNamedByHeadingTheyAreNot() throws Exception {
        Path notes = java.nio.file.Files.createDirectories(dir.resolve("notes"));
        java.nio.file.Files.writeString(notes.resolve("on-call.md"), "Paging policy for the platform team.\n\n"
                + "## Escalation\nPage the secondary after 15 minutes.\n\n## Redis failover\nPromote the replica with"
                + " sentinel failover.\n\n## Postmortems\nWrite one within two days.\n");
        try (Store s = TestStores.init(dir.resolve("store"))) {
            var plain = s.bulk().importNotes(TestStores.ALICE, notes, dev.palimpsest.model.ImportOptions.defaults()
                    .split(dev.palimpsest.model.NoteSplit.H2).idPrefix("kb-"));
            assertThat(plain.added()).extracting(FactId::value).contains("kb-on-call.redis-failover");
            var numbered = s.bulk().importNotes(TestStores.ALICE, notes, dev.palimpsest.model.ImportOptions.defaults()
                    .split(dev.palimpsest.model.NoteSplit.H2).numbered(true));
            assertThat(numbered.added()).extracting(FactId::value).containsExactly("note-on-call.0", "note-on-call.1",
                    "note-on-call.2", "note-on-call.3");
            Brief b = s.recall().brief(BriefRequest.builder().query("sentinel failover replica").build());
            List<String> lines = BriefLinesTest.members(b.sections().get(0).lines());
            assertThat(lines).contains("  - note-on-call.1 (context): ## Escalation Page the secondary after 15 minutes.",
                    "  - note-on-call.3 (context): ## Postmortems Write one within two days.");
            assertThat(lines).noneMatch(l -> l.startsWith("  - kb-on-call.") && l.contains("(context)"));
        }
    }

    @Test
    void withAQueryDeadEndsComeMostRelevantFirstInTheBriefAndInDeadEnds() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "ops-doc");
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth-service", "listens on port", "8080", doc).id(FactId.of("p1")));
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth-service", "times out after", "30s", doc).id(FactId.of("t1")));
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth-service", "deployed to", "eu-west-1", doc).id(FactId.of("m1")));
            s.claims().supersede(TestStores.ALICE, FactId.of("t1"), ClaimSpec.of("auth-service", "times out after", "10s", doc)
                    .id(FactId.of("t2")));
            s.claims().supersede(TestStores.ALICE, FactId.of("p1"), ClaimSpec.of("auth-service", "listens on port", "8443", doc)
                    .id(FactId.of("p2")));
            s.claims().supersede(TestStores.ALICE, FactId.of("m1"), ClaimSpec.of("auth-service", "deployed to", "eu-central-1",
                    doc).id(FactId.of("m2")));
            // newest correction first without a query
            assertThat(s.claims().deadEnds("auth-service", 5).kept()).extracting(v -> v.id().value())
                    .containsExactly("m1", "p1", "t1");
            DeadEnds ranked = s.claims().deadEnds("auth-service", "why does it time out?", 2);
            assertThat(ranked.kept()).extracting(v -> v.id().value()).containsExactly("t1", "m1");
            assertThat(ranked.omitted()).isEqualTo(1);
            assertThat(s.claims().at(s.head()).deadEnds("auth-service", "port", 5).kept()).extracting(ClaimView::object)
                    .containsExactly("8080", "eu-west-1", "30s");
            assertThat(s.claims().deadEnds("auth-service", "  ", 5).kept()).extracting(v -> v.id().value())
                    .containsExactly("m1", "p1", "t1");
            Brief b = s.recall().brief(BriefRequest.builder().entity("auth-service").query("when does it time out").maxDeadEnds(1).build());
            List<String> dead = b.sections().get(b.sections().size() - 1).lines();
            assertThat(BriefLinesTest.members(dead)).containsExactly(
                    "  - t1: auth-service times out after 30s (superseded by t2)", "- (+2 less relevant corrections omitted)");
        }
    }
}
