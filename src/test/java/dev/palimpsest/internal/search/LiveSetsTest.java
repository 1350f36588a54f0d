package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * The kept live sets answer what the range filters over {@code from} and {@code to} answer, at every
 * commit number and after the {@code to} of versions is updated, however the segments fall.
 */
class LiveSetsTest {
    private static final int OPEN = Integer.MAX_VALUE;

    /** What the index filtered by before the sets were kept: from <= seq < to, by points and doc values. */
    private static Query ranges(int seq) {
        return new BooleanQuery.Builder()
                .add(new IndexOrDocValuesQuery(IntPoint.newRangeQuery(FactDocs.FROM, Integer.MIN_VALUE, seq),
                        NumericDocValuesField.newSlowRangeQuery(FactDocs.FROM, Long.MIN_VALUE, seq)), Occur.FILTER)
                .add(NumericDocValuesField.newSlowRangeQuery(FactDocs.TO, seq + 1L, Long.MAX_VALUE), Occur.FILTER)
                .build();
    }

    private static TreeSet<String> ids(IndexSearcher s, Query filter) throws IOException {
        Query q = new BooleanQuery.Builder().add(new MatchAllDocsQuery(), Occur.MUST).add(filter, Occur.FILTER).build();
        TreeSet<String> out = new TreeSet<>();
        for (ScoreDoc sd : s.search(q, Integer.MAX_VALUE).scoreDocs) {
            out.add(s.storedFields().document(sd.doc).get("k"));
        }
        return out;
    }

    @Test
    void keptSetsMatchTheRangeFiltersAtEveryCommitAsVersionsEnd() throws IOException {
        long seed = Long.getLong("palimpsest.seed", System.nanoTime());
        Random rnd = new Random(seed);
        LiveSets live = new LiveSets();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
                IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setMaxBufferedDocs(7))) {
            List<String> open = new ArrayList<>();
            int n = 0;
            for (int seq = 0; seq < 40; seq++) {
                // this commit ends some open versions (their to becomes seq) and writes new ones
                for (int e = rnd.nextInt(3); e > 0 && !open.isEmpty(); e--) {
                    String k = open.remove(rnd.nextInt(open.size()));
                    w.updateNumericDocValue(new Term("k", k), FactDocs.TO, seq);
                }
                for (int a = 1 + rnd.nextInt(4); a > 0; a--) {
                    String k = "v" + n++;
                    Document d = new Document();
                    d.add(new StringField("k", k, Field.Store.YES));
                    d.add(new IntPoint(FactDocs.FROM, seq));
                    d.add(new NumericDocValuesField(FactDocs.FROM, seq));
                    d.add(new NumericDocValuesField(FactDocs.TO, OPEN));
                    w.addDocument(d);
                    open.add(k);
                }
                if (rnd.nextInt(3) == 0) {
                    w.commit();
                }
                // ask at every commit so far, twice (the second answer comes from the kept sets)
                try (DirectoryReader r = DirectoryReader.open(w)) {
                    IndexSearcher s = new IndexSearcher(r);
                    s.setQueryCache(null);
                    for (int at = 0; at <= seq; at++) {
                        TreeSet<String> want = ids(s, ranges(at));
                        assertThat(ids(s, live.at(at))).as("seed %d, asked at %d after %d", seed, at, seq).isEqualTo(want);
                        assertThat(ids(s, live.at(at))).as("seed %d, kept", seed).isEqualTo(want);
                        assertThat(live.count(s, at)).isEqualTo(want.size());
                    }
                }
            }
        }
    }

    @Test
    void aSegmentWhoseEndsChangeIsNotAnsweredFromItsKeptSet() throws IOException {
        LiveSets live = new LiveSets();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
                IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
            for (int i = 0; i < 3; i++) {
                Document d = new Document();
                d.add(new StringField("k", "v" + i, Field.Store.YES));
                d.add(new IntPoint(FactDocs.FROM, 1));
                d.add(new NumericDocValuesField(FactDocs.FROM, 1));
                d.add(new NumericDocValuesField(FactDocs.TO, OPEN));
                w.addDocument(d);
            }
            w.commit();
            try (DirectoryReader r = DirectoryReader.open(w)) {
                assertThat(ids(new IndexSearcher(r), live.at(5))).containsExactly("v0", "v1", "v2");
            }
            // an end at or before the commit asked about (a renumbered chain) must show at that very commit
            w.updateNumericDocValue(new Term("k", "v1"), FactDocs.TO, 3);
            try (DirectoryReader r = DirectoryReader.open(w)) {
                assertThat(ids(new IndexSearcher(r), live.at(5))).containsExactly("v0", "v2");
                assertThat(ids(new IndexSearcher(r), live.at(2))).containsExactly("v0", "v1", "v2");
            }
        }
    }
}
