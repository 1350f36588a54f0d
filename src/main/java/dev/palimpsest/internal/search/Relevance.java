package dev.palimpsest.internal.search;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Orders a few texts by relevance to a query, with the search index's analysis of its text field
 * (standard tokens, possessives dropped, lower case, English stop words removed, Porter stems) and
 * BM25 ({@code k1} 1.2, {@code b} 0.75) whose statistics are those of the texts themselves: what
 * dead ends, which the index does not return, need to be ranked. Stateless; thread-safe.
 */
public final class Relevance {
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final Analyzer ANALYZER = FactDocs.analyzer();

    private Relevance() {}

    /**
     * {@code items} most relevant to {@code query} first (by the BM25 score of {@code text} of each),
     * items of equal score (none matching, too) in their given order. A blank query keeps the order.
     */
    public static <T> List<T> rank(List<T> items, Function<T, String> text, String query) {
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(query, "query");
        if (query.isBlank() || items.size() < 2) {
            return List.copyOf(items);
        }
        List<String> texts = new ArrayList<>(items.size());
        items.forEach(i -> texts.add(text.apply(i)));
        double[] score = scores(texts, query);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingDouble(i -> -score[i])); // stable: ties keep their order
        List<T> out = new ArrayList<>(items.size());
        order.forEach(i -> out.add(items.get(i)));
        return out;
    }

    /** The BM25 score of each of {@code texts} for {@code query}, over the texts as the collection. */
    static double[] scores(List<String> texts, String query) {
        Set<String> q = new LinkedHashSet<>(terms(query));
        int n = texts.size();
        List<Map<String, Integer>> tf = new ArrayList<>(n);
        Map<String, Integer> df = new HashMap<>();
        double total = 0;
        int[] len = new int[n];
        for (int i = 0; i < n; i++) {
            Map<String, Integer> f = new HashMap<>();
            List<String> ts = terms(texts.get(i));
            len[i] = ts.size();
            total += ts.size();
            for (String t : ts) {
                if (q.contains(t)) {
                    f.merge(t, 1, Integer::sum);
                }
            }
            f.keySet().forEach(t -> df.merge(t, 1, Integer::sum));
            tf.add(f);
        }
        double avg = n == 0 || total == 0 ? 1 : total / n;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            for (Map.Entry<String, Integer> e : tf.get(i).entrySet()) {
                int d = df.get(e.getKey());
                double idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
                double f = e.getValue();
                out[i] += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * len[i] / avg));
            }
        }
        return out;
    }

    private static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = ANALYZER.tokenStream(FactDocs.TEXT, text)) {
            CharTermAttribute a = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(a.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot analyse text: " + e.getMessage(), e);
        }
        return out;
    }
}
