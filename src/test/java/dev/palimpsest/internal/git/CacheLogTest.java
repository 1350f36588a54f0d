package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared cache-log framing, each field corrupted on its own, and the append-or-replace save. */
class CacheLogTest {
    private static final int MAGIC = 0x54455354;
    private static final int VERSION = 3;
    private static final ObjectId GENESIS = ObjectId.fromString("00112233445566778899aabbccddeeff00112233");

    @TempDir
    Path dir;

    private static byte[] payload(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] log(String... payloads) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(CacheLog.header(MAGIC, VERSION, GENESIS));
        for (String p : payloads) {
            out.writeBytes(CacheLog.frame(payload(p)));
        }
        return out.toByteArray();
    }

    private static List<String> read(byte[] file) throws CacheLog.Corrupt {
        List<String> out = new ArrayList<>();
        for (CacheLog.Framed<String> f : CacheLog.records(file, b -> StandardCharsets.UTF_8.decode(b).toString())) {
            out.add(f.record());
        }
        return out;
    }

    @Test
    void theHeaderIsMagicVersionAndTheRawGenesis() throws Exception {
        byte[] h = CacheLog.header(MAGIC, VERSION, GENESIS);
        assertThat(h).hasSize(CacheLog.HEADER);
        ByteBuffer b = ByteBuffer.wrap(h);
        assertThat(b.getInt()).isEqualTo(MAGIC);
        assertThat(b.getInt()).isEqualTo(VERSION);
        assertThat(ObjectId.fromRaw(h, 8)).isEqualTo(GENESIS);
        assertThat(CacheLog.genesis(h, MAGIC, VERSION)).isEqualTo(GENESIS);
    }

    @Test
    void aRecordIsItsLengthPayloadAndCrc() {
        byte[] p = payload("héllo");
        byte[] f = CacheLog.frame(p);
        CRC32 crc = new CRC32();
        crc.update(p);
        ByteBuffer b = ByteBuffer.wrap(f);
        assertThat(f).hasSize(p.length + 8);
        assertThat(b.getInt()).isEqualTo(p.length);
        assertThat(Arrays.copyOfRange(f, 4, 4 + p.length)).isEqualTo(p);
        assertThat(b.getInt(4 + p.length)).isEqualTo((int) crc.getValue());
    }

    @Test
    void recordsReadBackWithTheirFramedBytes() throws Exception {
        byte[] file = log("a", "", "third");
        List<CacheLog.Framed<String>> rs = CacheLog.records(file, b -> StandardCharsets.UTF_8.decode(b).toString());
        assertThat(rs).extracting(CacheLog.Framed::record).containsExactly("a", "", "third");
        assertThat(rs.get(2).bytes()).isEqualTo(CacheLog.frame(payload("third")));
        assertThat(read(log())).isEmpty();
    }

    @Test
    void aBadMagicVersionOrShortHeaderIsCorrupt() throws Exception {
        byte[] file = log("a");
        for (int i = 0; i < 8; i++) {
            byte[] b = file.clone();
            b[i] ^= 0x10;
            assertThatThrownBy(() -> CacheLog.genesis(b, MAGIC, VERSION)).isInstanceOf(CacheLog.Corrupt.class)
                    .hasMessage(i < 4 ? "bad magic" : "format version " + (VERSION ^ (i == 7 ? 0x10 : 0x10 << 8 * (7 - i)))
                            + ", expected " + VERSION);
        }
        assertThatThrownBy(() -> CacheLog.genesis(Arrays.copyOf(file, CacheLog.HEADER - 1), MAGIC, VERSION))
                .hasMessage("shorter than its header");
        assertThat(CacheLog.genesis(Arrays.copyOf(file, CacheLog.HEADER), MAGIC, VERSION)).isEqualTo(GENESIS);
    }

    @Test
    void everyTruncationInsideARecordIsATornRecord() throws Exception {
        byte[] file = log("first", "second");
        int second = CacheLog.HEADER + 5 + 8;
        for (int len = second + 1; len < file.length; len++) {
            byte[] cut = Arrays.copyOf(file, len);
            int l = len;
            assertThatThrownBy(() -> read(cut)).as("cut at %d", l).isInstanceOf(CacheLog.Corrupt.class)
                    .hasMessageStartingWith("a torn").hasMessageContaining("at byte " + second);
        }
        assertThat(read(Arrays.copyOf(file, second))).containsExactly("first");
    }

    @Test
    void aLengthRunningPastTheEndOrNegativeIsTorn() {
        byte[] file = log("first", "second");
        int second = CacheLog.HEADER + 5 + 8;
        for (int n : new int[] {7, Integer.MAX_VALUE, -1}) {
            byte[] b = file.clone();
            ByteBuffer.wrap(b).putInt(second, n);
            assertThatThrownBy(() -> read(b)).hasMessage("a torn or malformed record at byte " + second);
        }
        byte[] b = file.clone();
        ByteBuffer.wrap(b).putInt(second, 5);
        assertThatThrownBy(() -> read(b)).hasMessage("a CRC mismatch in the record at byte " + second);
    }

    @Test
    void aFlippedPayloadOrCrcByteIsACrcMismatch() {
        byte[] file = log("first", "second");
        for (int at = CacheLog.HEADER + 4; at < CacheLog.HEADER + 13; at++) {
            byte[] b = file.clone();
            b[at] ^= 0x01;
            assertThatThrownBy(() -> read(b)).hasMessage("a CRC mismatch in the record at byte " + CacheLog.HEADER);
        }
    }

    @Test
    void aPayloadTheParserRejectsIsMalformed() {
        byte[] file = log("x");
        assertThatThrownBy(() -> CacheLog.records(file, b -> {
            throw new IllegalArgumentException("no");
        })).isInstanceOf(CacheLog.Corrupt.class).hasMessageStartingWith("a malformed record at byte 28: ")
                .hasMessageEndingWith("no");
    }

    @Test
    void stringsAreALengthAndUtf8AndImpossibleLengthsAreRejected() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        CacheLog.writeString(new DataOutputStream(buf), "zürich");
        byte[] b = buf.toByteArray();
        assertThat(ByteBuffer.wrap(b).getInt()).isEqualTo(7);
        assertThat(b).hasSize(11);
        assertThat(CacheLog.readString(ByteBuffer.wrap(b))).isEqualTo("zürich");
        ByteBuffer exact = ByteBuffer.wrap(b);
        CacheLog.readString(exact);
        assertThat(exact.hasRemaining()).isFalse();
        for (int n : new int[] {8, -1}) {
            byte[] bad = b.clone();
            ByteBuffer.wrap(bad).putInt(0, n);
            assertThatThrownBy(() -> CacheLog.readString(ByteBuffer.wrap(bad)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("bad string length " + n);
        }
        assertThat(CacheLog.take(ByteBuffer.wrap(new byte[] {1, 2, 3}), 2)).containsExactly(1, 2);
    }

    @Test
    void saveAppendsToTheFileAsLeftAndReplacesItOtherwise() throws Exception {
        Path file = dir.resolve("sub").resolve("t.log");
        byte[] header = CacheLog.header(MAGIC, VERSION, GENESIS);
        List<byte[]> framed = new ArrayList<>(List.of(CacheLog.frame(payload("a")), CacheLog.frame(payload("bb"))));
        long len = CacheLog.save(file, header, framed, 0, -1);
        assertThat(Files.readAllBytes(file)).isEqualTo(log("a", "bb"));
        assertThat(len).isEqualTo(Files.size(file));

        framed.add(CacheLog.frame(payload("ccc")));
        Files.writeString(dir.resolve("sub").resolve("marker"), "x");
        long appended = CacheLog.save(file, header, framed, 2, len);
        assertThat(Files.readAllBytes(file)).isEqualTo(log("a", "bb", "ccc"));
        assertThat(appended).isEqualTo(len + 3 + 8);

        // the file changed behind this process: rewritten whole, not appended to
        Files.write(file, Arrays.copyOf(Files.readAllBytes(file), 30));
        framed.add(CacheLog.frame(payload("d")));
        long replaced = CacheLog.save(file, header, framed, 3, appended);
        assertThat(Files.readAllBytes(file)).isEqualTo(log("a", "bb", "ccc", "d"));
        assertThat(replaced).isEqualTo(Files.size(file));
        try (var s = Files.list(file.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("t.log", "marker");
        }
    }
}
