package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spelling channel's shortest words: a query word, or the whole query without spaces, of three letters. */
class SpellingChannelTest {
    @TempDir
    Path dir;

    @Test
    void aThreeLetterWordOfALongerQuerySpellsAThreeLetterKey() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "edge-doc");
            RecallStoriesTest.claim(s, "c1", "c-d-n", "serves", "static files", doc);
            // cdn is no word of c1's text (c, d, n); the whole query cdnxyz is 0.4 similar to cdn
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("cdn xyz").build().with(10, 0));
            assertThat(hits).singleElement().satisfies(h -> {
                assertThat(h.id()).isEqualTo(FactId.of("c1"));
                assertThat(h.channel()).isEqualTo(Channel.SPELLING);
                // one of the question's two words: a hint that weighs its share, 0.9 * 1.0 * 1/2
                assertThat(h.score()).isEqualTo(0.45);
            });
            // the key alone is the whole question: its full similarity
            assertThat(s.recall().search(SearchQuery.builder("cdn").build().with(10, 0))).singleElement()
                    .satisfies(h -> assertThat(h.score()).isEqualTo(0.9));
        }
    }

    @Test
    void aQueryOfThreeLettersWithoutItsSpacesNamesAThreeLetterKey() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "edge-doc");
            RecallStoriesTest.claim(s, "c1", "c-d-n", "serves", "static files", doc);
            // c.d.n is one word to the text channel, but its key c d n is the subject key: named, not fuzzed
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("c.d.n").build().with(10, 0));
            assertThat(hits).singleElement().satisfies(h -> {
                assertThat(h.id()).isEqualTo(FactId.of("c1"));
                assertThat(h.channel()).isEqualTo(Channel.LEXICAL);
            });
        }
    }
}
