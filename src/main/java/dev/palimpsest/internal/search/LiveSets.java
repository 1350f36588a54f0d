package dev.palimpsest.internal.search;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * The documents live at a commit number ({@code from <= seq < to}), one bit set per segment, kept
 * for the last {@value #KEPT} (segment reader, commit number) pairs, so that the questions asked at
 * one commit read the segments' doc values once instead of once per query clause. A segment reader
 * is keyed by its reader cache key, which changes whenever its doc values are updated (a version's
 * {@code to} is set when it ends), so a kept set is never stale. Thread-safe; the sets are
 * immutable once made.
 */
final class LiveSets {
    /** Segment sets kept (each a bit per document: 12.5 kB per 100,000 documents). */
    static final int KEPT = 64;

    private record Key(IndexReader.CacheKey reader, int seq) {}

    /** Guarded by itself. */
    private final Map<Key, FixedBitSet> kept = new LinkedHashMap<>(KEPT * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, FixedBitSet> eldest) {
            return size() > KEPT;
        }
    };

    /** A filter matching the documents live at {@code seq}, made from (and adding to) the kept sets. */
    Query at(int seq) {
        return new LiveAt(this, seq);
    }

    /** How many documents of {@code s} are live at {@code seq}. */
    int count(IndexSearcher s, int seq) throws IOException {
        int n = 0;
        for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            n += set(leaf.reader(), seq).cardinality();
        }
        return n;
    }

    /** The documents of one segment live at {@code seq}. */
    FixedBitSet set(LeafReader reader, int seq) throws IOException {
        IndexReader.CacheHelper helper = reader.getReaderCacheHelper();
        Key key = helper == null ? null : new Key(helper.getKey(), seq);
        if (key != null) {
            synchronized (kept) {
                FixedBitSet b = kept.get(key);
                if (b != null) {
                    return b;
                }
            }
        }
        FixedBitSet b = compute(reader, seq);
        if (key != null) {
            synchronized (kept) {
                kept.put(key, b);
            }
        }
        return b;
    }

    private static FixedBitSet compute(LeafReader reader, int seq) throws IOException {
        FixedBitSet b = new FixedBitSet(Math.max(1, reader.maxDoc()));
        NumericDocValues to = DocValues.getNumeric(reader, FactDocs.TO);
        NumericDocValues from = DocValues.getNumeric(reader, FactDocs.FROM);
        for (int d = to.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = to.nextDoc()) {
            if (to.longValue() > seq && from.advanceExact(d) && from.longValue() <= seq) {
                b.set(d);
            }
        }
        return b;
    }

    /** The filter: a constant-score query over the kept sets. Not cached by Lucene's query cache. */
    private static final class LiveAt extends Query {
        private final LiveSets sets;
        private final int seq;

        LiveAt(LiveSets sets, int seq) {
            this.sets = sets;
            this.seq = seq;
        }

        @Override
        public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
            return new ConstantScoreWeight(this, boost) {
                @Override
                public Scorer scorer(LeafReaderContext context) throws IOException {
                    FixedBitSet b = sets.set(context.reader(), seq);
                    int n = b.cardinality();
                    if (n == 0) {
                        return null;
                    }
                    return new ConstantScoreScorer(this, score(), scoreMode, new BitSetIterator(b, n));
                }

                @Override
                public boolean isCacheable(LeafReaderContext ctx) {
                    return false;
                }
            };
        }

        @Override
        public void visit(QueryVisitor visitor) {
            visitor.visitLeaf(this);
        }

        @Override
        public String toString(String field) {
            return "live@" + seq;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LiveAt l && l.sets == sets && l.seq == seq;
        }

        @Override
        public int hashCode() {
            return Objects.hash(System.identityHashCode(sets), seq);
        }
    }
}
