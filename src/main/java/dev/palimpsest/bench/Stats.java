package dev.palimpsest.bench;

import java.util.Arrays;

/** Percentiles of a sample of durations in nanoseconds. Immutable. */
public record Stats(int n, double p50Millis, double p90Millis, double p99Millis, double meanMillis) {
    public static Stats of(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0) / 1e6;
        return new Stats(s.length, pct(s, 0.50), pct(s, 0.90), pct(s, 0.99), mean);
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    /** The same percentiles in microseconds. */
    public String micros() {
        return String.format("p50 %.2f µs  p90 %.2f µs  p99 %.2f µs  (n=%d)", p50Millis * 1e3, p90Millis * 1e3,
                p99Millis * 1e3, n);
    }

    @Override
    public String toString() {
        return String.format("p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  (n=%d)", p50Millis, p90Millis, p99Millis, n);
    }
}
