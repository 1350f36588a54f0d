package dev.palimpsest.internal.search;

import java.io.IOException;
import java.util.ArrayList;
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
        /** Trigram code (three UTF-16 units in a long) to its number in {@link #postings}. */
        private final Codes codes;
        private final int[][] postings;

        private Keys(String[] keys, int[] start, Codes codes, int[][] postings) {
            this.keys = keys;
            this.start = start;
            this.codes = codes;
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
            int n = keys.size();
            long[][] grams = new long[n][];
            int most = 0;
            for (int i = 0; i < n; i++) {
                grams[i] = codes(keys.get(i));
                most = Math.max(most, grams[i].length);
            }
            int[] start = new int[most + 2];
            for (long[] g : grams) {
                start[g.length + 1]++;
            }
            for (int m = 1; m < start.length; m++) {
                start[m] += start[m - 1];
            }
            int[] next = java.util.Arrays.copyOf(start, start.length);
            String[] sorted = new String[n];
            long[][] byId = new long[n][];
            for (int i = 0; i < n; i++) {
                int id = next[grams[i].length]++;
                sorted[id] = keys.get(i);
                byId[id] = grams[i];
            }
            Codes codes = new Codes();
            int[] count = new int[64];
            for (long[] g : byId) {
                for (long c : g) {
                    int k = codes.add(c);
                    if (k == count.length) {
                        count = java.util.Arrays.copyOf(count, count.length * 2);
                    }
                    count[k]++;
                }
            }
            int[][] postings = new int[codes.size()][];
            for (int k = 0; k < postings.length; k++) {
                postings[k] = new int[count[k]];
                count[k] = 0;
            }
            for (int id = 0; id < n; id++) {
                for (long c : byId[id]) {
                    int k = codes.get(c);
                    postings[k][count[k]++] = id;
                }
            }
            return new Keys(sorted, start, codes, postings);
        }

        /**
         * Adds to {@code out} every key at least {@link #MIN_SIMILARITY} similar to the word
         * (whose trigrams are {@code grams}) with its similarity, keeping the larger one for a key
         * already there. Dice ≥ 0.5 between n and m trigrams means at least {@code t = ⌈(n + m) / 4⌉}
         * shared (so m lies in [n / 3, 3 n]); for each such m, a key sharing t trigrams appears in at
         * least two of the postings of any n − t + 2 of the word's trigrams (in one of all n when t
         * is 1), so keys are counted over the rarest n − t + 2, and those seen often enough are
         * counted exactly by binary search in the others.
         */
        void matches(Set<String> grams, Map<String, Double> out) {
            int n = grams.size();
            if (n == 0 || keys.length == 0) {
                return;
            }
            List<int[]> all = new ArrayList<>(n);
            for (String g : grams) {
                int k = codes.get(code(g, 0));
                all.add(k < 0 ? new int[0] : postings[k]);
            }
            int[] from = new int[n];
            int[] to = new int[n];
            Integer[] rank = new Integer[n];
            for (int i = 0; i < n; i++) {
                rank[i] = i;
            }
            int[] count = null;
            for (int m = 1; m + 1 < start.length; m++) {
                int lo = start[m];
                int hi = start[m + 1];
                int t = (n + m + 3) / 4; // the fewest shared trigrams at Dice >= 0.5
                if (lo == hi || t > Math.min(n, m)) {
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    int[] p = all.get(i);
                    from[i] = lowerBound(p, lo);
                    to[i] = lowerBound(p, hi);
                }
                shortestFirst(rank, from, to);
                // a key sharing t trigrams holds at least need of any `lists` of the word's
                int lists = n - Math.max(0, t - 2);
                int need = Math.min(t, 2);
                if (count == null) {
                    count = new int[keys.length]; // by key number; cleaned after each size
                }
                for (int r = 0; r < lists; r++) {
                    int[] p = all.get(rank[r]);
                    for (int x = from[rank[r]]; x < to[rank[r]]; x++) {
                        count[p[x]]++;
                    }
                }
                for (int r = 0; r < lists; r++) {
                    int[] p = all.get(rank[r]);
                    for (int x = from[rank[r]]; x < to[rank[r]]; x++) {
                        int id = p[x];
                        int shared = count[id];
                        count[id] = 0; // counted once; the array is clean for the next size
                        if (shared < need) {
                            continue;
                        }
                        for (int q = lists; q < n && shared + (n - q) >= t; q++) {
                            int i = rank[q];
                            if (java.util.Arrays.binarySearch(all.get(i), from[i], to[i], id) >= 0) {
                                shared++;
                            }
                        }
                        if (shared >= t) { // Dice >= 0.5; a key equal to the word shares all: 1.0
                            out.merge(keys[id], 2.0 * shared / (n + m), Math::max);
                        }
                    }
                }
            }
        }

        /** Orders the word's trigrams by the length of their postings' band, shortest first. */
        @dev.palimpsest.model.DoNotMutate("speed only: any order is exact (keys are counted over any n - t + 2 of them)")
        private static void shortestFirst(Integer[] rank, int[] from, int[] to) {
            java.util.Arrays.sort(rank, java.util.Comparator.comparingInt(i -> to[i] - from[i]));
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

    /** The trigram at {@code i} of {@code s} as one number: its three UTF-16 units, 16 bits each. */
    static long code(String s, int i) {
        return (long) s.charAt(i) << 32 | (long) s.charAt(i + 1) << 16 | s.charAt(i + 2);
    }

    /** The distinct trigram codes of {@code s}, ascending. */
    static long[] codes(String s) {
        int n = Math.max(0, s.length() - FactDocs.GRAM + 1);
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            c[i] = code(s, i);
        }
        java.util.Arrays.sort(c);
        int d = 0;
        for (int i = 0; i < n; i++) {
            if (d == 0 || c[i] != c[d - 1]) {
                c[d++] = c[i];
            }
        }
        return d == n ? c : java.util.Arrays.copyOf(c, d);
    }

    /** Numbers trigram codes 0, 1, 2, … in order of first addition: open addressing, linear probing. */
    static final class Codes {
        private long[] table = new long[1024];
        private int[] number = new int[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        /** The number of {@code c}, or -1. */
        int get(long c) {
            int mask = table.length - 1;
            for (int i = hash(c) & mask; used[i]; i = (i + 1) & mask) {
                if (table[i] == c) {
                    return number[i];
                }
            }
            return -1;
        }

        /** The number of {@code c}, giving it the next one when new. */
        int add(long c) {
            int mask = table.length - 1;
            int i = hash(c) & mask;
            for (; used[i]; i = (i + 1) & mask) {
                if (table[i] == c) {
                    return number[i];
                }
            }
            used[i] = true;
            table[i] = c;
            number[i] = size;
            if (++size * 2 > table.length) {
                grow();
            }
            return size - 1;
        }

        int size() {
            return size;
        }

        private void grow() {
            long[] t = table;
            int[] num = number;
            boolean[] u = used;
            table = new long[t.length * 2];
            number = new int[t.length * 2];
            used = new boolean[t.length * 2];
            int mask = table.length - 1;
            for (int j = 0; j < t.length; j++) {
                if (u[j]) {
                    int i = hash(t[j]) & mask;
                    while (used[i]) {
                        i = (i + 1) & mask;
                    }
                    used[i] = true;
                    table[i] = t[j];
                    number[i] = num[j];
                }
            }
        }

        @dev.palimpsest.model.DoNotMutate("speed only: linear probing finds every code under any hash; a poor one probes longer")
        private static int hash(long c) {
            long h = c * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
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
