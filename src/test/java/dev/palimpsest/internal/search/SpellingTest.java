package dev.palimpsest.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(Seeds.class)
class SpellingTest {

    @Test
    void lengthClassedTrigramTermsFindEveryKeyAtLeastHalfSimilar(Seed seed) throws IOException {
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
                d.add(new StringField("key", k, Field.Store.YES));
                for (String t : Spelling.terms(k)) {
                    d.add(new StringField(FactDocs.GRAMS, t, Field.Store.NO));
                }
                w.addDocument(d);
                if (rnd.nextInt(100) == 0) {
                    w.flush(); // several segments
                }
            }
            w.commit();
            try (DirectoryReader r = DirectoryReader.open(dir)) {
                IndexSearcher s = new IndexSearcher(r);
                long occupied = 0;
                for (LeafReaderContext leaf : r.leaves()) {
                    occupied |= Spelling.occupied(leaf.reader());
                }
                for (int q = 0; q < 200; q++) {
                    String word = word(rnd, alphabet, 3 + rnd.nextInt(20));
                    Set<String> expected = new TreeSet<>();
                    for (String k : keys) {
                        if (Spelling.similarity(word, k) >= Spelling.MIN_SIMILARITY && !Spelling.grams(k).isEmpty()) {
                            expected.add(k);
                        }
                    }
                    Set<String> found = new TreeSet<>();
                    List<org.apache.lucene.search.Query> classes = Spelling.candidates(word, occupied);
                    if (!classes.isEmpty()) {
                        for (ScoreDoc sd : s.search(new DisjunctionMaxQuery(classes, 0f), keys.size()).scoreDocs) {
                            String k = s.storedFields().document(sd.doc).get("key");
                            double sim = Spelling.similarity(word, k);
                            assertTrue(sd.score + 1e-6 >= sim, "the score bounds the similarity: " + word + " / " + k);
                            if (sim >= Spelling.MIN_SIMILARITY) {
                                found.add(k);
                            }
                        }
                    }
                    assertEquals(expected, found, "query " + word);
                }
            }
        }
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
