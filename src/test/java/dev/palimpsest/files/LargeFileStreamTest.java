package dev.palimpsest.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A 64 MiB file is put, read back and audited by a child JVM limited to a 32 MiB heap: content streams. */
class LargeFileStreamTest {
    @TempDir
    Path dir;

    @Test
    void a64MiBFileIsStoredAndAuditedUnderA32MiBHeap() throws Exception {
        Path big = dir.resolve("big.bin");
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[1 << 20];
        Random rnd = new Random(7);
        try (OutputStream out = Files.newOutputStream(big)) {
            for (int i = 0; i < 64; i++) {
                rnd.nextBytes(buf);
                md.update(buf);
                out.write(buf);
            }
        }
        String sha = HexFormat.of().formatHex(md.digest());
        List<String> cmd = List.of(System.getProperty("java.home") + "/bin/java", "-Xmx32m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), LargePutMain.class.getName(), dir.resolve("s").toString(),
                big.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("sha256 " + sha).contains("violations 0");
        MessageDigest back = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(dir.resolve("big.bin.back"))) {
            byte[] b = new byte[1 << 16];
            int n;
            while ((n = in.read(b)) > 0) {
                back.update(b, 0, n);
            }
        }
        assertThat(HexFormat.of().formatHex(back.digest())).as("file get streams the bytes back").isEqualTo(sha);
        Path git = dir.resolve("s/store.git");
        String path = out.lines().filter(l -> l.startsWith("path ")).findFirst().orElseThrow().substring(5);
        Process size = new ProcessBuilder("git", "--git-dir", git.toString(), "cat-file", "-s", "main:" + path).start();
        assertThat(new String(size.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim())
                .isEqualTo(String.valueOf(64L << 20));
        Process fsck = new ProcessBuilder("git", "--git-dir", git.toString(), "fsck", "--strict").redirectErrorStream(true).start();
        String fo = new String(fsck.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(fsck.waitFor()).as(fo).isZero();
    }
}
