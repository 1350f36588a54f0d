package dev.palimpsest.internal.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The spelling channel's measure: the Dice coefficient of two strings' character trigram sets,
 * {@code 2 |A ∩ B| / (|A| + |B|)}, in [0, 1]. Entity keys are compared without their spaces, so
 * {@code authservice} and {@code auth-service} (key {@code auth service}) are 1.0 apart, while
 * {@code redsi} and {@code redis} share one trigram of three each (0.33) and stay below {@link
 * #MIN_SIMILARITY}.
 *
 * <p>Candidates are found by term: a key's trigrams are indexed with its <em>length class</em> (of
 * its number of distinct trigrams) as a prefix, so a query word asks each class that could reach
 * the threshold for the number of shared trigrams that class needs (Dice ≥ 0.5 ⇔ {@code 4 |A ∩ B|
 * ≥ |A| + |B|}, hence {@code |A| / 3 ≤ |B| ≤ 3 |A|}) — a conjunction-like query instead of a scored
 * disjunction over every key sharing one common trigram. Stateless; thread-safe.
 */
final class Spelling {
    /** The least similarity at which the spelling channel returns a fact. */
    static final double MIN_SIMILARITY = 0.5;
    /** The smallest trigram count of each length class (each about 1.25 times the last). */
    private static final int[] LOW = lows();

    private Spelling() {}

    private static int[] lows() {
        List<Integer> out = new ArrayList<>(List.of(1));
        while (out.size() < 36) {
            int last = out.get(out.size() - 1);
            out.add(Math.max(last + 1, last * 5 / 4));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The length class of a key with {@code m} distinct trigrams (the last class is open-ended). */
    static int lengthClass(int m) {
        int k = 0;
        while (k + 1 < LOW.length && LOW[k + 1] <= m) {
            k++;
        }
        return k;
    }

    /** The indexed term of one trigram of a key in length class {@code cls}. */
    static String term(int cls, String gram) {
        return (char) ('A' + cls) + gram;
    }

    /** The terms a compact key is indexed under: its distinct trigrams, prefixed with its length class. */
    static Set<String> terms(String key) {
        Set<String> grams = grams(key);
        Set<String> out = new LinkedHashSet<>();
        int cls = lengthClass(grams.size());
        for (String g : grams) {
            out.add(term(cls, g));
        }
        return out;
    }

    /**
     * The query for keys that may be at least {@link #MIN_SIMILARITY} similar to {@code word}: per
     * feasible length class, its trigrams with the least number that must match there; each scores
     * an upper bound of the similarity ({@code 2 × matched / (|A| + the class's least |B|)}), the
     * best class counting; only classes set in {@code occupied}. Empty when the word has no trigram.
     */
    static List<Query> candidates(String word, long occupied) {
        Set<String> grams = grams(word);
        int n = grams.size();
        List<Query> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        int lo = (n + 2) / 3;
        int hi = 3 * n;
        for (int k = lengthClass(lo); k < LOW.length && LOW[k] <= hi; k++) {
            if ((occupied & (1L << k)) == 0) {
                continue;
            }
            int least = Math.max(LOW[k], lo);
            int need = Math.min(n, Math.max(1, (n + least + 3) / 4));
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            for (String g : grams) {
                b.add(new ConstantScoreQuery(new TermQuery(new Term(FactDocs.GRAMS, term(k, g)))), Occur.SHOULD);
            }
            b.setMinimumNumberShouldMatch(need);
            out.add(new BoostQuery(b.build(), 2.0f / (n + least)));
        }
        return out;
    }

    /** Bit k set: some key of {@code reader} is in length class k. */
    static long occupied(LeafReader reader) throws IOException {
        Terms terms = reader.terms(FactDocs.GRAMS);
        if (terms == null) {
            return 0;
        }
        TermsEnum te = terms.iterator();
        long mask = 0;
        for (int k = 0; k < LOW.length; k++) {
            String prefix = String.valueOf((char) ('A' + k));
            if (te.seekCeil(new BytesRef(prefix)) != TermsEnum.SeekStatus.END && te.term().utf8ToString().startsWith(prefix)) {
                mask |= 1L << k;
            }
        }
        return mask;
    }

    static Set<String> grams(String s) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i + FactDocs.GRAM <= s.length(); i++) {
            out.add(s.substring(i, i + FactDocs.GRAM));
        }
        return out;
    }

    static double similarity(String a, String b) {
        return similarity(a, grams(a), b);
    }

    /** {@link #similarity(String, String)} given {@code a}'s trigrams. */
    static double similarity(String a, Set<String> ga, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0.0;
        }
        if (a.equals(b)) {
            return 1.0;
        }
        Set<String> gb = grams(b);
        if (ga.isEmpty() || gb.isEmpty()) {
            return 0.0;
        }
        int common = 0;
        for (String g : ga) {
            if (gb.contains(g)) {
                common++;
            }
        }
        return 2.0 * common / (ga.size() + gb.size());
    }
}
