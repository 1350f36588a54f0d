package dev.palimpsest.internal.search;

import dev.palimpsest.internal.claims.ClaimQueries;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KnownEntity;
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
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.Bits;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * Ranks the fact versions live at a commit for a {@link SearchQuery}, in bands. The entity band
 * ({@code [0.91, 1.0]}) holds the facts that a named entity reaches: as their subject or object key,
 * or as words of their text; inside it a fact scores {@code 0.91 + 0.09 * (0.75 * relevance + 0.25 *
 * naming)}, where relevance is its text score for the query over the best text score (1 when no
 * fact matches the query text, or there is none) and naming is 1 for the subject key, 0.5 for the object key, 0 for words of the
 * text. The text band ({@code (0, 0.9]}): BM25 over the stemmed text, plus the exact (unstemmed)
 * words, plus the predicate words of a claim whose text is its object alone ({@link #VERB_BOOST}),
 * plus a boost for each subject key the query names, scores {@code 0.9 * score / best score}; the
 * spelling channel corrects only query words that are no word of the index (nor is the
 * whole query without spaces, unless one of its words is misspelled), scoring {@code 0.9 *
 * similarity * share} for a subject or object key at least {@link Spelling#MIN_SIMILARITY} similar,
 * where share is 1 for the whole query and, for one corrected word, one over the query's words. A fact
 * found by several channels keeps its best score. Each hop (up to the query's {@code hops}) follows
 * refs and receipt members in both directions, and claim entities in both directions (a fact whose
 * subject is the parent's object; a fact whose object is the parent's subject), scoring {@code 0.45
 * *} the parent's score. Facts superseded by a live fact at the commit are not returned (they are
 * dead ends), nor, for a question at a valid time, facts not valid then. Order: score, then hops,
 * then id. Thread-safe.
 */
public final class Ranker {
    /** The best score of the entity band: a fact whose subject the caller named, the best match for the text. */
    public static final double ENTITY_SCORE = 1.0;
    /** The least score of the entity band, above every text hit. */
    public static final double ENTITY_FLOOR = 0.91;
    /** The weight of text relevance inside the entity band (the rest is how the entity was named). */
    static final double ENTITY_RELEVANCE = 0.75;
    /** What an exact (unstemmed) word match weighs beside its stem's. */
    static final float EXACT_BOOST = 0.5f;
    /**
     * What a subject key the query names weighs beside a word of the text, times the share of the
     * question's words it takes: a question that is the name asks about the entity, a name among
     * many words is a hint (measured on the recall bench: a flat 1.0 put claims-shaped facts 2.2
     * points of recall@10 below plain ones).
     */
    static final float MENTION_BOOST = 1.0f;
    /**
     * What a word of the predicate of a claim whose text is its object alone ({@link FactDocs#VERB})
     * weighs beside a word of the text: the claim is still found by it, but it is no word of the
     * sentence the claim states.
     */
    static final float VERB_BOOST = 0.5f;
    /** The most words of a named entity that its mentions in text must all hold (the first ones). */
    private static final int MENTION_TERMS = 32;
    /** The longest run of query words looked up as a subject key. */
    private static final int MENTION_WORDS = 3;
    /** The most a text channel (BM25 or spelling) scores. */
    public static final double TEXT_MAX = 0.9;
    /** What a hop multiplies its parent's score by. */
    public static final double HOP_DECAY = 0.45;
    private static final int ENTITY_CAP = 1000;
    private static final int NEIGHBOUR_CAP = 200;
    /** The widest text pool a question at a valid time draws while what is valid then is too few. */
    private static final int MAX_POOL = 1 << 16;

    /** Hops start from at most this many of the previous level's best hits. */
    public static final int HOP_PARENTS = 10;

    private final SearchIndex index;
    private final Analyzer analyzer = FactDocs.analyzer();
    /** The documents live at the commits asked about lately (the index's). */
    private final LiveSets live;
    private final Map<IndexReader.CacheKey, Spelling.Keys> keysBySegment = new java.util.WeakHashMap<>();
    /** The fact ids of each segment's documents read so far, by the segment's core; guarded by itself. */
    private final Map<IndexReader.CacheKey, String[]> idsBySegment = new java.util.WeakHashMap<>();
    /** The most live candidates the semantic channel scores exactly ({@link #EXACT_MAX} but in tests). */
    private final int exactMax;

    public Ranker(SearchIndex index) {
        this(index, EXACT_MAX);
    }

    /** A ranker whose semantic channel scores every candidate exactly up to {@code exactMax} of them (tests: 0, HNSW always). */
    Ranker(SearchIndex index, int exactMax) {
        this.index = index;
        this.live = index.live();
        this.exactMax = exactMax;
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

    /**
     * The hits of {@code q} at commit number {@code seq}: at most {@code q.limit()}, best first; a
     * question asked at a valid time ({@link SearchQuery#validTime()}) keeps every fact valid then,
     * as no succession closes it (use {@link #search(SearchQuery, int, ClaimQueries.Validities)}).
     */
    public List<Found> search(SearchQuery q, int seq) {
        return search(q, seq, ClaimQueries.ALWAYS);
    }

    /**
     * The hits of {@code q} at commit number {@code seq}: at most {@code q.limit()}, best first. With
     * a valid time ({@link SearchQuery#validTime()}), a fact whose validity at {@code seq} by {@code
     * valid} does not hold then is no hit, and no hop goes through it (as a superseded fact).
     */
    public List<Found> search(SearchQuery q, int seq, ClaimQueries.Validities valid) {
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
            return run(s, q, seq, valid);
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

    private List<Found> run(IndexSearcher s, SearchQuery q, int seq, ClaimQueries.Validities valid) throws IOException {
        List<Query> filters = filters(q, seq);
        java.util.OptionalLong t = q.validTime().map(i -> java.util.OptionalLong.of(i.getEpochSecond()))
                .orElse(java.util.OptionalLong.empty());
        java.util.function.Predicate<String> shown = id -> !index.claims().supersededAt(id, seq)
                && (t.isEmpty() || valid.holdsAt(id, t.getAsLong()));
        Leaves stored = new Leaves(s.storedFields(), s.getIndexReader().leaves());
        Map<String, Cand> found = new HashMap<>();
        Map<Integer, Document> docs = new HashMap<>();
        String text = q.text();
        java.util.concurrent.Future<float[]> asked = text.isBlank() ? null : index.embedQueryAsync(text);
        Query lexical = text.isBlank() ? null : lexicalQuery(s, text);
        TextBand band;
        if (lexical == null) {
            band = new TextBand(Map.of(), 0);
            if (asked != null) {
                asked.cancel(false);
            }
        } else {
            band = textBand(s, q, seq, lexical, filters, found, docs, stored, shown, asked);
        }
        if (!q.entities().isEmpty()) {
            entityBand(s, q, lexical, band, filters, found, docs, stored, shown);
        }
        if (!text.isBlank()) {
            spelling(s, q, text, filters, found, docs, stored, shown);
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
                    Cand c = offer(found, docs, stored, shown, sd.doc, score, Channel.GRAPH, h, pid, link);
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

    /**
     * The entity keys starting with {@code prefix} (a key; empty: every key) that facts live at
     * commit number {@code seq} name as subject or object, most named first, then by key: at most
     * {@code limit}.
     */
    public List<KnownEntity> knownEntities(String prefix, int limit, int seq) {
        IndexSearcher s;
        try {
            s = index.acquire(seq);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot search the index: " + e.getMessage(), e);
        }
        try {
            Map<String, Set<Integer>> named = new HashMap<>();
            for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
                for (String field : List.of(FactDocs.SUBJ, FactDocs.OBJ)) {
                    keys(s, live, leaf, field, prefix, seq, named);
                }
            }
            List<KnownEntity> out = new ArrayList<>();
            named.forEach((k, docs) -> out.add(new KnownEntity(k, docs.size())));
            out.sort(Comparator.comparingInt((KnownEntity e) -> -e.facts()).thenComparing(KnownEntity::key));
            return List.copyOf(out.subList(0, Math.min(out.size(), limit)));
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

    /** Adds the live documents of one segment to the keys of {@code field} they name (digests resolved from the stored value). */
    private static void keys(IndexSearcher s, LiveSets lives, LeafReaderContext leaf, String field, String prefix,
            int seq, Map<String, Set<Integer>> named) throws IOException {
        Terms terms = leaf.reader().terms(field);
        if (terms == null) {
            return;
        }
        Bits notDeleted = leaf.reader().getLiveDocs();
        org.apache.lucene.util.FixedBitSet at = lives.set(leaf.reader(), seq);
        BytesRef want = new BytesRef(prefix);
        for (boolean digests : new boolean[] {false, true}) {
            TermsEnum te = terms.iterator();
            BytesRef start = digests ? new BytesRef("#") : want;
            if (te.seekCeil(start) == TermsEnum.SeekStatus.END) {
                continue;
            }
            PostingsEnum pe = null;
            for (BytesRef t = te.term(); t != null; t = te.next()) {
                if (!startsWith(t, start)) {
                    break;
                }
                String term = t.utf8ToString();
                if (!digests && term.startsWith("#")) {
                    continue;
                }
                pe = te.postings(pe, PostingsEnum.NONE);
                for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc()) {
                    if ((notDeleted != null && !notDeleted.get(d)) || !at.get(d)) {
                        continue;
                    }
                    String key = term;
                    if (digests) {
                        Document doc = s.storedFields().document(leaf.docBase + d);
                        key = EntityKey.of(doc.get(FactDocs.SUBJ.equals(field) ? FactDocs.SUBJECT : FactDocs.OBJECT));
                        if (!key.startsWith(prefix)) {
                            continue;
                        }
                    }
                    named.computeIfAbsent(key, k -> new java.util.HashSet<>()).add(leaf.docBase + d);
                }
            }
        }
    }

    private static boolean startsWith(BytesRef t, BytesRef prefix) {
        if (t.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (t.bytes[t.offset + i] != prefix.bytes[prefix.offset + i]) {
                return false;
            }
        }
        return true;
    }

    private static final Comparator<Cand> ORDER = Comparator.<Cand>comparingDouble(c -> -c.score)
            .thenComparingInt(c -> c.hops).thenComparing(c -> c.id);

    /**
     * Records {@code doc} with this score unless it is not {@code shown} (superseded, or not valid at
     * the valid time asked) or already has a better one; the candidate when improved.
     */
    private Cand offer(Map<String, Cand> found, Map<Integer, Document> docs, Leaves stored,
            java.util.function.Predicate<String> shown, int doc,
            double score, Channel channel, int hops, String via, String link) throws IOException {
        String id = id(stored, doc);
        if (id == null || id.equals(via)) {
            return null;
        }
        Cand c = found.get(id);
        if (c != null && c.score >= score) {
            return null;
        }
        if (c == null && !shown.test(id)) {
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

    /**
     * The text question: the stemmed words, the exact words ({@link #EXACT_BOOST}) and the subject
     * keys named by runs of up to {@value #MENTION_WORDS} query words ({@link #MENTION_BOOST}); null
     * when the text has no word.
     */
    private Query lexicalQuery(IndexSearcher s, String text) throws IOException {
        BooleanQuery.Builder words = new BooleanQuery.Builder();
        int clauses = 0;
        for (String t : new LinkedHashSet<>(terms(FactDocs.TEXT, text))) {
            words.add(new TermQuery(new Term(FactDocs.TEXT, t)), Occur.SHOULD);
            words.add(new BoostQuery(new TermQuery(new Term(FactDocs.VERB, t)), VERB_BOOST), Occur.SHOULD);
            clauses++;
        }
        if (clauses == 0) {
            return null;
        }
        for (String t : new LinkedHashSet<>(terms(FactDocs.EXACT, text))) {
            words.add(new BoostQuery(new TermQuery(new Term(FactDocs.EXACT, t)), EXACT_BOOST), Occur.SHOULD);
        }
        int all = EntityKey.of(text).split(" ").length;
        for (String key : mentioned(s.getIndexReader(), text)) {
            // a question that is mostly the name asks about the entity; a name among many words is a hint
            float share = Math.min(1f, (float) key.split(" ").length / all);
            words.add(new BoostQuery(new TermQuery(new Term(FactDocs.SUBJ, FactDocs.keyTerm(key))),
                    MENTION_BOOST * share), Occur.SHOULD);
        }
        return words.build();
    }

    /** The subject keys of the index that runs of up to {@value #MENTION_WORDS} words of {@code text} spell exactly. */
    private static Set<String> mentioned(IndexReader r, String text) throws IOException {
        String[] w = EntityKey.of(text).split(" ");
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < w.length && i < 64; i++) {
            StringBuilder key = new StringBuilder();
            for (int n = 0; n < MENTION_WORDS && i + n < w.length; n++) {
                key.append(n == 0 ? "" : " ").append(w[i + n]);
                String k = key.toString();
                if (!k.isEmpty() && r.docFreq(new Term(FactDocs.SUBJ, FactDocs.keyTerm(k))) > 0) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    /** The k of reciprocal rank fusion: a hit ranked r by a channel adds {@code 1 / (k + r)}. */
    static final int RRF_K = 60;
    /**
     * What a semantic rank weighs beside a lexical one: a little less, so two facts that the channels
     * rank in opposite orders go by their words rather than tie.
     */
    static final double SEMANTIC_WEIGHT = 0.95;
    /** The least cosine similarity between a question and a fact that the semantic channel counts as a hit. */
    static final double MIN_SIMILARITY = 0.3;

    /** The documents of a top list that are {@code shown} (live, unsuperseded, valid at the time asked), best first. */
    private List<ScoreDoc> live(TopDocs top, Leaves stored, java.util.function.Predicate<String> shown) throws IOException {
        List<ScoreDoc> kept = new ArrayList<>();
        for (ScoreDoc sd : top.scoreDocs) {
            String id = id(stored, sd.doc);
            if (id != null && shown.test(id)) {
                kept.add(sd);
            }
        }
        return kept;
    }

    /**
     * Offers the text band and returns each offered document's relevance in (0, 1]. Without a
     * semantic channel (or when it finds nothing) a hit's relevance is its BM25 score over the best;
     * with one, the lexical and semantic rankings are fused by reciprocal rank ({@link #RRF_K}), over
     * the best fused score. A hit scores {@code 0.9 * relevance}, on the channel that ranked it higher.
     */
    private TextBand textBand(IndexSearcher s, SearchQuery q, int seq, Query words, List<Query> filters,
            Map<String, Cand> found, Map<Integer, Document> docs, Leaves stored,
            java.util.function.Predicate<String> shown, java.util.concurrent.Future<float[]> asked)
            throws IOException {
        int want = q.limit() * 3 + 20;
        int n = want;
        List<ScoreDoc> lexical;
        while (true) {
            TopDocs top = s.search(query(words, filters), n, BY_SCORE_THEN_ID, true);
            lexical = live(top, stored, shown);
            // a question at a valid time drops what was not valid then after ranking: widen the pool until
            // it keeps as many as it wants, or holds every match
            if (q.validTime().isEmpty() || lexical.size() >= want || top.scoreDocs.length < n || n >= MAX_POOL) {
                break;
            }
            n = Math.min(MAX_POOL, n * 4);
        }
        List<ScoreDoc> semantic = semantic(s, asked, seq, filters, n, stored, shown);
        Map<Integer, Double> relevance = new HashMap<>();
        Map<Integer, Channel> channel = new HashMap<>();
        double lexBest = lexical.isEmpty() ? 0 : lexical.get(0).score;
        if (semantic.isEmpty()) {
            double best = lexical.isEmpty() ? 0 : lexical.get(0).score;
            for (ScoreDoc sd : lexical) { // BM25 scores a matching document above 0
                relevance.put(sd.doc, sd.score / best);
                channel.put(sd.doc, Channel.LEXICAL);
            }
        } else {
            Map<Integer, Integer> lexRank = ranks(lexical);
            Map<Integer, Integer> semRank = ranks(semantic);
            double best = 0;
            for (Map.Entry<Integer, Integer> e : lexRank.entrySet()) {
                Integer sr = semRank.get(e.getKey());
                double f = 1.0 / (RRF_K + e.getValue()) + (sr == null ? 0 : SEMANTIC_WEIGHT / (RRF_K + sr));
                relevance.put(e.getKey(), f);
                channel.put(e.getKey(), sr != null && sr < e.getValue() ? Channel.SEMANTIC : Channel.LEXICAL);
                best = Math.max(best, f);
            }
            for (Map.Entry<Integer, Integer> e : semRank.entrySet()) {
                if (!lexRank.containsKey(e.getKey())) {
                    double f = SEMANTIC_WEIGHT / (RRF_K + e.getValue());
                    relevance.put(e.getKey(), f);
                    channel.put(e.getKey(), Channel.SEMANTIC);
                    best = Math.max(best, f);
                }
            }
            for (Map.Entry<Integer, Double> e : relevance.entrySet()) {
                e.setValue(e.getValue() / best);
            }
        }
        for (Map.Entry<Integer, Double> e : relevance.entrySet()) {
            offer(found, docs, stored, shown, e.getKey(), TEXT_MAX * e.getValue(), channel.get(e.getKey()), 0, null, null);
        }
        return new TextBand(relevance, lexBest);
    }

    /**
     * The rank of each document of a list ordered best first, equal scores sharing the rank of the
     * first of them (1, 2, 2, 4): a rebuilt index, whose documents are numbered otherwise, ranks alike.
     */
    private static Map<Integer, Integer> ranks(List<ScoreDoc> list) {
        Map<Integer, Integer> out = new HashMap<>();
        int rank = 0;
        for (int i = 0; i < list.size(); i++) {
            if (i == 0 || list.get(i).score != list.get(i - 1).score) {
                rank = i + 1;
            }
            out.putIfAbsent(list.get(i).doc, rank);
        }
        return out;
    }

    /** Best score first, equal scores by fact id: a top list that does not depend on how the index was built. */
    private static final org.apache.lucene.search.Sort BY_SCORE_THEN_ID = new org.apache.lucene.search.Sort(
            org.apache.lucene.search.SortField.FIELD_SCORE,
            new org.apache.lucene.search.SortField(FactDocs.ID, org.apache.lucene.search.SortField.Type.STRING));

    /** The most live candidates the semantic channel scores exactly; above, it asks the HNSW graph. */
    static final int EXACT_MAX = 20_000;

    /**
     * Threads that search the HNSW graphs of an index's segments beside the asking thread, which
     * takes its share of them; daemons, one per core, shared by every index of the process.
     */
    private static final java.util.concurrent.ExecutorService SEGMENTS = SearchIndex.daemons(
            Runtime.getRuntime().availableProcessors(), "palimpsest-vector-search");

    /**
     * The {@code n} documents matching {@code filter} whose vectors are nearest {@code v}, scored
     * {@code (1 + dot) / 2}: exactly (every candidate scored) when at most {@link #EXACT_MAX} match,
     * so the answer does not depend on how the index was built; else by Lucene's filtered HNSW search.
     * An index of several segments has a graph in each: they are searched side by side ({@link
     * #SEGMENTS}), each stopping early once it cannot beat the {@code n} best found in all of them
     * so far, so the tail of the list may differ between two runs (a store grown to 100k facts by
     * writes, 22 segments: 4.1 ms for its graphs one after another, 2.1-2.4 ms side by side).
     */
    private TopDocs nearest(IndexSearcher s, float[] v, Query filter, int candidates, int n, Leaves stored)
            throws IOException {
        if (candidates > exactMax) {
            IndexSearcher by = s;
            if (s.getIndexReader().leaves().size() > 1) {
                by = new IndexSearcher(s.getIndexReader(), SEGMENTS);
                by.setQueryCache(null);
            }
            return by.search(new org.apache.lucene.search.KnnFloatVectorQuery(FactDocs.VEC, v, n, filter), n);
        }
        org.apache.lucene.search.Weight w = s.createWeight(s.rewrite(filter),
                org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<ScoreDoc> all = new ArrayList<>();
        for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            org.apache.lucene.search.Scorer sc = w.scorer(leaf);
            org.apache.lucene.index.FloatVectorValues fv = leaf.reader().getFloatVectorValues(FactDocs.VEC);
            if (sc == null || fv == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator it = sc.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                if (fv.docID() < doc) {
                    fv.advance(doc);
                }
                if (fv.docID() != doc) {
                    continue;
                }
                float score = (1 + org.apache.lucene.util.VectorUtil.dotProduct(v, fv.vectorValue())) / 2;
                all.add(new ScoreDoc(leaf.docBase + doc, score));
            }
        }
        all.sort(Comparator.<ScoreDoc>comparingDouble(sd -> -sd.score));
        List<ScoreDoc> out = new ArrayList<>(all.subList(0, Math.min(n, all.size())));
        if (!out.isEmpty() && all.size() > n && all.get(n).score == out.get(n - 1).score) {
            // equal scores across the cut: the ones of the least fact ids stay, however the index was built
            float edge = out.get(n - 1).score;
            out.removeIf(sd -> sd.score == edge);
            List<ScoreDoc> tied = new ArrayList<>();
            for (ScoreDoc sd : all) {
                if (sd.score == edge) {
                    tied.add(sd);
                }
            }
            Map<Integer, String> ids = new HashMap<>();
            for (ScoreDoc sd : tied) {
                ids.put(sd.doc, String.valueOf(id(stored, sd.doc)));
            }
            tied.sort(Comparator.comparing(sd -> ids.get(sd.doc)));
            out.addAll(tied.subList(0, n - out.size()));
        }
        return new TopDocs(new org.apache.lucene.search.TotalHits(out.size(),
                org.apache.lucene.search.TotalHits.Relation.EQUAL_TO), out.toArray(ScoreDoc[]::new));
    }

    /** The text band's relevance of each document it offered, and the best BM25 score of a live match (0: none). */
    private record TextBand(Map<Integer, Double> relevance, double lexicalBest) {}

    /**
     * The live, unsuperseded versions whose vectors are nearest the question's (HNSW, filtered to
     * the commit and the query's filters), at least {@link #MIN_SIMILARITY} similar, best first;
     * empty without a semantic channel.
     */
    private List<ScoreDoc> semantic(IndexSearcher s, java.util.concurrent.Future<float[]> asked, int seq,
            List<Query> filters,
            int n, Leaves stored, java.util.function.Predicate<String> shown) throws IOException {
        if (asked == null) {
            return List.of();
        }
        float[] v = vectorOf(asked);
        Query filter;
        int candidates;
        if (filters.size() == 1) { // live at the commit: the kept set, counted without a pass over the documents
            filter = filters.get(0);
            candidates = live.count(s, seq);
        } else {
            BooleanQuery.Builder f = new BooleanQuery.Builder();
            filters.forEach(x -> f.add(x, Occur.FILTER));
            filter = f.build();
            candidates = s.count(filter);
        }
        TopDocs top = nearest(s, v, filter, candidates, n, stored);
        List<ScoreDoc> out = new ArrayList<>();
        for (ScoreDoc sd : live(top, stored, shown)) {
            double cos = 2.0 * sd.score - 1.0; // Lucene scores a dot product d as (1 + d) / 2
            if (cos >= MIN_SIMILARITY) {
                out.add(sd);
            }
        }
        return out;
    }

    /** The question's vector once embedded; the embedder's own failure is rethrown as it was thrown. */
    private static float[] vectorOf(java.util.concurrent.Future<float[]> asked) {
        try {
            return asked.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PalimpsestInternalException("interrupted while embedding the question", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new PalimpsestInternalException("cannot embed the question: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Offers the facts the named entities reach (subject key, object key, or all the words of the
     * entity in the text), each at {@code 0.91 + 0.09 * (0.75 * relevance + 0.25 * naming)}.
     */
    private void entityBand(IndexSearcher s, SearchQuery q, Query words, TextBand text, List<Query> filters,
            Map<String, Cand> found, Map<Integer, Document> docs, Leaves stored,
            java.util.function.Predicate<String> shown) throws IOException {
        Map<Integer, Double> naming = new HashMap<>();
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        int reaches = 0;
        for (String e : q.entities()) {
            String key = EntityKey.of(e);
            if (key.isEmpty()) {
                continue;
            }
            List<Query> ways = new ArrayList<>();
            List<Double> weights = new ArrayList<>();
            ways.add(new TermQuery(new Term(FactDocs.SUBJ, FactDocs.keyTerm(key))));
            weights.add(1.0);
            ways.add(new TermQuery(new Term(FactDocs.OBJ, FactDocs.keyTerm(key))));
            weights.add(0.5);
            List<String> mention = new ArrayList<>(new LinkedHashSet<>(terms(FactDocs.EXACT, e)));
            mention = mention.subList(0, Math.min(mention.size(), MENTION_TERMS));
            if (!mention.isEmpty()) {
                BooleanQuery.Builder all = new BooleanQuery.Builder();
                mention.forEach(t -> all.add(new TermQuery(new Term(FactDocs.EXACT, t)), Occur.FILTER));
                ways.add(all.build());
                weights.add(0.0);
            }
            for (int i = 0; i < ways.size(); i++) {
                double w = weights.get(i);
                for (ScoreDoc sd : s.search(query(new ConstantScoreQuery(ways.get(i)), filters), ENTITY_CAP).scoreDocs) {
                    naming.merge(sd.doc, w, Math::max);
                }
                any.add(ways.get(i), Occur.SHOULD);
                reaches++;
            }
        }
        if (naming.isEmpty()) {
            return;
        }
        double best = text.lexicalBest();
        Map<Integer, Double> relevance = new HashMap<>(text.relevance());
        if (words != null && best > 0 && reaches > 0) {
            BooleanQuery.Builder b = new BooleanQuery.Builder().add(words, Occur.MUST).add(any.build(), Occur.FILTER);
            filters.forEach(f -> b.add(f, Occur.FILTER));
            for (ScoreDoc sd : s.search(b.build(), ENTITY_CAP).scoreDocs) {
                relevance.merge(sd.doc, Math.min(1.0, sd.score / best), Math::max);
            }
        }
        for (Map.Entry<Integer, Double> n : naming.entrySet()) {
            double rel = words == null || best == 0 && text.relevance().isEmpty() ? 1.0
                    : relevance.getOrDefault(n.getKey(), 0.0);
            double score = ENTITY_FLOOR + (ENTITY_SCORE - ENTITY_FLOOR)
                    * (ENTITY_RELEVANCE * rel + (1 - ENTITY_RELEVANCE) * n.getValue());
            offer(found, docs, stored, shown, n.getKey(), score, Channel.ENTITY, 0, null, null);
        }
    }

    private void spelling(IndexSearcher s, SearchQuery q, String text, List<Query> filters, Map<String, Cand> found,
            Map<Integer, Document> docs, Leaves stored, java.util.function.Predicate<String> shown) throws IOException {
        String key = EntityKey.of(text);
        IndexReader reader = s.getIndexReader();
        Set<String> words = new LinkedHashSet<>();
        boolean misspelled = false;
        boolean spelt = false;
        for (String w : key.split(" ")) {
            if (w.length() >= FactDocs.GRAM) {
                if (known(reader, w)) {
                    spelt = true;
                } else {
                    words.add(w);
                    misspelled = true;
                }
            }
        }
        String whole = FactDocs.compact(key);
        if (whole.length() >= FactDocs.GRAM && (misspelled || !spelt) && !known(reader, whole)) {
            words.add(whole);
        }
        Map<String, Double> keys = new HashMap<>();
        List<Spelling.Keys> dictionaries = dictionaries(s);
        int all = key.split(" ").length;
        for (String w : words) {
            Set<String> g = Spelling.grams(w);
            Map<String, Double> one = new HashMap<>();
            for (Spelling.Keys k : dictionaries) {
                k.matches(g, one);
            }
            // a corrected word among many is a hint, as a named key is: it weighs its share of the words
            double share = w.equals(whole) ? 1 : 1.0 / all;
            one.forEach((k, sim) -> keys.merge(k, sim * share, Math::max));
        }
        if (keys.isEmpty()) {
            return;
        }
        Map<Double, List<BytesRef>> bySimilarity = new TreeMap<>();
        keys.forEach((k, sim) -> bySimilarity.computeIfAbsent(sim, x -> new ArrayList<>()).add(new BytesRef(k)));
        // a band's constant score is its similarity (times the share) as a float; a document scores its
        // best band's (dis-max, no tie)
        Map<Float, Double> band = new HashMap<>();
        List<Query> bands = new ArrayList<>();
        bySimilarity.forEach((sim, ks) -> {
            bands.add(new BoostQuery(new ConstantScoreQuery(new TermInSetQuery(FactDocs.CKEY, ks)), sim.floatValue()));
            band.merge(sim.floatValue(), sim, Math::max);
        });
        Query gq = new DisjunctionMaxQuery(bands, 0f); // of one band: that band
        // equal scores by fact id, as the words' list: a rebuilt index, whose documents are numbered otherwise, cuts alike
        for (ScoreDoc sd : s.search(query(gq, filters), q.limit() * 3 + 20, BY_SCORE_THEN_ID, true).scoreDocs) {
            Double sim = band.get(sd.score);
            if (sim == null) {
                throw new IllegalStateException("a spelling score " + sd.score + " that no band gives");
            }
            offer(found, docs, stored, shown, sd.doc, TEXT_MAX * sim, Channel.SPELLING, 0, null, null);
        }
    }

    /** True when {@code word} is a word of the index's text as it stands (unstemmed): spelt right, so not corrected. */
    private static boolean known(IndexReader r, String word) throws IOException {
        return r.docFreq(new Term(FactDocs.EXACT, word)) > 0;
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

    /**
     * The fact id of document {@code doc}: from the segment's ids read before (a document's id never
     * changes while its segment lives), else from its doc values, then kept.
     */
    private String id(Leaves leaves, int doc) throws IOException {
        int i = ReaderUtil.subIndex(doc, leaves.list);
        LeafReaderContext leaf = leaves.list.get(i);
        int d = doc - leaf.docBase;
        String[] kept = leaves.ids[i];
        if (kept == null) {
            IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
            if (core != null) {
                synchronized (idsBySegment) {
                    kept = idsBySegment.computeIfAbsent(core.getKey(), k -> new String[leaf.reader().maxDoc()]);
                }
                leaves.ids[i] = kept;
            }
        }
        if (kept != null && d < kept.length && kept[d] != null) {
            return kept[d];
        }
        String slot = FactDocs.ID + '\0' + i;
        SortedDocValues dv = leaves.values.get(slot);
        if (dv == null || dv.docID() > d) {
            dv = leaf.reader().getSortedDocValues(FactDocs.ID);
            if (dv == null) {
                return null;
            }
            leaves.values.put(slot, dv);
        }
        if (!dv.advanceExact(d)) {
            return null;
        }
        String id = dv.lookupOrd(dv.ordValue()).utf8ToString();
        if (kept != null && d < kept.length) {
            kept[d] = id; // a race writes the same string: ids are immutable
        }
        return id;
    }

    /** A searcher's stored fields and leaves, and the doc-values iterators opened on them (forward only). */
    private record Leaves(StoredFields fields, List<LeafReaderContext> list, Map<String, SortedDocValues> values,
            String[][] ids) {
        Leaves(StoredFields fields, List<LeafReaderContext> list) {
            this(fields, list, new HashMap<>(), new String[list.size()][]);
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
    private List<Query> filters(SearchQuery q, int seq) {
        List<Query> f = new ArrayList<>();
        f.add(live.at(seq));
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
