package dev.palimpsest.internal.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.palimpsest.api.Embedders;
import dev.palimpsest.model.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundled model: unit vectors of 384 numbers that place paraphrases closer than unrelated texts, repeatably. */
class MiniLmTest {
    @Test
    void paraphrasesAreCloserThanUnrelatedTextsAndBatchingChangesNothing() {
        Embedder m = Embedders.local();
        assertThat(m.name()).isEqualTo(Embedder.LOCAL.name());
        List<String> texts = List.of("The cat sat on the mat.", "A kitten was sitting on the rug.",
                "Quarterly revenue grew by eight percent.", "");
        List<float[]> vs = m.embed(texts);
        assertThat(vs).hasSize(4).allSatisfy(v -> {
            assertThat(v).hasSize(384);
            assertThat((double) Vectors.dot(v, v)).isCloseTo(1.0, within(1e-4));
        });
        assertThat(Vectors.dot(vs.get(0), vs.get(1))).isGreaterThan(Vectors.dot(vs.get(0), vs.get(2)) + 0.3f);
        float[] alone = m.embed(List.of(texts.get(2))).get(0);
        // the quantized model scales activations per batch: a vector moves a little with its batch, never far
        assertThat((double) Vectors.dot(alone, vs.get(2))).as("a text alone and in a batch").isCloseTo(1.0, within(0.02));
        assertThat(m.embed(List.of(texts.get(2))).get(0)).as("the same batch gives the same vector").containsExactly(alone);
    }

    @Test
    void questionsAndBatchesEmbeddedAtOnceGetTheVectorsTheyGetAlone() throws Exception {
        Embedder m = Embedders.local();
        List<String> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            batch.add("entity " + i + " owns the service that listens on port " + (8000 + i));
        }
        List<String> questions = List.of("who owns the service on port 8003?", "what listens on port 8017?");
        List<float[]> batchAlone = m.embed(batch);
        List<float[]> questionsAlone = questions.stream().map(q -> m.embed(List.of(q)).get(0)).toList();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            List<java.util.concurrent.Future<List<float[]>>> batches = new java.util.ArrayList<>();
            List<java.util.concurrent.Future<float[]>> asked = new java.util.ArrayList<>();
            for (int round = 0; round < 4; round++) {
                batches.add(pool.submit(() -> m.embed(batch)));
                for (String q : questions) {
                    asked.add(pool.submit(() -> m.embed(List.of(q)).get(0)));
                }
            }
            for (java.util.concurrent.Future<List<float[]>> f : batches) {
                List<float[]> got = f.get();
                for (int i = 0; i < batch.size(); i++) {
                    assertThat((double) Vectors.dot(got.get(i), batchAlone.get(i))).isCloseTo(1.0, within(1e-5));
                }
            }
            for (int i = 0; i < asked.size(); i++) {
                assertThat(asked.get(i).get()).as("a question's vector").containsExactly(questionsAlone.get(i % 2));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
