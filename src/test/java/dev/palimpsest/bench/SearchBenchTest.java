package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.Embedder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search bench end to end on a small store, with a semantic channel whose vectors are cheap. */
class SearchBenchTest {
    @TempDir
    Path dir;

    /** Eight dimensions from the text's hash; counts the texts it embeds. */
    private static final class HashEmbedder implements Embedder {
        final AtomicLong texts = new AtomicLong();

        @Override
        public String name() {
            return "test-hash-8";
        }

        @Override
        public int dimensions() {
            return 8;
        }

        @Override
        public List<float[]> embed(List<String> in) {
            texts.addAndGet(in.size());
            List<float[]> out = new ArrayList<>();
            for (String t : in) {
                float[] v = new float[8];
                v[Math.floorMod(t.hashCode(), 8)] = 1;
                out.add(v);
            }
            return out;
        }
    }

    @Test
    void aSmallRunWithFewExtraCommitsWritesEveryPhaseAndEmbedsWhatItWrites() throws Exception {
        StringWriter out = new StringWriter();
        HashEmbedder embedder = new HashEmbedder();
        SearchBench.Result r = new SearchBench(dir, new PrintWriter(out), embedder).run(300, 100, 100, 100, 5, 5, 0, 42,
                false);
        assertThat(r.facts()).isEqualTo(300);
        assertThat(r.extraCommits()).isEqualTo(5);
        assertThat(r.semantic().embedder()).isEqualTo("test-hash-8");
        assertThat(r.semantic().batchWritesPerSecond()).isPositive();
        assertThat(r.semantic().oneFactWritesPerSecond()).isPositive();
        assertThat(r.semantic().indexBytes()).isPositive();
        // every fact written after the build (the extra commits and the writes that embed) was embedded at least once
        assertThat(embedder.texts.get()).isGreaterThanOrEqualTo(300 + SearchBench.EMBED_WINDOWS * 300
                + SearchBench.EMBED_ONE_FACT_WRITES);
        assertThat(r.semantic().batchWindows()).hasSize(SearchBench.EMBED_WINDOWS).allMatch(w -> w > 0);
        assertThat(r.semantic().batchWritesPerSecond()).isEqualTo(r.semantic().batchWindows().get(0));
        // the warm rounds of free-text questions: each of the samples asked, each timed
        assertThat(r.textHeadRounds()).hasSize(SearchBench.WARM_ROUNDS).allMatch(x -> x.n() == 5);
        assertThat(r.textHeadWarmCpu().n()).isEqualTo(5);
        assertThat(out.toString()).contains("writes that embed:", "4 windows of 300 facts in a row",
                "6 rounds of 5 in a row", "the same, warm");
    }

    @Test
    void aGrownRunAsksTheIndexItsWritesGrewWithoutRebuildingIt() throws Exception {
        StringWriter out = new StringWriter();
        HashEmbedder embedder = new HashEmbedder();
        SearchBench.Result r = new SearchBench(dir, new PrintWriter(out), embedder).run(300, 100, 10, 10, 5, 5, 0, 42,
                false, true);
        assertThat(r.grown()).isTrue();
        assertThat(r.rebuildSeconds()).isZero();
        assertThat(r.semantic().rebuildSeconds()).isZero();
        // the documents of the index asked: the 300 claims and the source, each version its own
        assertThat(r.indexSegments().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(301);
        assertThat(r.indexSegments()).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(r.textHead().n()).isEqualTo(5);
        assertThat(r.textHeadRounds()).hasSize(SearchBench.WARM_ROUNDS);
        assertThat(out.toString()).contains("the index open: every commit indexed and embedded as it landed",
                "opened the grown index", "the index searched: ").doesNotContain("cold rebuild (");
        assertThat(embedder.texts.get()).as("each claim embedded as it was written, and only then")
                .isGreaterThanOrEqualTo(300);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SearchBench(dir, new PrintWriter(out), embedder)
                .run(300, 100, 10, 10, 5, 5, 0, 42, true, true)).isInstanceOf(IllegalArgumentException.class);
        java.nio.file.Path scratch = java.nio.file.Files.createDirectory(dir.resolve("refused"));
        var refused = dev.palimpsest.cli.Run.of("bench", "search", "--grown", "--keep", "--json", "--dir",
                scratch.toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.json().at("/error/kind").asText()).isEqualTo("usage");
        assertThat(refused.json().at("/error/message").asText()).contains("--grown", "--keep");
        try (var left = java.nio.file.Files.list(scratch)) {
            assertThat(left).as("nothing written for a refused run").isEmpty();
        }
    }
}
