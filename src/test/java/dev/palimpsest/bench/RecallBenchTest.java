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
        assertThat(r.passages()).isEqualTo(6);
        assertThat(r.sha256()).hasSize(64);
        assertThat(r.variants()).extracting(RecallBench.Variant::name).containsExactly("plain", "claims");
        for (RecallBench.Variant v : r.variants()) {
            assertThat(v.rows().get(0).type()).isEqualTo("all");
            assertThat(v.rows().get(0).n()).isEqualTo(5);
            assertThat(v.rows()).extracting(RecallBench.Row::type).containsExactly("all", "completion", "what", "where",
                    "which", "who");
            // the ferries' second passage shares no word with the question: half its evidence is found
            assertThat(v.rows()).allSatisfy(row -> assertThat(row.at50())
                    .isEqualTo(row.type().equals("where") ? 0.5 : row.type().equals("all") ? 0.9 : 1.0));
        }
        assertThat(out.toString()).contains("R@10", "plain (6 facts)");
    }
}
