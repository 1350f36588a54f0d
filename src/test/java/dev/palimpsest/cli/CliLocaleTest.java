package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.TestStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The CLI in a child JVM under {@code LANG=C}, where Java decodes the command line as ASCII. */
class CliLocaleTest extends CliStoreTest {
    private static final String TEXT = "café 日本";

    private record Child(int code, byte[] out, String err) {}

    private Child underLangC(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--store", store, "--home", home));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANGUAGE"));
        env.put("LANG", "C");
        env.put("LC_ALL", "C");
        Path out = dir.resolve("child.out");
        Path err = dir.resolve("child.err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child exited").isTrue();
        return new Child(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void underLangCANonAsciiBodyArgumentIsRefusedAndABodyFileIsStoredExactly() throws Exception {
        ok("init", "--actor", "alice");
        var before = TestStores.durableState(Path.of(store));
        Child damaged = underLangC("assert", "--actor", "alice", "--id", "d", "--body", TEXT);
        assertThat(damaged.code()).as(damaged.err()).isEqualTo(Main.REJECTED);
        assertThat(damaged.err()).contains("damaged-argument").contains("--body-file").contains("UTF-8 locale");
        assertThat(TestStores.durableState(Path.of(store))).as("nothing written").isEqualTo(before);

        Path f = Files.write(dir.resolve("body.txt"), TEXT.getBytes(StandardCharsets.UTF_8));
        Child landed = underLangC("assert", "--actor", "alice", "--id", "d", "--body-file", f.toString());
        assertThat(landed.code()).as(landed.err()).isZero();
        Child json = underLangC("show", "d", "--json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(new ObjectMapper().readTree(json.out()).get("body").asText()).isEqualTo(TEXT);
        Child text = underLangC("show", "d");
        assertThat(new String(text.out(), StandardCharsets.UTF_8)).as("stdout is UTF-8 whatever the locale")
                .contains("body:   " + TEXT);
    }
}
