package dev.palimpsest.internal.search;

import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Sentence;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene document of one fact version and its field names. A version is live over commits
 * [{@code from}, {@code to}) of main's first-parent chain; {@code to} is {@link #OPEN} until a
 * revision or retraction ends it (an updatable doc value). Stateless; thread-safe.
 */
final class FactDocs {
    static final long OPEN = Integer.MAX_VALUE;
    static final String VK = "vk";
    static final String ID = "id";
    static final String KIND = "kind";
    static final String SUBJ = "subj";
    static final String PRED = "pred";
    static final String OBJ = "obj";
    static final String ACTOR = "actor";
    static final String RUN = "run";
    static final String REF = "ref";
    static final String TEXT = "text";
    /** The text again, unstemmed: exact words score above their stems, and it is the vocabulary the spelling channel leaves alone. */
    static final String EXACT = "exact";
    static final String CKEY = "ckey";
    static final String FROM = "from";
    static final String TO = "to";
    static final String SUBJECT = "subject";
    static final String PREDICATE = "predicate";
    static final String OBJECT = "object";
    static final String BODY = "body";
    static final String COMMIT = "commit";
    static final String TIME = "time";
    static final String SOURCE = "source";
    static final String SOURCE_COMMIT = "scommit";
    /** The n of the spelling channel's character n-grams. */
    static final int GRAM = 3;
    /**
     * The most UTF-8 bytes of an entity key indexed as itself; a longer key is indexed by digest
     * ({@link #keyTerm}), and a longer compact key is not indexed. Far below Lucene's 32,766-byte
     * term limit.
     */
    static final int MAX_KEY_BYTES = 1024;
    /** The longest text token in UTF-16 units; the tokenizer splits a longer run (at most 765 UTF-8 bytes a term). */
    static final int MAX_TOKEN_CHARS = 255;

    /** The text field: analysed, with term frequencies and norms for BM25, no positions (no phrase queries). */
    private static final FieldType TEXT_TYPE = textType();

    private FactDocs() {}

    private static FieldType textType() {
        FieldType t = new FieldType(TextField.TYPE_NOT_STORED);
        t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        t.freeze();
        return t;
    }

    /**
     * The index's analyzer: {@link #TEXT} stemmed, {@link #EXACT} not (both: standard tokens of at
     * most {@link #MAX_TOKEN_CHARS}, a longer run of word characters split; English possessives
     * dropped; lower case; English stop words removed; then, for {@code text}, the Porter stemmer).
     * The other fields are not analysed.
     */
    static Analyzer analyzer() {
        return new PerFieldAnalyzerWrapper(new English(true), Map.of(EXACT, new English(false)));
    }

    /** English text: standard tokens, possessives dropped, lower case, stop words removed, optionally stemmed. */
    static final class English extends Analyzer {
        private final boolean stem;

        English(boolean stem) {
            this.stem = stem;
        }

        @Override
        protected TokenStreamComponents createComponents(String field) {
            StandardTokenizer source = new StandardTokenizer();
            source.setMaxTokenLength(MAX_TOKEN_CHARS);
            TokenStream t = new EnglishPossessiveFilter(source);
            t = new LowerCaseFilter(t);
            t = new StopFilter(t, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
            if (stem) {
                t = new PorterStemFilter(t);
            }
            return new TokenStreamComponents(source, t);
        }

        @Override
        protected TokenStream normalize(String field, TokenStream in) {
            return new LowerCaseFilter(in);
        }
    }

