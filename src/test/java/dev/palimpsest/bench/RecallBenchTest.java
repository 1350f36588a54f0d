package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recall benchmark's reading of data files and its recall@k per question type, on a committed fixture. */
class RecallBenchTest {
    @TempDir
    Path dir;

    private static final Path FIXTURE = Path.of("src/test/resources/bench/recall-fixture.jsonl");

    @Test
    void readsGenericAndOpenBookQaLinesDerivingTheTypeOfAStem() throws Exception {
        List<RecallBench.Question> qs = RecallBench.read(FIXTURE, 0);
        assertThat(qs).hasSize(5);
        assertThat(qs.get(2).evidence()).hasSize(2);
        assertThat(qs.get(3)).isEqualTo(new RecallBench.Question("Plants need sunlight to", "completion",
                List.of("plants require sunlight to grow")));
        assertThat(qs.get(4).type()).isEqualTo("what");
        assertThat(RecallBench.typeOf("Is the sky blue?")).isEqualTo("question");
        assertThat(RecallBench.read(FIXTURE, 2)).hasSize(2);
    }

    @Test
    void theClaimsShapedSubjectIsThePassagesFirstContentWord() {
        assertThat(RecallBench.subjectOf("the sun is the source of energy")).isEqualTo("sun");
        assertThat(RecallBench.subjectOf("a an of")).isEqualTo("passage");
    }

    @Test
    void recallIsTheShareOfAQuestionsEvidenceInTheTopKAveragedPerType() throws Exception {
        StringWriter out = new StringWriter();
        RecallBench.Result r = new RecallBench(dir, new PrintWriter(out)).run(FIXTURE, 0);
        assertThat(r.questions()).isEqualTo(5);
        try (var left = java.nio.file.Files.list(dir)) {
            assertThat(left).as("each variant's store is deleted after it").isEmpty();
        }
        assertThat(r.passages()).isEqualTo(6);
        assertThat(r.sha256()).hasSize(64);
        assertThat(r.variants()).extracting(RecallBench.Variant::name).containsExactly("plain lexical", "plain hybrid", "claims lexical",
                "claims hybrid");
        for (RecallBench.Variant v : r.variants()) {
            assertThat(v.rows().get(0).type()).isEqualTo("all");
            assertThat(v.rows().get(0).n()).isEqualTo(5);
            assertThat(v.rows()).extracting(RecallBench.Row::type).containsExactly("all", "completion", "what", "where",
                    "which", "who");
            if (v.name().endsWith("lexical")) {
                // the ferries' second passage shares no word with the question: the words find half its evidence
                assertThat(v.rows()).allSatisfy(row -> assertThat(row.at50())
                        .isEqualTo(row.type().equals("where") ? 0.5 : row.type().equals("all") ? 0.9 : 1.0));
            }
        }
        for (int i = 0; i < 4; i += 2) {
            RecallBench.Variant lexical = r.variants().get(i);
            RecallBench.Variant hybrid = r.variants().get(i + 1);
            for (int k = 0; k < lexical.rows().size(); k++) {
                assertThat(hybrid.rows().get(k).at50()).as("meaning adds to the words")
                        .isGreaterThanOrEqualTo(lexical.rows().get(k).at50());
            }
        }
        assertThat(out.toString()).contains("R@10", "plain lexical (6 facts", "claims hybrid (6 facts");
    }
}
