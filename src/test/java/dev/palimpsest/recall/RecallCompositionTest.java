package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ranking that composes: bands ordered by relevance, mentions as boosts, spelling for misspellings only, English analysis. */
class RecallCompositionTest {
    @TempDir
    Path dir;

    /** Gina's two claims (subject Gina, the observation as the object) and Gino's one. */
    private static void gina(Store s) throws Exception {
        FactId doc = RecallStoriesTest.source(s, "chat");
        RecallStoriesTest.claim(s, "g-job", "Gina", "said", "Gina lost her job at Door Dash", doc);
        RecallStoriesTest.claim(s, "g-dance", "Gina", "said", "Gina wants to open a dance studio", doc);
        RecallStoriesTest.claim(s, "o-boat", "Gino", "said", "Gino sold his boat", doc);
    }

    private static void plain(Store s, String id, String body) throws Exception {
        var tx = s.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.HYPOTHESIS, body).id(FactId.of(id)));
        tx.commit();
    }

    private static List<SearchHit> search(Store s, String text, List<String> entities) throws Exception {
        return s.recall().search(SearchQuery.builder(text).entities(entities).hops(0).build());
    }

    @Test
    void whatDidGinaSayAboutDanceRanksHerDanceStudioAboveHerLostJob() throws Exception {
        try (Store s = TestStores.init(dir)) {
            gina(s);
            List<SearchHit> hits = search(s, "What did Gina say about dance?", List.of());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("g-dance", "g-job");
            assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        }
    }

    @Test
    void namingAnEntityKeepsHerClaimsAboveTextHitsAndOrdersThemByRelevance() throws Exception {
        try (Store s = TestStores.init(dir)) {
            gina(s);
            plain(s, "h-dance", "a dance class opens on Fridays");
            List<SearchHit> hits = search(s, "dance", List.of("Gina"));
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("g-dance", "g-job", "h-dance");
            assertThat(hits.get(1).score()).isGreaterThan(0.9).isLessThan(hits.get(0).score());
            assertThat(hits.subList(0, 2)).allSatisfy(h -> assertThat(h.channel()).isEqualTo(Channel.ENTITY));
            assertThat(hits.get(2).score()).isEqualTo(0.9);
        }
    }

    @Test
    void aNameInTheQueryBoostsItsClaimsInsteadOfScoringThemFlat() throws Exception {
        try (Store s = TestStores.init(dir)) {
            gina(s);
            plain(s, "h-studio", "the studio lease ends in May");
            // studio alone: the plain fact and Gina's dance claim; naming Gina lifts her claim above it
            assertThat(RecallStoriesTest.ids(search(s, "studio", List.of()))).containsExactlyInAnyOrder("h-studio",
                    "g-dance");
            List<SearchHit> hits = search(s, "Gina studio", List.of());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("g-dance", "g-job", "h-studio");
            assertThat(hits).allSatisfy(h -> assertThat(h.channel()).isEqualTo(Channel.LEXICAL));
        }
    }

    @Test
    void aClaimWhoseObjectNamesItsSubjectIsFoundByItsSentenceAndStillByItsPredicate() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            gina(s);
            plain(s, "h-dance", "Gina wants to open a dance studio");
            // the claim's words are its sentence: it scores as the plain fact that says the same
            List<SearchHit> hits = search(s, "open a dance studio", List.of());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("g-dance", "h-dance");
            assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
            // its predicate is no word of the sentence, but still finds it
            assertThat(RecallStoriesTest.ids(search(s, "said", List.of()))).containsExactlyInAnyOrder("g-job",
                    "g-dance", "o-boat");
        }
    }

    @Test
    void aMisspeltNameAmongOtherWordsWeighsItsShareOfThem() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            RecallStoriesTest.claim(s, "gd", "Geraldine", "runs", "the bakery", RecallStoriesTest.source(s, "chat"));
            plain(s, "h-cake", "a birthday cake for the party");
            double alone = search(s, "Geraldina", List.of()).get(0).score();
            // one word of four (the four without spaces are too far from the key to spell it)
            List<SearchHit> hits = search(s, "Geraldina birthday cake party", List.of());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("h-cake", "gd");
            assertThat(hits.get(1).channel()).isEqualTo(Channel.SPELLING);
            assertThat(hits.get(1).score()).isCloseTo(alone / 4, org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void aCorrectlySpeltNameIsNotFuzzedIntoAnotherButAMisspeltOneIsCorrected() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            gina(s);
            // gina and gino share half their trigrams: enough for a correction, but gina is spelt right
            assertThat(RecallStoriesTest.ids(search(s, "Gina", List.of()))).containsExactlyInAnyOrder("g-job",
                    "g-dance");
            FactId doc = FactId.of("chat");
            RecallStoriesTest.claim(s, "gd", "Geraldine", "runs", "the bakery", doc);
            assertThat(search(s, "Geraldina", List.of())).singleElement().satisfies(h -> {
                assertThat(h.id()).isEqualTo(FactId.of("gd"));
                assertThat(h.channel()).isEqualTo(Channel.SPELLING);
            });
        }
    }

    @Test
    void namingAnEntityReachesPlainFactsThatMentionItInTheirBody() throws Exception {
        try (Store s = TestStores.init(dir)) {
            gina(s);
            plain(s, "h-salsa", "Gina will teach salsa on Fridays");
            plain(s, "h-other", "the salsa class is full");
            List<SearchHit> hits = search(s, "", List.of("Gina"));
            assertThat(RecallStoriesTest.ids(hits)).containsExactlyInAnyOrder("g-job", "g-dance", "h-salsa");
            SearchHit salsa = hits.stream().filter(h -> h.id().value().equals("h-salsa")).findFirst().orElseThrow();
            assertThat(salsa.channel()).isEqualTo(Channel.ENTITY);
            assertThat(salsa.score()).isGreaterThan(0.9).isLessThan(1.0);
            assertThat(hits.get(2).id()).isEqualTo(FactId.of("h-salsa"));
        }
    }

    @Test
    void ginasJobsFindsMyJobTextAboutGina() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "chat");
            RecallStoriesTest.claim(s, "g-job", "Gina", "said", "I hate my job", doc);
            plain(s, "h-weather", "it rained all week");
            assertThat(RecallStoriesTest.ids(search(s, "Gina's jobs", List.of()))).containsExactly("g-job");
            assertThat(RecallStoriesTest.ids(search(s, "jobs", List.of()))).containsExactly("g-job");
        }
    }

    @Test
    void anExactWordOutranksAMatchOfItsStemOnly() throws Exception {
        try (Store s = TestStores.init(dir)) {
            plain(s, "a", "the runner trained at dawn");
            plain(s, "b", "the runners trained at dawn");
            List<SearchHit> hits = search(s, "runners", List.of());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("b", "a");
            assertThat(hits.get(1).score()).isLessThan(hits.get(0).score());
        }
    }
}
