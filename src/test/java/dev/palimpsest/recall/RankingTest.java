package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranker's order among equal scores, which hits a hop starts from, and how deep each text channel looks. */
class RankingTest {
    @TempDir
    Path dir;

    private static final FactId DOC = FactId.of("doc");

    /** An assertion of the triple, resting on the source doc, and superseding {@code old} when not null. */
    private static void assertion(Transaction tx, String id, String subject, String predicate, String object, String body,
            String old) throws Exception {
        List<RefSpec> refs = new ArrayList<>(List.of(new RefSpec(DOC, null, RefRole.SOURCE, null)));
        if (old != null) {
            refs.add(RefSpec.of(FactId.of(old), RefRole.SUPERSEDES));
        }
        tx.assertFact(FactSpec.of(Kind.ASSERTION, body).id(FactId.of(id)).refs(refs)
                .grounding(Grounding.triple(subject, predicate, object)));
    }

    private static void assertion(Transaction tx, String id, String subject, String predicate, String object)
            throws Exception {
        assertion(tx, id, subject, predicate, object, subject + " " + predicate + " " + object, null);
    }

    @Test
    void atEqualScoresFewerHopsComeFirst() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            RecallStoriesTest.source(s, "doc");
            Transaction tx = s.begin(TestStores.ALICE);
            assertion(tx, "a-anchor", "anchor", "links", "pier");
            assertion(tx, "b-hop", "pier", "holds", "boats");
            assertion(tx, "c-spell", "abcdxy", "is", "far"); // abcdqr: 2 of 4 + 4 trigrams shared, 0.5
            tx.commit();
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("abcdqr").entity("anchor").build().with(10, 1));
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("a-anchor", "c-spell", "b-hop");
            assertThat(hits.get(1).score()).isEqualTo(hits.get(2).score()).isEqualTo(0.45);
            assertThat(hits.get(1).channel()).isEqualTo(Channel.SPELLING);
            assertThat(hits.get(2).hops()).isEqualTo(1);
        }
    }

    @Test
    void aHopStartsFromTheTenBestHitsOnly() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            RecallStoriesTest.source(s, "doc");
            Transaction tx = s.begin(TestStores.ALICE);
            List<String> named = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                assertion(tx, "s" + i, "solo-" + i, "keeps", "thing-" + i); // named: 1.0, no neighbours
                assertion(tx, "w" + i, "wharf-" + i, "stores", "cargo-" + i); // text: 0.9, one neighbour each
                assertion(tx, "n" + i, "cargo-" + i, "weighs", "ton-" + i);
                named.add("solo-" + i);
            }
            tx.commit();
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("stores").entities(named).build().with(30, 1));
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8",
                    "s9", "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9");
            List<SearchHit> more = s.recall().search(SearchQuery.builder("stores").entities(named.subList(0, 9)).build().with(30, 1));
            assertThat(more).filteredOn(h -> h.hops() == 1).singleElement().satisfies(h -> {
                assertThat(h.via()).isEqualTo(FactId.of("w0")); // the best text hit, ties by id
                assertThat(h.id()).isEqualTo(FactId.of("n0"));
            });
        }
    }

    @Test
    void theTextChannelLooksDeeperThanTheLimitPastSupersededMatches() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            RecallStoriesTest.source(s, "doc");
            Transaction tx = s.begin(TestStores.ALICE);
            for (int i = 0; i < 21; i++) {
                assertion(tx, "p" + i, "pier-" + i, "sees", "harbour");
            }
            assertion(tx, "t", "crane", "stands by", "the old western harbour wall near dock nine");
            tx.commit();
            tx = s.begin(TestStores.ALICE);
            for (int i = 0; i < 21; i++) {
                assertion(tx, "q" + i, "pier-" + i, "sees", "sea", "pier-" + i + " sees sea", "p" + i);
            }
            tx.commit();
            // 21 superseded versions match better; a pool of 3 * 1 + 20 still reaches the 22nd
            assertThat(s.recall().search(SearchQuery.builder("harbour").build().with(1, 0))).singleElement()
                    .satisfies(h -> {
                        assertThat(h.id()).isEqualTo(FactId.of("t"));
                        assertThat(h.channel()).isEqualTo(Channel.LEXICAL);
                    });
        }
    }

    @Test
    void theSpellingChannelLooksDeeperThanTheLimitPastSupersededMatches() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            RecallStoriesTest.source(s, "doc");
            Transaction tx = s.begin(TestStores.ALICE);
            for (int i = 0; i < 21; i++) {
                assertion(tx, "h" + i, "harbourmaster", "logs", "tide-" + i);
            }
            assertion(tx, "t", "harbourmasters", "keep", "watch"); // harbormaster: 8 of 10 + 12 trigrams: 16 / 22
            tx.commit();
            tx = s.begin(TestStores.ALICE);
            for (int i = 0; i < 21; i++) {
                assertion(tx, "d" + i, "dockmaster", "logs", "tide-" + i, "dockmaster logs tide-" + i, "h" + i);
            }
            tx.commit();
            // misspelt (no word of the index): the 21 superseded harbourmaster keys spell it better (16 / 21)
            assertThat(s.recall().search(SearchQuery.builder("harbormaster").build().with(1, 0))).singleElement()
                    .satisfies(h -> {
                        assertThat(h.id()).isEqualTo(FactId.of("t"));
                        assertThat(h.channel()).isEqualTo(Channel.SPELLING);
                        assertThat(h.score()).isEqualTo(0.9 * (2.0 * 8 / 22));
                    });
        }
    }
}
