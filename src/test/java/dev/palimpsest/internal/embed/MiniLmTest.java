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
}
