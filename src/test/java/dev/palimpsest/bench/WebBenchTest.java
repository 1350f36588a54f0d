package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench web} run small: every page of the web view answers 200 HTML, each one timed cold and warm. */
class WebBenchTest {
    @TempDir
    Path tmp;

    @Test
    void aRefusedCommandLineBuildsNothingAndSaysWhyInJson() throws Exception {
        Path untouched = java.nio.file.Files.createDirectory(tmp.resolve("untouched"));
        dev.palimpsest.cli.Run bad = dev.palimpsest.cli.Run.of("bench", "web", "--facts", "0", "--dir", untouched.toString(),
                "--json");
        assertThat(bad.code()).isEqualTo(5);
        assertThat(bad.json().get("error").get("message").asText()).contains("--facts");
        try (var left = java.nio.file.Files.list(untouched)) {
            assertThat(left).as("nothing built for a refused command line").isEmpty();
        }
    }

    @Test
    void aSmallRunAnswersEveryPageAndTimesEachColdAndWarm() throws Exception {
        StringWriter log = new StringWriter();
        WebBench.Result r = new WebBench(new WebBench.Options(tmp, 400, 40, 3), new PrintWriter(log)).run();
        assertThat(r.violations()).as(log.toString()).isEmpty();
        assertThat(r.commits()).isEqualTo(11);
        assertThat(r.warm()).hasSize(9).allSatisfy((page, s) -> assertThat(s.n()).isEqualTo(3));
        assertThat(r.firstMillis()).containsOnlyKeys(r.warm().keySet());
    }
}
