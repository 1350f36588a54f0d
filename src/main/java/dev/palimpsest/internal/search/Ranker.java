package dev.palimpsest.internal.search;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * Ranks the fact versions live at a commit for a {@link SearchQuery}. Channels: naming an entity
 * (the fact's subject key) scores 1.0; BM25 over the text scores {@code 0.9 * bm25 / best bm25};
 * the spelling channel scores {@code 0.9 * similarity} when a query word (or the whole query,
 * without spaces) is at least {@link Spelling#MIN_SIMILARITY} similar to the fact's subject or
 * object key. A fact found by several channels keeps its best score. Each hop (up to the query's
 * {@code hops}) follows refs and receipt members in both directions, and claim entities in both
 * directions (a fact whose subject is the parent's object; a fact whose object is the parent's
 * subject), scoring {@code 0.45 *} the parent's score. Facts superseded by a live fact at the
 * commit are not returned (they are dead ends). Order: score, then hops, then id. Thread-safe.
 */
public final class Ranker {
    /** The score of a fact whose subject the caller named. */
    public static final double ENTITY_SCORE = 1.0;
    /** The most a text channel (BM25 or spelling) scores. */
    public static final double TEXT_MAX = 0.9;
    /** What a hop multiplies its parent's score by. */
    public static final double HOP_DECAY = 0.45;
    private static final int ENTITY_CAP = 1000;
    private static final int NEIGHBOUR_CAP = 200;

    /** Hops start from at most this many of the previous level's best hits. */
    public static final int HOP_PARENTS = 10;

    private final SearchIndex index;
    private final Analyzer analyzer = FactDocs.analyzer();
    private final Map<IndexReader.CacheKey, Spelling.Keys> keysBySegment = new java.util.WeakHashMap<>();

    public Ranker(SearchIndex index) {
        this.index = index;
    }

    /** A hit and the label of what linked it to its parent (the parent's subject, or id; null at hop 0). */
    public record Found(SearchHit hit, String link) {}

    private static final class Cand {
        final int doc;
        final String id;
        double score;
        Channel channel;
        int hops;
        String via;
        String link;

        Cand(int doc, String id, double score, Channel channel, int hops, String via, String link) {
            this.doc = doc;
            this.id = id;
            this.score = score;
            this.channel = channel;
            this.hops = hops;
            this.via = via;
            this.link = link;
        }
    }

    /** The hits of {@code q} at commit number {@code seq}: at most {@code q.limit()}, best first. */
    public List<Found> search(SearchQuery q, int seq) {
        if (q.isEmpty()) {
            return List.of();
        }
        IndexSearcher s;
        try {
            s = index.acquire(seq);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot search the index: " + e.getMessage(), e);
        }
        try {
            return run(s, q, seq);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot search the index: " + e.getMessage(), e);
        } finally {
            try {
                index.release(s);
            } catch (IOException ignored) {
                // released
            }
        }
    }

    private List<Found> run(IndexSearcher s, SearchQuery q, int seq) throws IOException {
        List<Query> filters = filters(q, seq);
        Leaves stored = new Leaves(s.storedFields(), s.getIndexReader().leaves());
        Map<String, Cand> found = new HashMap<>();
        Map<Integer, Document> docs = new HashMap<>();
        for (String e : q.entities()) {
            String key = EntityKey.of(e);
            if (key.isEmpty()) {
                continue;
            }
            Query named = new ConstantScoreQuery(new TermQuery(new Term(FactDocs.SUBJ, FactDocs.keyTerm(key))));
            for (ScoreDoc sd : s.search(query(named, filters), ENTITY_CAP).scoreDocs) {
                offer(found, docs, stored, seq, sd.doc, ENTITY_SCORE, Channel.ENTITY, 0, null, null);
            }
        }
        String text = q.text();
        if (!text.isBlank()) {
            lexical(s, q, text, filters, found, docs, stored, seq);
            spelling(s, q, text, filters, found, docs, stored, seq);
        }
        List<Cand> frontier = new ArrayList<>(found.values());
        for (int h = 1; h <= q.hops(); h++) {
            frontier.sort(ORDER);
            List<Cand> next = new ArrayList<>();
            for (Cand parent : frontier.subList(0, Math.min(frontier.size(), Math.min(q.limit(), HOP_PARENTS)))) {
                Document pd = docs.computeIfAbsent(parent.doc, k -> read(stored, k));
                String pid = pd.get(FactDocs.ID);
                String link = pd.get(FactDocs.SUBJECT) != null ? pd.get(FactDocs.SUBJECT) : pid;
                double score = parent.score * HOP_DECAY;
                BooleanQuery.Builder any = new BooleanQuery.Builder();
                neighbours(pd).forEach(nq -> any.add(nq, Occur.SHOULD));
                for (ScoreDoc sd : s.search(query(new ConstantScoreQuery(any.build()), filters), NEIGHBOUR_CAP).scoreDocs) {
                    Cand c = offer(found, docs, stored, seq, sd.doc, score, Channel.GRAPH, h, pid, link);
                    if (c != null) {
                        next.add(c);
                    }
                }
            }
            frontier = next;
        }
        List<Cand> all = new ArrayList<>(found.values());
        all.sort(ORDER);
        List<Found> out = new ArrayList<>();
        for (Cand c : all.subList(0, Math.min(all.size(), q.limit()))) {
            out.add(new Found(hit(docs.computeIfAbsent(c.doc, k -> read(stored, k)), c), c.link));
        }
        return out;
    }

    private static final Comparator<Cand> ORDER = Comparator.<Cand>comparingDouble(c -> -c.score)
            .thenComparingInt(c -> c.hops).thenComparing(c -> c.id);

    /** Records {@code doc} with this score unless it is superseded or already has a better one; the candidate when improved. */
    private Cand offer(Map<String, Cand> found, Map<Integer, Document> docs, Leaves stored, int seq, int doc,
            double score, Channel channel, int hops, String via, String link) throws IOException {
        String id = value(stored, FactDocs.ID, doc);
        if (id == null || id.equals(via)) {
            return null;
        }
        Cand c = found.get(id);
        if (c != null && c.score >= score) {
            return null;
        }
        if (c == null && index.claims().supersededAt(id, seq)) {
            return null;
        }
        if (c == null) {
            c = new Cand(doc, id, score, channel, hops, via, link);
            found.put(id, c);
        } else {
            c.score = score;
            c.channel = channel;
            c.hops = hops;
            c.via = via;
            c.link = link;
        }
        return c;
    }

    private void lexical(IndexSearcher s, SearchQuery q, String text, List<Query> filters, Map<String, Cand> found,
            Map<Integer, Document> docs, Leaves stored, int seq) throws IOException {
        Set<String> ts = new LinkedHashSet<>(terms(FactDocs.TEXT, text));
        if (ts.isEmpty()) {
            return;
        }
        BooleanQuery.Builder words = new BooleanQuery.Builder();
        for (String t : ts) {
            words.add(new TermQuery(new Term(FactDocs.TEXT, t)), Occur.SHOULD);
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder().add(words.build(), Occur.MUST);
        filters.forEach(f -> b.add(f, Occur.FILTER));
        TopDocs top = s.search(b.build(), q.limit() * 3 + 20);
        double best = 0;
        List<ScoreDoc> kept = new ArrayList<>();
        for (ScoreDoc sd : top.scoreDocs) {
            String id = value(stored, FactDocs.ID, sd.doc);
            if (id != null && !index.claims().supersededAt(id, seq)) {
                kept.add(sd);
                best = Math.max(best, sd.score);
            }
        }
        for (ScoreDoc sd : kept) { // BM25 scores a matching document above 0
            offer(found, docs, stored, seq, sd.doc, TEXT_MAX * (sd.score / best), Channel.LEXICAL, 0, null, null);
        }
    }

    private void spelling(IndexSearcher s, SearchQuery q, String text, List<Query> filters, Map<String, Cand> found,
            Map<Integer, Document> docs, Leaves stored, int seq) throws IOException {
        String key = EntityKey.of(text);
        Set<String> words = new LinkedHashSet<>();
        for (String w : key.split(" ")) {
            if (w.length() >= FactDocs.GRAM) {
                words.add(w);
            }
        }
        String whole = FactDocs.compact(key);
        if (whole.length() >= FactDocs.GRAM) {
            words.add(whole);
        }
        Map<String, Double> keys = new HashMap<>();
        List<Spelling.Keys> dictionaries = dictionaries(s);
        for (String w : words) {
            Set<String> g = Spelling.grams(w);
            for (Spelling.Keys k : dictionaries) {
                k.matches(g, keys);
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        Map<Double, List<BytesRef>> bySimilarity = new TreeMap<>();
        keys.forEach((k, sim) -> bySimilarity.computeIfAbsent(sim, x -> new ArrayList<>()).add(new BytesRef(k)));
        // a band's constant score is its similarity as a float; a document scores its best band's (dis-max, no tie)
        Map<Float, Double> band = new HashMap<>();
        List<Query> bands = new ArrayList<>();
        bySimilarity.forEach((sim, ks) -> {
            bands.add(new BoostQuery(new ConstantScoreQuery(new TermInSetQuery(FactDocs.CKEY, ks)), sim.floatValue()));
            band.merge(sim.floatValue(), sim, Math::max);
        });
        Query gq = new DisjunctionMaxQuery(bands, 0f); // of one band: that band
        for (ScoreDoc sd : s.search(query(gq, filters), q.limit() * 3 + 20).scoreDocs) {
            Double sim = band.get(sd.score);
            if (sim == null) {
                throw new IllegalStateException("a spelling score " + sd.score + " that no band gives");
            }
            offer(found, docs, stored, seq, sd.doc, TEXT_MAX * sim, Channel.SPELLING, 0, null, null);
        }
    }

    /** The key dictionaries of the searcher's segments (each built once per segment and kept while it lives). */
    private List<Spelling.Keys> dictionaries(IndexSearcher s) throws IOException {
        List<Spelling.Keys> out = new ArrayList<>();
        for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            IndexReader.CacheKey key = leaf.reader().getCoreCacheHelper().getKey(); // a segment reader's: never null
            Spelling.Keys k;
            synchronized (keysBySegment) {
                k = keysBySegment.get(key);
            }
            if (k == null) {
                k = Spelling.Keys.of(leaf.reader());
                synchronized (keysBySegment) {
                    keysBySegment.put(key, k);
                }
            }
            out.add(k);
        }
        return out;
    }

    /** The sorted doc value of {@code field} for global document {@code doc}, or null. */
    private static String value(Leaves leaves, String field, int doc) throws IOException {
        int i = ReaderUtil.subIndex(doc, leaves.list);
        LeafReaderContext leaf = leaves.list.get(i);
        int d = doc - leaf.docBase;
        String slot = field + '\0' + i;
        SortedDocValues dv = leaves.values.get(slot);
        if (dv == null || dv.docID() > d) {
            dv = leaf.reader().getSortedDocValues(field);
            if (dv == null) {
                return null;
            }
            leaves.values.put(slot, dv);
        }
        if (!dv.advanceExact(d)) {
            return null;
        }
        return dv.lookupOrd(dv.ordValue()).utf8ToString();
    }

    /** A searcher's stored fields and leaves, and the doc-values iterators opened on them (forward only). */
    private record Leaves(StoredFields fields, List<LeafReaderContext> list, Map<String, SortedDocValues> values) {
        Leaves(StoredFields fields, List<LeafReaderContext> list) {
            this(fields, list, new HashMap<>());
        }
    }

    private static Document read(Leaves stored, int doc) {
        try {
            return stored.fields().document(doc);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the search index: " + e.getMessage(), e);
        }
    }

    /** The queries for the facts linked to {@code d}: its targets, who targets it, and claim entities both ways. */
    private static List<Query> neighbours(Document d) {
        List<Query> out = new ArrayList<>();
        List<BytesRef> terms = new ArrayList<>();
        for (String r : d.getValues(FactDocs.REF)) {
            terms.add(new BytesRef(r));
        }
        out.add(new TermInSetQuery(FactDocs.ID, terms)); // of no refs: matches nothing
        out.add(new TermQuery(new Term(FactDocs.REF, d.get(FactDocs.ID))));
        if (d.get(FactDocs.SUBJECT) != null) {
            String ok = EntityKey.of(d.get(FactDocs.OBJECT));
            String sk = EntityKey.of(d.get(FactDocs.SUBJECT));
            if (!ok.isEmpty()) {
                out.add(new TermQuery(new Term(FactDocs.SUBJ, FactDocs.keyTerm(ok))));
            }
            if (!sk.isEmpty()) {
                out.add(new TermQuery(new Term(FactDocs.OBJ, FactDocs.keyTerm(sk))));
            }
        }
        return out;
    }

    private List<String> terms(String field, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream(field, text)) {
            CharTermAttribute a = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(a.toString());
            }
            ts.end();
        }
        return out;
    }

    /** Live at {@code seq} (from <= seq < to) and the query's filters. */
    private static List<Query> filters(SearchQuery q, int seq) {
        List<Query> f = new ArrayList<>();
        f.add(new IndexOrDocValuesQuery(IntPoint.newRangeQuery(FactDocs.FROM, Integer.MIN_VALUE, seq),
                NumericDocValuesField.newSlowRangeQuery(FactDocs.FROM, Long.MIN_VALUE, seq)));
        f.add(NumericDocValuesField.newSlowRangeQuery(FactDocs.TO, seq + 1L, Long.MAX_VALUE));
        if (q.kind() != null) {
            f.add(new TermQuery(new Term(FactDocs.KIND, q.kind().value())));
        }
        if (q.subject() != null) {
            f.add(new TermQuery(new Term(FactDocs.SUBJ, FactDocs.keyTerm(EntityKey.of(q.subject())))));
        }
        if (q.predicate() != null) {
            f.add(new TermQuery(new Term(FactDocs.PRED, FactDocs.keyTerm(EntityKey.of(q.predicate())))));
        }
        if (q.actor() != null) {
            f.add(new TermQuery(new Term(FactDocs.ACTOR, q.actor().value())));
        }
        if (q.run() != null) {
            f.add(new TermQuery(new Term(FactDocs.RUN, q.run())));
        }
        return f;
    }

    private static Query query(Query main, List<Query> filters) {
        BooleanQuery.Builder b = new BooleanQuery.Builder().add(main, Occur.MUST);
        filters.forEach(f -> b.add(f, Occur.FILTER));
        return b.build();
    }

    private static SearchHit hit(Document d, Cand c) {
        String src = d.get(FactDocs.SOURCE);
        String sc = d.get(FactDocs.SOURCE_COMMIT);
        return new SearchHit(FactId.of(d.get(FactDocs.ID)), c.score, c.channel, c.hops,
                c.via == null ? null : FactId.of(c.via), new Kind(d.get(FactDocs.KIND)), d.get(FactDocs.SUBJECT),
                d.get(FactDocs.PREDICATE), d.get(FactDocs.OBJECT), d.get(FactDocs.BODY),
                CommitId.of(d.get(FactDocs.COMMIT)), ActorName.of(d.get(FactDocs.ACTOR)),
                Instant.ofEpochMilli(d.getField(FactDocs.TIME).numericValue().longValue()), d.get(FactDocs.RUN),
                src == null ? null : FactId.of(src), sc == null ? null : CommitId.of(sc));
    }
}
