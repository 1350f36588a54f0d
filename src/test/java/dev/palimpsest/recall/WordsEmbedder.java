package dev.palimpsest.recall;

import dev.palimpsest.internal.embed.Vectors;
import dev.palimpsest.model.Embedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A test embedder whose vectors are exact and known: each lower-case word adds 1 to one of 64
 * dimensions chosen by its hash, then the vector is scaled to unit length. It records every text it
 * was asked to embed. Thread-safe.
 */
final class WordsEmbedder implements Embedder {
    static final int DIMENSIONS = 64;
    final List<String> asked = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String name() {
        return "test-words-64";
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        asked.addAll(texts);
        List<float[]> out = new ArrayList<>();
        texts.forEach(t -> out.add(vector(t)));
        return out;
    }

    static float[] vector(String text) {
        float[] v = new float[DIMENSIONS];
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                v[Math.floorMod(w.hashCode(), DIMENSIONS)] += 1;
            }
        }
        return Vectors.unit(v);
    }
}
