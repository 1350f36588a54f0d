package dev.palimpsest.testing;

import java.util.Random;

/**
 * The seed of one randomized test run, injected by {@link Seeds}; derive every random choice from it.
 *
 * @param value the seed: {@code -Dpalimpsest.seed=N} replays a run
 */
public record Seed(long value) {

    /** A fresh {@link Random} over this seed; each call starts the same sequence. */
    public Random random() {
        return new Random(value);
    }

    /** A seed for a sub-stream, so parts of a test can draw independently yet replay together. */
    public long derive(long salt) {
        long z = value + 0x9E3779B97F4A7C15L * (salt + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        return "seed " + value + " (replay: " + Seeds.replayHint(value) + ")";
    }
}
