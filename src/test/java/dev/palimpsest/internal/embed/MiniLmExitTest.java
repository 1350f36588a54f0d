package dev.palimpsest.internal.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process stopped while the bundled model loads or runs exits as asked, never by a crash in the
 * model (ONNX Runtime's shutdown hook used to free the model's environment under it: SIGSEGV).
 */
class MiniLmExitTest {
    @TempDir
    Path dir;

    @Test
    void sigtermWhileTheModelLoadsOrRunsEndsTheProcessWithoutACrash() throws Exception {
        // the model loads in about half a second after "embedding" on this machine: offsets on both sides of it
        long[] offsets = {250, 400, 500, 600, 700, 900};
        List<String> crashes = new ArrayList<>();
        for (long offset : offsets) {
            Path out = dir.resolve("probe-" + offset + ".out");
            Process p = probe(out, "100000", "wait");
            awaitLine(out, "embedding");
            Thread.sleep(offset);
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the probe exits within 60 s of SIGTERM").isTrue();
            int code = p.exitValue();
            if (code != 143 || crashed(p)) {
                crashes.add("SIGTERM " + offset + " ms after starting: exit " + code + "\n"
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
        }
        assertThat(crashes).isEmpty();
    }

    @Test
    void systemExitWhileTheModelRunsEndsTheProcessWithoutACrash() throws Exception {
        Path out = dir.resolve("probe-exit.out");
        Process p = probe(out, "1500", "exit");
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(out)).isZero();
        assertThat(crashed(p)).isFalse();
    }

    private Process probe(Path out, String delay, String mode) throws Exception {
        // its own temp folder: a probe stopped while ONNX Runtime unpacks its libraries leaves them there
        List<String> cmd = List.of(System.getProperty("java.home") + "/bin/java", "-Xmx256m",
                "-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")),
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"), "-cp", System.getProperty("java.class.path"),
                EmbedderExitProbe.class.getName(), delay, mode);
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
    }

    private boolean crashed(Process p) {
        return Files.exists(dir.resolve("hs_err_" + p.pid() + ".log"));
    }

    private static void awaitLine(Path out, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(out) && Files.readString(out).contains(line)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the probe did not start: " + Files.readString(out));
    }
}
