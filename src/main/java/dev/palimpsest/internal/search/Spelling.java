package dev.palimpsest.internal.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;

/**
 * The spelling channel's measure: the Dice coefficient of two strings' character trigram sets,
 * {@code 2 |A ∩ B| / (|A| + |B|)}, in [0, 1]. Entity keys are compared without their spaces, so
 * {@code authservice} and {@code auth-service} (key {@code auth service}) are 1.0 apart, while
 * {@code redsi} and {@code redis} share one trigram of three each (0.33) and stay below {@link
 * #MIN_SIMILARITY}.
 *
 * <p>Candidates are found among keys, not documents: {@link Keys} is the trigram dictionary of the
 * distinct compact keys one index segment holds (its {@code ckey} terms), built once per segment;
 * {@link Keys#matches} counts, per key, the trigrams it shares with a query word and keeps the keys
 * at least {@link #MIN_SIMILARITY} similar — exactly, with no candidate bound to miss. The documents
 * holding them are then found by term. Stateless (a {@link Keys} is immutable); thread-safe.
 */
final class Spelling {
    /** The least similarity at which the spelling channel returns a fact. */
    static final double MIN_SIMILARITY = 0.5;

    private Spelling() {}

    /**
     * The distinct compact keys of one segment with their trigrams: an in-memory inverted index whose
     * key numbers ascend with the keys' trigram counts, so each trigram's postings list is sorted by
     * count and its part for one count is found by binary search.
     */
    static final class Keys {
        private final String[] keys;
        /** Keys with m distinct trigrams are numbered [start[m], start[m + 1]). */
        private final int[] start;
        private final Map<String, int[]> postings;

        private Keys(String[] keys, int[] start, Map<String, int[]> postings) {
            this.keys = keys;
            this.start = start;
            this.postings = postings;
        }

        /** The dictionary of the {@code ckey} terms of {@code reader}. */
        static Keys of(LeafReader reader) throws IOException {
            List<String> keys = new ArrayList<>();
            Terms terms = reader.terms(FactDocs.CKEY);
            if (terms != null) {
                TermsEnum te = terms.iterator();
                for (BytesRef t = te.next(); t != null; t = te.next()) {
                    keys.add(t.utf8ToString());
                }
            }
            return of(keys);
        }

        /** The dictionary of {@code keys} (distinct). */
        static Keys of(List<String> keys) {
            List<Set<String>> grams = new ArrayList<>(keys.size());
            int most = 0;
            for (String k : keys) {
                Set<String> g = grams(k);
                grams.add(g);
                most = Math.max(most, g.size());
            }
            Integer[] order = new Integer[keys.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> grams.get(i).size()));
            String[] sorted = new String[order.length];
            int[] start = new int[most + 2];
            Map<String, int[]> counts = new HashMap<>();
            for (int id = 0; id < order.length; id++) {
                Set<String> g = grams.get(order[id]);
                sorted[id] = keys.get(order[id]);
                start[g.size() + 1] = id + 1;
                for (String t : g) {
                    counts.computeIfAbsent(t, x -> new int[1])[0]++;
                }
            }
            for (int m = 1; m < start.length; m++) {
                start[m] = Math.max(start[m], start[m - 1]);
            }
            Map<String, int[]> postings = new HashMap<>(counts.size() * 2);
            counts.forEach((t, n) -> postings.put(t, new int[n[0]]));
            for (int id = 0; id < order.length; id++) {
                for (String t : grams.get(order[id])) {
                    int[] fill = counts.get(t);
                    int[] p = postings.get(t);
                    p[p.length - fill[0]--] = id;
                }
            }
            return new Keys(sorted, start, postings);
        }

        /**
         * Adds to {@code out} every key at least {@link #MIN_SIMILARITY} similar to the word
         * (whose trigrams are {@code grams}) with its similarity, keeping the larger one for a key
         * already there. Dice ≥ 0.5 between n and m trigrams needs {@code t = ⌈(n + m) / 4⌉} shared,
         * so m lies in [n / 3, 3 n]; for each such m, a key sharing t trigrams appears in at least two
         * of the postings of any n − t + 2 of the word's trigrams (in one of n − t + 1), so keys are
         * counted over the rarest n − t + 2, and those seen often enough are counted exactly by binary
         * search in the others.
         */
        void matches(Set<String> grams, Map<String, Double> out) {
            int n = grams.size();
            if (n == 0 || keys.length == 0) {
                return;
            }
            List<int[]> all = new ArrayList<>(n);
            for (String g : grams) {
                int[] p = postings.get(g);
                all.add(p == null ? new int[0] : p);
            }
            int[] from = new int[n];
            int[] to = new int[n];
            Integer[] rank = new Integer[n];
            for (int m = (n + 2) / 3; m <= 3 * n && m + 1 < start.length; m++) {
                int lo = start[m];
                int hi = start[m + 1];
                int t = Math.max(1, (n + m + 3) / 4);
                if (lo == hi || t > Math.min(n, m)) {
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    int[] p = all.get(i);
                    from[i] = lowerBound(p, lo);
                    to[i] = lowerBound(p, hi);
                    rank[i] = i;
                }
                java.util.Arrays.sort(rank, java.util.Comparator.comparingInt(i -> to[i] - from[i]));
                // a key sharing t trigrams holds at least need = t - (n - lists) of any `lists` of the word's
                int lists = Math.min(n, n - t + 2);
                int need = t - (n - lists);
                int[] count = new int[hi - lo];
                for (int r = 0; r < lists; r++) {
                    int[] p = all.get(rank[r]);
                    for (int x = from[rank[r]]; x < to[rank[r]]; x++) {
                        count[p[x] - lo]++;
                    }
                }
                for (int r = 0; r < lists; r++) {
                    int[] p = all.get(rank[r]);
                    for (int x = from[rank[r]]; x < to[rank[r]]; x++) {
                        int id = p[x];
                        int shared = count[id - lo];
                        if (shared < need) {
                            continue;
                        }
                        count[id - lo] = 0; // counted once
                        for (int q = lists; q < n && shared + (n - q) >= t; q++) {
                            int i = rank[q];
                            if (java.util.Arrays.binarySearch(all.get(i), from[i], to[i], id) >= 0) {
                                shared++;
                            }
                        }
                        if (4 * shared >= n + m) { // Dice >= 0.5; a key equal to the word shares all: 1.0
                            out.merge(keys[id], 2.0 * shared / (n + m), Math::max);
                        }
                    }
                }
            }
        }

        /** The first index of {@code p} whose value is at least {@code v}. */
        private static int lowerBound(int[] p, int v) {
            int lo = 0;
            int hi = p.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (p[mid] < v) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** How many keys the dictionary holds. */
        int size() {
            return keys.length;
        }
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
