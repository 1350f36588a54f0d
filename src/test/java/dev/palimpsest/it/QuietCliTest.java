package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.cli.Main;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's standard error in a process of its own (where {@code Main.main} configures logging): the
 * library's notices show without {@code --json} and nothing at all shows with it, SLF4J's own
 * warnings included.
 */
class QuietCliTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {}

    private Result cli(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(ChildJvm.command(Main.class, args));
        cmd.addAll(List.of("--store", dir.resolve("s.git").toString(), "--home", dir.resolve("home").toString()));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void noticesShowOnStandardErrorWithoutJsonAndNothingShowsWithIt() throws Exception {
        Result init = cli("init", "--actor", "alice", "--json");
        assertThat(init.code()).as(init.err()).isZero();
        assertThat(init.err()).isEmpty();

        Result json = cli("current", "payments", "--json");
        assertThat(json.code()).isZero();
        assertThat(json.out()).isEqualTo("[ ]\n");
        assertThat(json.err()).isEmpty();

        Files.delete(dir.resolve("s.git/palimpsest-index/claims-v1.log"));
        Result text = cli("current", "payments");
        assertThat(text.code()).isZero();
        assertThat(text.err()).startsWith("INFO ClaimsIndex - building the claims index ").doesNotContain("SLF4J");

        Result failed = cli("show", "nope", "--json");
        assertThat(failed.code()).isEqualTo(Main.NOT_FOUND);
        assertThat(failed.err()).isEmpty();
    }
}
