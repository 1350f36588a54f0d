package dev.palimpsest.internal.crypto;

import java.io.ByteArrayOutputStream;

/**
 * The one canonical framing of a key ring's OpenPGP packets, so that a key has exactly one stored
 * encoding: public-key, public-subkey and user-id packets (tags 6, 14, 13) with old-format headers,
 * every other packet (signatures) with new-format headers, each length in its shortest form; the
 * packet bodies are kept byte for byte. This is the framing Palimpsest's generated keys have.
 * Stateless.
 */
final class PacketFraming {
    private PacketFraming() {}

    /** The packets of {@code binary} reframed canonically; throws IllegalArgumentException when it does not split into packets. */
    static byte[] canonical(byte[] binary) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(binary.length);
        int p = 0;
        while (p < binary.length) {
            int ctb = binary[p] & 0xff;
            if ((ctb & 0x80) == 0) {
                throw new IllegalArgumentException("byte " + p + " is not an OpenPGP packet header");
            }
            int tag;
            long len;
            int header;
            if ((ctb & 0x40) != 0) {
                tag = ctb & 0x3f;
                int l0 = at(binary, p + 1);
                if (l0 < 192) {
                    len = l0;
                    header = 2;
                } else if (l0 < 224) {
                    len = ((long) (l0 - 192) << 8) + at(binary, p + 2) + 192;
                    header = 3;
                } else if (l0 == 255) {
                    len = be(binary, p + 2, 4);
                    header = 6;
                } else {
                    throw new IllegalArgumentException("partial body lengths are not used in keys");
                }
            } else {
                tag = (ctb >> 2) & 0x0f;
                int type = ctb & 3;
                if (type == 3) {
                    throw new IllegalArgumentException("indeterminate lengths are not used in keys");
                }
                int n = type == 0 ? 1 : type == 1 ? 2 : 4;
                len = be(binary, p + 1, n);
                header = 1 + n;
            }
            if (len > binary.length - p - header) {
                throw new IllegalArgumentException("packet at byte " + p + " runs past the end");
            }
            write(out, tag, binary, p + header, (int) len);
            p += header + (int) len;
        }
        return out.toByteArray();
    }

    /** True when {@code binary} is already in canonical framing. */
    static boolean isCanonical(byte[] binary) {
        return java.util.Arrays.equals(binary, canonical(binary));
    }

    private static void write(ByteArrayOutputStream out, int tag, byte[] src, int off, int len) {
        boolean old = tag == 6 || tag == 13 || tag == 14;
        if (old) {
            if (len < 0x100) {
                out.write(0x80 | tag << 2);
                out.write(len);
            } else if (len < 0x10000) {
                out.write(0x80 | tag << 2 | 1);
                out.write(len >> 8);
                out.write(len);
            } else {
                out.write(0x80 | tag << 2 | 2);
                writeInt(out, len);
            }
        } else {
            out.write(0xc0 | tag);
            if (len < 192) {
                out.write(len);
            } else if (len < 8384) {
                out.write(((len - 192) >> 8) + 192);
                out.write(len - 192);
            } else {
                out.write(255);
                writeInt(out, len);
            }
        }
        out.write(src, off, len);
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private static int at(byte[] b, int i) {
        if (i >= b.length) {
            throw new IllegalArgumentException("truncated packet header");
        }
        return b[i] & 0xff;
    }

    private static long be(byte[] b, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | at(b, off + i);
        }
        return v;
    }
}
