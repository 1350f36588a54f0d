package dev.palimpsest.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(Seeds.class)
class SpellingTest {

    @Test
    void theKeyDictionaryFindsExactlyTheKeysAtLeastHalfSimilarWithTheirSimilarity(Seed seed) throws IOException {
        Random rnd = seed.random();
        String alphabet = "abcde"; // few letters: many shared trigrams, the hard case for candidates
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            keys.add(word(rnd, alphabet, 1 + rnd.nextInt(30)));
        }
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
                IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(FactDocs.analyzer()))) {
            for (String k : keys) {
                Document d = new Document();
                d.add(new StringField(FactDocs.CKEY, k, Field.Store.NO));
                w.addDocument(d);
                if (rnd.nextInt(100) == 0) {
                    w.flush(); // several segments
                }
            }
            w.commit();
            try (DirectoryReader r = DirectoryReader.open(dir)) {
                List<Spelling.Keys> dictionaries = new ArrayList<>();
                for (LeafReaderContext leaf : r.leaves()) {
                    dictionaries.add(Spelling.Keys.of(leaf.reader()));
                }
                assertTrue(dictionaries.size() > 1, "several segments");
                for (int q = 0; q < 300; q++) {
                    String word = q % 3 == 0 ? keys.get(rnd.nextInt(keys.size())) : word(rnd, alphabet, 3 + rnd.nextInt(20));
                    if (word.length() < FactDocs.GRAM) {
                        continue;
                    }
                    Map<String, Double> expected = new TreeMap<>();
                    for (String k : keys) {
                        double sim = Spelling.similarity(word, k);
                        if (sim >= Spelling.MIN_SIMILARITY && !Spelling.grams(k).isEmpty()) {
                            expected.merge(k, sim, Math::max);
                        }
                    }
                    Map<String, Double> found = new TreeMap<>();
                    for (Spelling.Keys k : dictionaries) {
                        k.matches(Spelling.grams(word), found);
                    }
                    assertEquals(expected, found, "query " + word);
                }
            }
        }
    }

    @Test
    void aDictionaryOfTensOfThousandsOfTrigramsFindsEveryKeyAtItsSimilarity(Seed seed) {
        Random rnd = seed.random();
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"; // 46656 trigrams: the code table grows many times
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            keys.add(i + word(rnd, alphabet, 12));
        }
        Spelling.Keys dictionary = Spelling.Keys.of(keys);
        assertEquals(4000, dictionary.size());
        for (int q = 0; q < 40; q++) {
            String word = keys.get(rnd.nextInt(keys.size()));
            Map<String, Double> expected = new TreeMap<>();
            for (String k : keys) {
                double sim = Spelling.similarity(word, k);
                if (sim >= Spelling.MIN_SIMILARITY) {
                    expected.put(k, sim);
                }
            }
            Map<String, Double> found = new TreeMap<>();
            dictionary.matches(Spelling.grams(word), found);
            assertEquals(expected, found, "query " + word);
        }
    }

    @Test
    void theThresholdIsInclusiveAndSpacesDoNotCount() {
        Spelling.Keys keys = Spelling.Keys.of(List.of("authservice", "abcdef", "abcxyz", "redis"));
        Map<String, Double> found = new TreeMap<>();
        keys.matches(Spelling.grams("authservice"), found);
        assertEquals(Map.of("authservice", 1.0), found, "auth-service's compact key, found by authservice");
        found.clear();
        // abcd: {abc, bcd}; abcdef: {abc, bcd, cde, def}: 2*2/(2+4) = 0.67; abcxyz: 2*1/(2+4) = 0.33
        keys.matches(Spelling.grams("abcd"), found);
        assertEquals(Map.of("abcdef", 2.0 * 2 / 6), found);
        found.clear();
        // abcdefgh: 6 trigrams; abcdef shares 4 of its 4: 8/10 = 0.8; abcxyz shares 1: 2/10
        keys.matches(Spelling.grams("abcdefgh"), found);
        assertEquals(Map.of("abcdef", 0.8), found);
        found.clear();
        Spelling.Keys edge = Spelling.Keys.of(List.of("abcdxy")); // {abc, bcd, cdx, dxy}
        keys.matches(Spelling.grams("redsi"), found);
        assertTrue(found.isEmpty(), "redsi / redis share one trigram of three each: 0.33, below the threshold");
        edge.matches(Spelling.grams("abcdqr"), found); // {abc, bcd, cdq, dqr}: 2*2/8 = 0.5
        assertEquals(Map.of("abcdxy", 0.5), found, "exactly the minimum similarity is found");
        assertEquals(0.5, Spelling.MIN_SIMILARITY, "the documented minimum similarity");
        found.clear();
        Spelling.Keys unicode = Spelling.Keys.of(List.of("東京タワー", "東京駅前", "\ud83d\ude00\ud83d\ude00x"));
        unicode.matches(Spelling.grams("東京タワー"), found);
        assertEquals(Map.of("東京タワー", 1.0), found, "trigrams of UTF-16 units, as the similarity counts them");
        found.clear();
        unicode.matches(Spelling.grams("\ud83d\ude00\ud83d\ude00x"), found);
        assertEquals(Map.of("\ud83d\ude00\ud83d\ude00x", 1.0), found);
    }

    @Test
    void similarityIsDiceOverTrigramSets() {
        assertEquals(1.0, Spelling.similarity("authservice", "authservice"));
        assertEquals(1.0 / 3, Spelling.similarity("redsi", "redis"), 1e-9);
        assertEquals(0.0, Spelling.similarity("ab", "abc"));
    }

    private static String word(Random rnd, String alphabet, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        return b.toString();
    }
}
