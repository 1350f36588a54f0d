package dev.palimpsest.internal.index;

import java.util.Arrays;

/**
 * The events of one fact, grouped by chain and sorted by position (commits join a chain at its
 * tip, so appending keeps the order). Not thread-safe (guarded by the index).
 */
final class FactTimeline {
    private int[] chains = new int[1];
    private int[][] positions = new int[1][];
    private FactEvent[][] events = new FactEvent[1][];
    private int[] sizes = new int[1];
    private int chainCount;
    private int total;

    /** How many events the fact has, on every chain. */
    int total() {
        return total;
    }

    void add(int chain, int pos, FactEvent e) {
        total++;
        int c = slot(chain);
        if (positions[c] == null) {
            positions[c] = new int[2];
            events[c] = new FactEvent[2];
        }
        if (sizes[c] == positions[c].length) {
            positions[c] = Arrays.copyOf(positions[c], sizes[c] * 2);
            events[c] = Arrays.copyOf(events[c], sizes[c] * 2);
        }
        positions[c][sizes[c]] = pos;
        events[c][sizes[c]] = e;
        sizes[c]++;
    }

    /** The last event on {@code chain} at or before {@code pos}, or null. */
    FactEvent lastAtOrBefore(int chain, int pos) {
        int c = find(chain);
        if (c < 0) {
            return null;
        }
        int i = Arrays.binarySearch(positions[c], 0, sizes[c], pos);
        if (i < 0) {
            i = -i - 2;
        }
        return i < 0 ? null : events[c][i];
    }

    /** The events on {@code chain} at or before {@code pos}, oldest first. */
    void eachAtOrBefore(int chain, int pos, java.util.function.Consumer<FactEvent> each) {
        int c = find(chain);
        if (c < 0) {
            return;
        }
        for (int i = 0; i < sizes[c] && positions[c][i] <= pos; i++) {
            each.accept(events[c][i]);
        }
    }

    /** True when an event on {@code chain} at or before {@code pos} writes a version citing {@code target}. */
    boolean cites(int chain, int pos, String target) {
        int c = find(chain);
        if (c < 0) {
            return false;
        }
        for (int i = 0; i < sizes[c] && positions[c][i] <= pos; i++) {
            FactEvent e = events[c][i];
            if (e.live()) {
                for (RefPin r : e.refs()) {
                    if (r.target().equals(target)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Every event, chain by chain. */
    void forEach(java.util.function.Consumer<FactEvent> each) {
        for (int c = 0; c < chainCount; c++) {
            for (int i = 0; i < sizes[c]; i++) {
                each.accept(events[c][i]);
            }
        }
    }

    private int find(int chain) {
        for (int c = 0; c < chainCount; c++) {
            if (chains[c] == chain) {
                return c;
            }
        }
        return -1;
    }

    private int slot(int chain) {
        int c = find(chain);
        if (c >= 0) {
            return c;
        }
        if (chainCount == chains.length) {
            int n = chainCount * 2;
            chains = Arrays.copyOf(chains, n);
            positions = Arrays.copyOf(positions, n);
            events = Arrays.copyOf(events, n);
            sizes = Arrays.copyOf(sizes, n);
        }
        chains[chainCount] = chain;
        return chainCount++;
    }
}