    /**
     * The term of an entity key in {@code subj}, {@code pred} and {@code obj}: the key itself when it
     * has at most {@link #MAX_KEY_BYTES} UTF-8 bytes, else {@code #} and the hex SHA-256 of its UTF-8
     * (no key holds {@code #}, so a digest equals no key). Index and queries both use it, so a key
     * matches exactly at any length.
     */
    static String keyTerm(String key) {
        if (asItself(key)) {
            return key;
        }
        try {
            return "#" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** True when {@code key} has at most {@link #MAX_KEY_BYTES} UTF-8 bytes: indexed as itself. */
    static boolean asItself(String key) {
        return key.getBytes(StandardCharsets.UTF_8).length <= MAX_KEY_BYTES;
    }

    /** The term naming one version: id, space, first commit number. */
    static Term versionKey(String id, int from) {
        return new Term(VK, id + " " + from);
    }

    /** An entity key without its spaces: what the spelling channel compares. */
    static String compact(String key) {
        return key.replace(" ", "");
    }

    /** The field of a version's vector (the semantic channel; absent without an embedder). */
    static final String VEC = "vec";

    /**
     * The predicate of a claim whose text is its object alone ({@link #sentenceOf}; the object holds
     * its subject), analysed like {@link #TEXT} and searched with a lower weight: the claim is still
     * found by its predicate, which does not count as a word of its sentence.
     */
    static final String VERB = "verb";

    /**
     * The text a version is found by and embedded from: a claim's object alone when that is the
     * sentence it states ({@link #sentenceOf}); else its body, and its claim's triple when the body
     * does not hold it.
     */
    static String textOf(Fact f) {
        return textOf(f, sentenceOf(f));
    }

    /** {@link #textOf(Fact)} given the claim's {@link #sentenceOf} (null: none). */
    static String textOf(Fact f, String sentence) {
        var g = f.grounding();
        if (!g.hasTriple()) {
            return f.body();
        }
        if (sentence != null) {
            return sentence;
        }
        String triple = g.subject() + " " + g.predicate() + " " + g.object();
        return f.body().contains(triple) ? f.body() : f.body() + "\n" + triple;
    }

    /**
     * The vector cache's key of a version whose fact file is blob {@code blob}: the blob id, or, for a
     * claim embedded from its object alone ({@link #sentenceOf}), the blob id and {@code :sentence}, so
     * a vector a cache holds from when such a claim was embedded from its whole body is not reused.
     */
    static String vectorKey(Fact f, String blob) {
        return vectorKey(blob, sentenceOf(f));
    }

    /** {@link #vectorKey(Fact, String)} given the claim's {@link #sentenceOf} (null: none). */
    static String vectorKey(String blob, String sentence) {
        return sentence == null ? blob : blob + ":sentence";
    }

    /**
     * The object of a claim whose body is the default rendering {@code subject predicate object} and
     * whose object names its subject (the subject key's words, in order, are words of the object's
     * key): the sentence the claim states, which the rendering only prefixes with its subject again
     * and its predicate ("Gina said Gina wants to open a dance studio"). Null for any other fact.
     */
    static String sentenceOf(Fact f) {
        var g = f.grounding();
        return g.hasTriple() ? sentenceOf(f, EntityKey.of(g.subject()), EntityKey.of(g.object())) : null;
    }

    /** {@link #sentenceOf(Fact)} of a claim whose subject and object keys are {@code sk} and {@code ok}. */
    private static String sentenceOf(Fact f, String sk, String ok) {
        var g = f.grounding();
        if (!f.body().equals(g.subject() + " " + g.predicate() + " " + g.object())) {
            return null;
        }
        return !sk.isEmpty() && (" " + ok + " ").contains(" " + sk + " ") ? g.object() : null;
    }

    static Document of(Fact f, int from, String commit, String actor, long timeMillis) {
        return of(f, from, commit, actor, timeMillis, null);
    }

    /** The document of a version; {@code vector} (null: none) is its text's unit vector, searched by HNSW. */
    static Document of(Fact f, int from, String commit, String actor, long timeMillis, float[] vector) {
        String id = f.id().value();
        Document d = new Document();
        d.add(new StringField(VK, id + " " + from, Field.Store.NO));
        d.add(new StringField(ID, id, Field.Store.YES));
        d.add(new SortedDocValuesField(ID, new BytesRef(id)));
        d.add(new StringField(KIND, f.kind().value(), Field.Store.YES));
        d.add(new StringField(ACTOR, actor, Field.Store.YES));
        if (f.run() != null) {
            d.add(new StringField(RUN, f.run(), Field.Store.YES));
        }
        var g = f.grounding();
        String sentence = null;
        if (g.hasTriple()) {
            String sk = EntityKey.of(g.subject());
            String ok = EntityKey.of(g.object());
            sentence = sentenceOf(f, sk, ok);
            d.add(new StringField(SUBJ, keyTerm(sk), Field.Store.NO));
            d.add(new StringField(PRED, keyTerm(EntityKey.of(g.predicate())), Field.Store.NO));
            d.add(new StringField(OBJ, keyTerm(ok), Field.Store.NO));
            d.add(new StoredField(SUBJECT, g.subject()));
            d.add(new StoredField(PREDICATE, g.predicate()));
            d.add(new StoredField(OBJECT, g.object()));
            String csk = compact(sk);
            String cok = compact(ok);
            if (asItself(csk)) {
                d.add(new StringField(CKEY, csk, Field.Store.NO));
            }
            if (!cok.equals(csk) && asItself(cok)) {
                d.add(new StringField(CKEY, cok, Field.Store.NO));
            }
        }
        String text = textOf(f, sentence);
        d.add(new Field(TEXT, text, TEXT_TYPE));
        d.add(new Field(EXACT, text, TEXT_TYPE));
        if (sentence != null) {
            d.add(new Field(VERB, g.predicate(), TEXT_TYPE));
        }
        if (vector != null) {
            d.add(new org.apache.lucene.document.KnnFloatVectorField(VEC, vector,
                    org.apache.lucene.index.VectorSimilarityFunction.DOT_PRODUCT));
        }
        d.add(new StoredField(BODY, f.body()));
        Ref source = null;
        for (String target : targets(f)) {
            d.add(new StringField(REF, target, Field.Store.YES));
        }
        for (Ref r : f.refs()) {
            if (RefRole.SOURCE.equals(r.role())) {
                source = r;
                break;
            }
        }
        if (source != null) {
            d.add(new StoredField(SOURCE, source.id().value()));
            d.add(new StoredField(SOURCE_COMMIT, source.commit() == null ? commit : source.commit().hex()));
        }
        d.add(new StoredField(COMMIT, commit));
        d.add(new StoredField(TIME, timeMillis));
        d.add(new IntPoint(FROM, from));
        d.add(new NumericDocValuesField(FROM, from));
        d.add(new NumericDocValuesField(TO, OPEN));
        return d;
    }

    /**
     * What the fact points at for graph hops: its refs' targets except its sources (provenance, shown
     * on every hit, not a neighbour) and its receipts' members, each once, in order.
     */
    static Set<String> targets(Fact f) {
        Set<String> out = new LinkedHashSet<>();
        for (Ref r : f.refs()) {
            if (!RefRole.SOURCE.equals(r.role())) {
                out.add(r.id().value());
            }
        }
        var g = f.grounding();
        if (g.receipt() != null) {
            g.receipt().bundles().forEach(b -> b.forEach((Pin p) -> out.add(p.id().value())));
        }
        for (Sentence s : g.sentences()) { // a sentence always has a receipt
            s.receipt().bundles().forEach(b -> b.forEach((Pin p) -> out.add(p.id().value())));
        }
        out.remove(f.id().value());
        return out;
    }
}
