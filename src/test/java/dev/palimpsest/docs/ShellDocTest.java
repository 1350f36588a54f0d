package dev.palimpsest.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The doctest harness itself: it fails on a broken block, compares output, and skips no-run blocks. */
class ShellDocTest {
    @TempDir
    Path dir;

    private ShellDoc.Run runDoc(String markdown) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("HOME", dir.toString());
        return ShellDoc.run(ShellDoc.parse(markdown), dir, env, Duration.ofSeconds(30));
    }

    private void check(String markdown) throws Exception {
        ShellDoc.check("doc.md", ShellDoc.parse(markdown), runDoc(markdown));
    }

    @Test
    void aFailingCommandFailsTheDocumentNamingItsBlockAndNothingAfterItRuns() throws Exception {
        String doc = """
                # title

                ```sh
                echo one
                ```

                ```sh
                echo two
                false
                echo never
                ```

                ```sh
                touch ran-after
                ```
                """;
        assertThatThrownBy(() -> check(doc)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("the sh block at line 7 failed (exit 1)")
                .hasMessageContaining("echo two\nfalse")
                .hasMessageContaining("--- its standard output:\ntwo");
        assertThat(dir.resolve("ran-after")).doesNotExist();
    }

    @Test
    void aFailingCommandInAPipelineOrAnUnsetVariableFailsTheBlock() {
        assertThatThrownBy(() -> check("```sh\nfalse | cat\n```\n")).hasMessageContaining("failed (exit 1)");
        assertThatThrownBy(() -> check("```sh\necho \"$NOT_SET_ANYWHERE\"\n```\n")).hasMessageContaining("failed");
    }

    @Test
    void aBlockThatPrintsSomethingElseThanItsTextBlockFails() {
        String doc = """
                ```sh
                echo "initialised kb.git at 1234"
                echo "exit 5"
                ```

                ```text
                initialised kb.git at …
                exit 4
                ```
                """;
        assertThatThrownBy(() -> check(doc)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 block(s) printed something else")
                .hasMessageContaining("the sh block at line 1 printed something else")
                .hasMessageContaining("--- printed:\ninitialised kb.git at 1234\nexit 5");
    }

    @Test
    void anEllipsisMatchesWithinALineAndAnEllipsisLineMatchesAnyNumberOfLines() throws Exception {
        check("""
                ```sh
                printf 'id: t1 at 4f2a9c\\nnoise 1\\nnoise 2\\nlast\\n'
                ```

                ```text
                id: … at …
                …
                last
                ```
                """);
        assertThat(ShellDoc.matches("a\n…\nb", "a\nb")).isTrue();
        assertThat(ShellDoc.matches("a\n…\nb", "a\nx\ny\nb")).isTrue();
        assertThat(ShellDoc.matches("a\nb", "a\nb\nc")).isFalse();
        assertThat(ShellDoc.matches("x … z", "x y")).isFalse();
        assertThat(ShellDoc.matches("[ … ]", "[ a.b* ]")).isTrue();
        assertThat(ShellDoc.matches("a.c", "abc")).as("everything but … is literal").isFalse();
    }

    @Test
    void stateCarriesFromBlockToBlockAndNoRunBlocksNeverRun() throws Exception {
        check("""
                ```sh
                export GREETING=hello
                mkdir sub && cd sub
                ```

                ```sh no-run
                exit 1
                ```

                ```sh
                echo "$GREETING from $(basename "$PWD")"
                ```

                ```text
                hello from sub
                ```

                ```java
                System.exit(1);
                ```
                """);
    }

    @Test
    void aBlockWithoutATextBlockMayPrintAnythingAndStderrIsNeverCompared() throws Exception {
        check("""
                ```sh
                echo anything; echo "to stderr" >&2
                ```

                ```sh
                echo exact
                ```

                ```text
                exact
                ```
                """);
    }

    @Test
    void aBlockThatExitsTheSessionEarlyFails() {
        assertThatThrownBy(() -> check("```sh\nexit 0\n```\n\n```sh\necho later\n```\n"))
                .hasMessageContaining("ended the session early");
    }

    @Test
    void aProcessABlockLeftRunningIsStoppedAtTheEnd() throws Exception {
        check("```sh\nsleep 300 &\necho $! > pid\nsleep 1\n```\n");
        long pid = Long.parseLong(Files.readString(dir.resolve("pid"), StandardCharsets.UTF_8).strip());
        ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void theReadmeFollowsTheConventions() throws Exception {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        assertThat(readme.getBytes(StandardCharsets.UTF_8).length).as("README.md stays a front door: at most 40 kB")
                .isLessThanOrEqualTo(40_000);
        List<ShellDoc.Block> blocks = ShellDoc.parse(readme);
        assertThat(blocks.get(0).code()).as("the first command").isEqualTo("./palimpsest demo");
        assertThat(blocks.get(0).line()).as("the quick start is on the first screen").isLessThan(40);
        assertThat(blocks.get(1).code()).as("the second command").isEqualTo("mvn -B verify");
        assertThat(blocks.stream().filter(b -> !b.runs()).map(ShellDoc.Block::code))
                .as("blocks that do not run are few, each for a reason").containsExactly("mvn -B verify");
        assertThat(blocks.stream().filter(ShellDoc.Block::runs).filter(b -> b.expected() != null).count())
                .as("most blocks show what they print").isGreaterThanOrEqualTo(8);
        assertThat(readme).doesNotContain("java -jar target/palimpsest.jar demo");
    }
}
