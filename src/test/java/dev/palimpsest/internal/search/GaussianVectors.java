package dev.palimpsest.internal.search;

import java.util.Random;

/** Test vectors: each component drawn from a standard normal distribution seeded by the caller. */
final class GaussianVectors {
    private GaussianVectors() {}

    /** A vector of {@code dimensions} components drawn with {@code new Random(seed)} (not unit length). */
    static float[] of(long seed, int dimensions) {
        Random r = new Random(seed);
        float[] v = new float[dimensions];
        for (int k = 0; k < dimensions; k++) {
            v[k] = (float) r.nextGaussian();
        }
        return v;
    }
}
