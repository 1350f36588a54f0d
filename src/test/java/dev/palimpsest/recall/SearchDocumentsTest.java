package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.Sentence;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a fact's search document holds: its triple's parts and words, and its refs' and receipts' members for hops. */
class SearchDocumentsTest {
    @TempDir
    Path dir;

    private static final FactId DOC = FactId.of("doc");
    private static final FactId A1 = FactId.of("a1");

    /** A source and an assertion resting on it: ERK regulates apoptosis. */
    private static void seed(Store s) throws Exception {
        RecallStoriesTest.source(s, "doc");
        var tx = s.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.ASSERTION, "ERK regulates apoptosis").id(A1)
                .refs(List.of(new RefSpec(DOC, null, RefRole.SOURCE, null)))
                .grounding(Grounding.triple("ERK", "regulates", "apoptosis")));
        tx.commit();
    }

    private static List<SearchHit> search(Store s, String text, int hops) throws Exception {
        return s.recall().search(SearchQuery.builder(text).hops(hops).build());
    }

    private static List<String> via(List<SearchHit> hits) {
        return hits.stream().map(h -> h.via() == null ? "-" : h.via().value()).toList();
    }

    @Test
    void aHitNamesItsTriplesSubjectPredicateAndObject() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seed(s);
            SearchHit a1 = s.recall().search(SearchQuery.builder().entity("erk").build()).get(0);
            assertThat(a1.id()).isEqualTo(A1);
            assertThat(List.of(a1.subject(), a1.predicate(), a1.object())).containsExactly("ERK", "regulates", "apoptosis");
        }
    }

    @Test
    void aTripleTheBodyDoesNotSpellOutIsFoundByItsWords() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            seed(s);
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.ASSERTION, "a kinase signalling note").id(FactId.of("a2"))
                    .refs(List.of(new RefSpec(DOC, null, RefRole.SOURCE, null)))
                    .grounding(Grounding.triple("MEK", "phosphorylates", "ERK")));
            tx.commit();
            assertThat(search(s, "phosphorylates", 0)).singleElement().satisfies(h -> {
                assertThat(h.id()).isEqualTo(FactId.of("a2"));
                assertThat(h.channel()).isEqualTo(Channel.LEXICAL);
            });
            assertThat(RecallStoriesTest.ids(search(s, "kinase", 0))).containsExactly("a2");
        }
    }

    @Test
    void aHopFollowsACitationToItsTargetAndBackFromIt() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seed(s);
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "a quokka census note").id(FactId.of("c1")).refs(RefSpec.cites(A1)));
            tx.commit();
            List<SearchHit> out = search(s, "quokka", 1);
            assertThat(RecallStoriesTest.ids(out)).containsExactly("c1", "a1");
            assertThat(via(out)).containsExactly("-", "c1");
            assertThat(out.get(1).channel()).isEqualTo(Channel.GRAPH);
            List<SearchHit> in = search(s, "apoptosis", 1);
            assertThat(RecallStoriesTest.ids(in)).containsExactly("a1", "c1");
            assertThat(via(in)).containsExactly("-", "a1");
            assertThat(RecallStoriesTest.ids(search(s, "quokka", 0))).containsExactly("c1");
        }
    }

    @Test
    void aHopFollowsAReceiptToItsMembers() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seed(s);
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.MERGE, "merged pelican view").id(FactId.of("m1"))
                    .grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(A1)))), List.of(), false)));
            tx.commit();
            List<SearchHit> hits = search(s, "pelican", 1);
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("m1", "a1");
            assertThat(via(hits)).containsExactly("-", "m1");
        }
    }

    @Test
    void aHopFollowsEverySentencesReceiptToItsMembers() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seed(s);
            var tx = s.begin(TestStores.ALICE);
            Receipt onA1 = new Receipt(List.of(List.of(Pin.of(A1))));
            Receipt onDoc = new Receipt(List.of(List.of(Pin.of(DOC))));
            tx.assertFact(FactSpec.of(Kind.SUMMARY, "Kestrel counts rose. Kestrel nests moved.").id(FactId.of("s1"))
                    .grounding(new Grounding(null, null, null, null, List.of(new Sentence("Kestrel counts rose.", onA1),
                            new Sentence("Kestrel nests moved.", onDoc)), false)));
            tx.commit();
            List<SearchHit> hits = search(s, "kestrel", 1);
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("s1", "a1", "doc");
            assertThat(via(hits)).containsExactly("-", "s1", "s1");
        }
    }
}
