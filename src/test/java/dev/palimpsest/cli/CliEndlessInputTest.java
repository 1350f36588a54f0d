package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.Limits;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Every option that reads a file or standard input stops one byte past its limit: an endless
 * input (/dev/zero, a pipe that never ends) is exit 5 [too-large], a JSON error under --json, and
 * nothing is written — never an OutOfMemoryError.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class CliEndlessInputTest extends CliStoreTest {
    private Set<String> before;

    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "r", "--body", "to be retracted");
        before = TestStores.durableState(Path.of(store));
    }

    private void tooLarge(Run r, String subject) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        JsonNode v = new ObjectMapper().readTree(r.out()).get("error").get("violations").get(0);
        assertThat(v.get("rule").asText()).isEqualTo("too-large");
        assertThat(v.get("subject").asText()).contains(subject);
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
    }

    @Test
    void devZeroIsTooLargeForEveryOptionThatReadsAFile() throws Exception {
        tooLarge(cmd("assert", "--actor", "alice", "--id", "z", "--body-file", "/dev/zero", "--json"), "/dev/zero");
        tooLarge(cmd("revise", "--actor", "alice", "r", "--body-file", "/dev/zero", "--json"), "/dev/zero");
        tooLarge(cmd("retract", "--actor", "alice", "r", "--reason-file", "/dev/zero", "--json"), "/dev/zero");
        tooLarge(cmd("ingest", "--actor", "alice", "--file", "/dev/zero", "--json"), "/dev/zero");
        tooLarge(cmd("keys", "add", "--actor", "alice", "--name", "bob", "--key", "/dev/zero", "--json"), "/dev/zero");
        Run text = cmd("assert", "--actor", "alice", "--id", "z", "--body-file", "/dev/zero");
        assertThat(text.code()).isEqualTo(Main.REJECTED);
        assertThat(text.err()).contains("[too-large]").contains("1.0 MiB");
    }

    @Test
    void anEndlessPipeIsReadOneByteBeyondTheLimitAndNoFurther() throws Exception {
        Path fifo = dir.resolve("body.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        AtomicLong written = new AtomicLong();
        long cap = 16L * Limits.MAX_BODY;
        Thread writer = new Thread(() -> {
            byte[] chunk = new byte[1 << 16];
            java.util.Arrays.fill(chunk, (byte) 'a');
            try (OutputStream os = new FileOutputStream(fifo.toFile())) {
                while (written.get() < cap) {
                    os.write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException e) {
                // the reader closed its end: broken pipe
            }
        });
        writer.setDaemon(true);
        writer.start();
        try {
            tooLarge(cmd("assert", "--actor", "alice", "--id", "p", "--body-file", fifo.toString(), "--json"),
                    fifo.toString());
            writer.join(10_000);
            assertThat(written.get()).as("bytes the pipe took before its reader closed it")
                    .isLessThan(2L * Limits.MAX_BODY);
        } finally {
            if (writer.isAlive()) {
                new FileInputStream(fifo.toFile()).close();
            }
        }
    }

    @Test
    void endlessStandardInputIsReadOneByteBeyondTheLimitAndNoFurther() throws Exception {
        AtomicLong read = new AtomicLong();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                read.incrementAndGet();
                return 'a';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) 'a');
                read.addAndGet(len);
                return len;
            }
        };
        List<String> args = new ArrayList<>(List.of("assert", "--actor", "alice", "--id", "in", "--body-file", "-",
                "--json", "--store", store, "--home", home));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), endless, new PrintWriter(out), new PrintWriter(err));
        tooLarge(new Run(code, out.toString(), err.toString()), "standard input");
        assertThat(read.get()).isEqualTo(Limits.MAX_BODY + 1L);
    }
}
