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

    @Test
    void aTextPaddedBesideLongerOnesGetsTheVectorItGetsAmongItsOwnLength() {
        Embedder m = Embedders.local();
        String shortText = "Service-12 listens on port 80";
        List<String> mixed = List.of(shortText, "Service-12 listens on port 80 behind a proxy",
                "Service-12 listens on port 80 behind it");
        float[] padded = m.embed(mixed).get(0);
        float[] unpadded = m.embed(List.of(shortText, shortText)).get(0);
        int[] pieces = mixed.stream().mapToInt(MiniLm.instance()::pieces).toArray();
        assertThat(pieces[1]).as("the second text is padded").isGreaterThan(pieces[0]);
        assertThat(MiniLm.runs(pieces)).as("one run").hasSize(1);
        // the padding is masked out: only the per-run quantization scales move the vector
        assertThat((double) Vectors.dot(padded, unpadded)).isCloseTo(1.0, within(0.02));
        assertThat(Vectors.dot(padded, m.embed(List.of("Quarterly revenue grew by eight percent.", shortText)).get(1)))
                .isGreaterThan(0.98f);
    }

    @Test
    void runsGoInOrderOfLengthAndAreCutAtTheBatchSizeAndAtHalfAgainTheShortest() {
        int[] lengths = new int[70];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = i < 40 ? 10 + i % 3 : i < 60 ? 16 : 30;
        }
        List<List<Integer>> runs = MiniLm.runs(lengths);
        assertThat(runs.stream().mapToInt(List::size).sum()).isEqualTo(70);
        assertThat(runs.stream().flatMap(List::stream).distinct().count()).isEqualTo(70);
        for (List<Integer> run : runs) {
            assertThat(run.size()).isLessThanOrEqualTo(MiniLm.BATCH);
            int min = run.stream().mapToInt(i -> lengths[i]).min().orElseThrow();
            int max = run.stream().mapToInt(i -> lengths[i]).max().orElseThrow();
            assertThat((double) max).isLessThanOrEqualTo(MiniLm.PAD_ALLOWANCE * min);
        }
        // 14 texts of 10 pieces, 13 of 11, 13 of 12, 20 of 16, 10 of 30: the first run is full (32, up to 12),
        // the next starts at 12 and takes the 16s (at most 18), the 30s make their own
        assertThat(runs.get(0)).allSatisfy(i -> assertThat(lengths[i]).isLessThanOrEqualTo(12));
        assertThat(runs).extracting(List::size).containsExactly(32, 28, 10);
        assertThat(MiniLm.runs(new int[] {5, 5, 5})).containsExactly(List.of(0, 1, 2));
    }
}
