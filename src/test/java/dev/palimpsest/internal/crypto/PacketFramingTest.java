package dev.palimpsest.internal.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Date;
import org.junit.jupiter.api.Test;

/** Canonical framing: key packets old-format, others new-format, every length in its shortest form. */
class PacketFramingTest {
    private static final int PUBLIC_KEY = 6;
    private static final int USER_ID = 13;
    private static final int SUBKEY = 14;
    private static final int SIGNATURE = 2;

    private static byte[] body(int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    private static byte[] oldHeader(int tag, int type, int len) {
        int ctb = 0x80 | tag << 2 | type;
        return switch (type) {
            case 0 -> bytes(ctb, len);
            case 1 -> bytes(ctb, len >> 8, len);
            default -> bytes(ctb, len >>> 24, len >>> 16, len >>> 8, len);
        };
    }

    private static byte[] newHeader(int tag, int form, int len) {
        int ctb = 0xc0 | tag;
        return switch (form) {
            case 1 -> bytes(ctb, len);
            case 2 -> bytes(ctb, ((len - 192) >> 8) + 192, (len - 192) & 0xff);
            default -> bytes(ctb, 255, len >>> 24, len >>> 16, len >>> 8, len);
        };
    }

    @Test
    void keyPacketsTakeTheShortestOldFormatHeaderAtEachLengthBoundary() {
        for (int tag : new int[] {PUBLIC_KEY, USER_ID, SUBKEY}) {
            for (int[] c : new int[][] {{0, 0}, {1, 0}, {255, 0}, {256, 1}, {65535, 1}, {65536, 2}}) {
                byte[] b = body(c[0]);
                byte[] expected = cat(oldHeader(tag, c[1], c[0]), b);
                for (int type = 0; type <= 2; type++) {
                    if (type == 0 && c[0] > 255 || type == 1 && c[0] > 65535) {
                        continue;
                    }
                    assertThat(PacketFraming.canonical(cat(oldHeader(tag, type, c[0]), b)))
                            .as("tag %d length %d from old type %d", tag, c[0], type).isEqualTo(expected);
                }
                int form = c[0] < 192 ? 1 : c[0] < 8384 ? 2 : 5;
                assertThat(PacketFraming.canonical(cat(newHeader(tag, form, c[0]), b)))
                        .as("tag %d length %d from new format", tag, c[0]).isEqualTo(expected);
                assertThat(PacketFraming.isCanonical(expected)).isTrue();
            }
        }
    }

    @Test
    void otherPacketsTakeTheShortestNewFormatHeaderAtEachLengthBoundary() {
        for (int[] c : new int[][] {{0, 1}, {191, 1}, {192, 2}, {255, 2}, {8383, 2}, {8384, 5}, {70000, 5}}) {
            byte[] b = body(c[0]);
            byte[] expected = cat(newHeader(SIGNATURE, c[1], c[0]), b);
            assertThat(PacketFraming.canonical(cat(newHeader(SIGNATURE, 5, c[0]), b)))
                    .as("length %d from a five-byte length", c[0]).isEqualTo(expected);
            int type = c[0] < 256 ? 0 : c[0] < 65536 ? 1 : 2;
            assertThat(PacketFraming.canonical(cat(oldHeader(SIGNATURE, type, c[0]), b)))
                    .as("length %d from old format", c[0]).isEqualTo(expected);
            assertThat(PacketFraming.isCanonical(expected)).isTrue();
        }
    }

    @Test
    void everyByteOfAFourByteLengthIsReadAndWritten() {
        int len = 0x01020304;
        byte[] b = body(len);
        byte[] oldKey = cat(oldHeader(PUBLIC_KEY, 2, len), b);
        assertThat(Arrays.copyOf(PacketFraming.canonical(cat(newHeader(PUBLIC_KEY, 5, len), b)), 5))
                .isEqualTo(bytes(0x9a, 1, 2, 3, 4));
        assertThat(PacketFraming.isCanonical(oldKey)).isTrue();
        byte[] sig = PacketFraming.canonical(cat(oldHeader(SIGNATURE, 2, len), b));
        assertThat(Arrays.copyOf(sig, 6)).isEqualTo(bytes(0xc2, 255, 1, 2, 3, 4));
        assertThat(sig).hasSize(len + 6);
        assertThat(sig[6 + len - 1]).isEqualTo(b[len - 1]);
    }

    @Test
    void aSequenceOfPacketsIsReframedPacketByPacketKeepingBodies() {
        byte[] key = body(40);
        byte[] uid = "alice <a@x>".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] sig = body(300);
        byte[] in = cat(newHeader(PUBLIC_KEY, 1, 40), key, oldHeader(USER_ID, 1, uid.length), uid,
                oldHeader(SIGNATURE, 1, 300), sig);
        byte[] expected = cat(oldHeader(PUBLIC_KEY, 0, 40), key, oldHeader(USER_ID, 0, uid.length), uid,
                newHeader(SIGNATURE, 2, 300), sig);
        assertThat(PacketFraming.canonical(in)).isEqualTo(expected);
        assertThat(PacketFraming.isCanonical(in)).isFalse();
        assertThat(PacketFraming.isCanonical(expected)).isTrue();
        assertThat(PacketFraming.canonical(new byte[0])).isEmpty();
    }

    @Test
    void aGeneratedKeyRingIsAlreadyCanonical() {
        byte[] ring = OpenPgpKeys.encode(OpenPgpKeys.publicRing(OpenPgpKeys.generate("a", "a@x", new Date()))::encode);
        assertThat(PacketFraming.isCanonical(ring)).isTrue();
    }

    @Test
    void bytesThatDoNotSplitIntoPacketsAreRejectedNamingWhy() {
        assertThatThrownBy(() -> PacketFraming.canonical(cat(oldHeader(USER_ID, 0, 1), bytes('a'), bytes(0x7f))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("byte 3 is not an OpenPGP packet header");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0xc2, 224, 0)))
                .hasMessage("partial body lengths are not used in keys");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0xc2, 254, 0)))
                .hasMessage("partial body lengths are not used in keys");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0x9b, 0)))
                .hasMessage("indeterminate lengths are not used in keys");
        assertThatThrownBy(() -> PacketFraming.canonical(cat(bytes(0xb4, 3), bytes('a', 'b'))))
                .hasMessage("packet at byte 0 runs past the end");
        assertThatThrownBy(() -> PacketFraming.canonical(cat(bytes(0xb4, 1, 'a'), bytes(0xb4, 3), bytes('a', 'b'))))
                .hasMessage("packet at byte 3 runs past the end");
        assertThat(PacketFraming.canonical(cat(bytes(0xb4, 2), bytes('a', 'b')))).isEqualTo(bytes(0xb4, 2, 'a', 'b'));
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0xc2)))
                .hasMessage("truncated packet header");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0xc2, 200)))
                .hasMessage("truncated packet header");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0x99, 0)))
                .hasMessage("truncated packet header");
        assertThatThrownBy(() -> PacketFraming.canonical(bytes(0xc2, 255, 0, 0, 0)))
                .hasMessage("truncated packet header");
        assertThat(PacketFraming.canonical(bytes(0xc2, 255, 0, 0, 0, 0))).isEqualTo(bytes(0xc2, 0));
    }
}
