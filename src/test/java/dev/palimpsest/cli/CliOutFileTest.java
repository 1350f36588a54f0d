package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * {@code --out} to a device or a FIFO writes in place (the node stays), a write failure is exit 5
 * {@code file-unwritable}; a regular file is still replaced whole.
 */
@EnabledOnOs(OS.LINUX)
class CliOutFileTest extends CliStoreTest {
    private static final Path FULL = Path.of("/dev/full");
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;

    private final byte[] content = "col\n\u0000\u00ff binary and text\n".repeat(5000).getBytes(StandardCharsets.UTF_8);
    private String id;

    @BeforeEach
    void init() throws Exception {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "doc-1", "--body", "A source document.");
        Path f = Files.write(dir.resolve("data.bin"), content);
        id = ok("file", "put", "--actor", "alice", "data.bin", "--file", f.toString(), "--source", "doc-1", "--json")
                .json().get("id").asText();
    }

    private static int type(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode") & S_IFMT;
    }

    private static void unwritable(Run r, String subject) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        JsonNode v = r.json().get("error").get("violations").get(0);
        assertThat(v.get("rule").asText()).isEqualTo("file-unwritable");
        assertThat(v.get("subject").asText()).isEqualTo("--out " + subject);
        assertThat(v.get("message").asText()).containsIgnoringCase("no space left on device");
    }

    private static void noTempFilesIn(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".palimpsest-"));
        }
    }

    @Test
    void fileGetToDevFullIsAClearErrorAndLeavesTheDevice() throws Exception {
        assumeTrue(Files.exists(FULL) && type(FULL) == S_IFCHR, "/dev/full is a character device");
        unwritable(cmd("file", "get", id, "--out", FULL.toString(), "--json"), FULL.toString());
        assertThat(type(FULL)).isEqualTo(S_IFCHR);
        noTempFilesIn(FULL.getParent());
    }

    @Test
    void keysGenerateToDevFullIsAClearErrorAndLeavesTheDevice() throws Exception {
        assumeTrue(Files.exists(FULL) && type(FULL) == S_IFCHR, "/dev/full is a character device");
        Run r = cmd("keys", "generate", "--name", "bob", "--out", FULL.toString(), "--json");
        unwritable(r, FULL.toString());
        assertThat(r.json().get("error").get("violations").get(0).get("message").asText())
                .contains("the secret key was generated in").contains("bob.sec.asc");
        assertThat(type(FULL)).isEqualTo(S_IFCHR);
    }

    /** Runs {@code args}, whose --out is a FIFO, with a reader on it; the bytes it received. */
    private byte[] throughFifo(Path fifo, String... args) throws Exception {
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        AtomicReference<byte[]> got = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try (InputStream in = new FileInputStream(fifo.toFile())) { // JDK 17's readAllBytes seeks: not on a FIFO
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    bytes.write(buf, 0, n);
                }
                got.set(bytes.toByteArray());
            } catch (IOException e) {
                got.set(new byte[0]);
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            ok(args);
            reader.join(10_000);
            assertThat(type(fifo)).as("still a FIFO").isEqualTo(S_IFIFO);
        } finally {
            if (reader.isAlive() && type(fifo) == S_IFIFO) {
                new FileOutputStream(fifo.toFile()).close();
            }
        }
        assertThat(got.get()).as("the reader received the output").isNotNull();
        noTempFilesIn(dir);
        return got.get();
    }

    @Test
    void fileGetToAFifoStreamsTheExactBytesToItsReader() throws Exception {
        Path fifo = dir.resolve("out.fifo");
        assertThat(throughFifo(fifo, "file", "get", id, "--out", fifo.toString())).isEqualTo(content);
    }

    @Test
    void keysGenerateToAFifoStreamsThePublicKeyToItsReader() throws Exception {
        Path fifo = dir.resolve("key.fifo");
        String key = new String(throughFifo(fifo, "keys", "generate", "--name", "carol", "--out", fifo.toString()),
                StandardCharsets.US_ASCII);
        assertThat(key).startsWith("-----BEGIN PGP PUBLIC KEY BLOCK-----");
    }

    @Test
    void aRegularOutFileIsReplacedWholeAndAMissingFolderIsUnwritable() throws Exception {
        Path out = Files.writeString(dir.resolve("got.bin"), "old and longer than nothing");
        ok("file", "get", id, "--out", out.toString());
        assertThat(Files.readAllBytes(out)).isEqualTo(content);
        Path nowhere = dir.resolve("missing").resolve("got.bin");
        Run r = cmd("file", "get", id, "--out", nowhere.toString(), "--json");
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("file-unwritable");
        Run folder = cmd("file", "get", id, "--out", dir.toString(), "--json");
        assertThat(folder.code()).isEqualTo(Main.REJECTED);
        assertThat(folder.json().get("error").get("violations").get(0).get("message").asText()).isEqualTo("is a folder");
        noTempFilesIn(dir);
    }
}
