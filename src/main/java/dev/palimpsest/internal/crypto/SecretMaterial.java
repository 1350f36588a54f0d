package dev.palimpsest.internal.crypto;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.bouncycastle.bcpg.BCPGInputStream;
import org.bouncycastle.bcpg.PacketTags;
import org.bouncycastle.bcpg.SecretKeyPacket;

/**
 * Recognises OpenPGP secret-key material, which a store never takes in (rule {@code
 * secret-material}): text or bytes holding an armor header line of a private key block ({@code
 * -----BEGIN PGP PRIVATE KEY BLOCK-----}, or PGP 2's {@code SECRET KEY BLOCK}), bytes that begin
 * with a secret-key or secret-subkey packet that BouncyCastle parses and that is shaped as exporters
 * write one (see {@link #secretPacket}; a binary export), and files
 * whose real path lies in the key home. Stateless; thread-safe.
 */
public final class SecretMaterial {
    private static final String[] HEADER_LINES = {
        "-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----BEGIN PGP SECRET KEY BLOCK-----"};
    private static final byte[][] HEADERS = {
        HEADER_LINES[0].getBytes(StandardCharsets.US_ASCII), HEADER_LINES[1].getBytes(StandardCharsets.US_ASCII)};
    private static final String ARMORED = "holds an OpenPGP private key block (its armor header line)";
    private static final String BINARY = "begins with an OpenPGP secret-key packet";
    /** How many leading bytes are parsed for a binary secret-key packet (a 16,384-bit RSA key's is about 8 KiB). */
    static final int HEAD = 1 << 16;

    private SecretMaterial() {}

    /** What makes {@code text} secret-key material (a sentence to follow its subject), or null when nothing does. */
    public static String inText(String text) {
        for (String h : HEADER_LINES) {
            if (text.contains(h)) {
                return ARMORED;
            }
        }
        return null;
    }

    /** What makes {@code bytes} secret-key material, or null when nothing does. */
    public static String inBytes(byte[] bytes) {
        Scan s = new Scan(InputStream.nullInputStream());
        s.see(bytes, 0, bytes.length);
        return s.found(true);
    }

    /**
     * Why {@code file} may not be taken in because its real path (links resolved) lies in the key
     * home {@code home}, or null when it does not, or either does not exist.
     */
    public static String inKeyHome(Path file, Path home) {
        try {
            Path h = home.toRealPath();
            Path f = file.toRealPath();
            return f.startsWith(h) ? "resolves to " + f + ", in the key home " + h + ", which holds secret keys"
                    : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * {@code in}, checked as it is read: the read that completes an armor header line, or the end
     * of a stream that begins with a secret-key packet, throws {@link Found}.
     */
    public static InputStream scanning(InputStream in) {
        return new Scan(in);
    }

    /** A stream found to hold secret-key material; its message says what it holds. */
    public static final class Found extends IOException {
        Found(String what) {
            super(what);
        }
    }

    /** True when {@code b[0, n)} begins with a whole secret-key or secret-subkey packet. */
    static boolean secretPacket(byte[] b, int n) {
        if (n < 2 || (b[0] & 0x80) == 0) {
            return false;
        }
        int tag = (b[0] & 0x40) != 0 ? b[0] & 0x3f : (b[0] >> 2) & 0x0f;
        if (tag != PacketTags.SECRET_KEY && tag != PacketTags.SECRET_SUBKEY) {
            return false;
        }
        try (BCPGInputStream in = new BCPGInputStream(new ByteArrayInputStream(b, 0, n))) {
            return in.readPacket() instanceof SecretKeyPacket p && plausible(p);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * True when a parsed secret-key packet is shaped as exporters write one: a key version from 2 to
     * 6, and its secret part either protected by an S2K specifier (usage 253, 254 or 255) or in the
     * clear; in the clear before version 6 its two-octet checksum must match. BouncyCastle parses
     * fixed-size keys (X25519, Ed448, …) from almost any bytes, so noise that happens to begin with a
     * secret-key tag would pass without these checks. PGP 2's legacy protection (the usage octet
     * naming a cipher directly) is not recognised.
     */
    private static boolean plausible(SecretKeyPacket p) {
        int version = p.getPublicKeyPacket().getVersion();
        if (version < 2 || version > 6) {
            return false;
        }
        int usage = p.getS2KUsage();
        if (usage == SecretKeyPacket.USAGE_SHA1 || usage == SecretKeyPacket.USAGE_CHECKSUM
                || usage == SecretKeyPacket.USAGE_AEAD) {
            return p.getS2K() != null;
        }
        if (usage != SecretKeyPacket.USAGE_NONE) {
            return false;
        }
        if (version == 6) {
            return true;
        }
        byte[] data = p.getSecretKeyData();
        if (data == null || data.length < 2) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < data.length - 2; i++) {
            sum += data[i] & 0xff;
        }
        return (sum & 0xffff) == ((data[data.length - 2] & 0xff) << 8 | (data[data.length - 1] & 0xff));
    }

    /** Matches the armor headers (Knuth-Morris-Pratt, across reads) and keeps the first {@link #HEAD} bytes. */
    private static final class Scan extends FilterInputStream {
        private static final int[][] FAIL = new int[HEADERS.length][];

        static {
            for (int i = 0; i < HEADERS.length; i++) {
                byte[] p = HEADERS[i];
                int[] f = new int[p.length];
                for (int q = 1, k = 0; q < p.length; q++) {
                    while (k > 0 && p[q] != p[k]) {
                        k = f[k - 1];
                    }
                    if (p[q] == p[k]) {
                        k++;
                    }
                    f[q] = k;
                }
                FAIL[i] = f;
            }
        }

        private final int[] matched = new int[HEADERS.length];
        private boolean armored;
        private byte[] head = new byte[256];
        private int headLength;
        /** Whether the head was judged (once whole, or at the end), and what it held. */
        private boolean judged;
        private boolean binary;

        Scan(InputStream in) {
            super(in);
        }

        void see(byte[] b, int off, int len) {
            if (!judged && headLength < HEAD) {
                int take = Math.min(len, HEAD - headLength);
                if (headLength + take > head.length) {
                    head = Arrays.copyOf(head, Math.min(HEAD, Math.max(headLength + take, head.length * 2)));
                }
                System.arraycopy(b, off, head, headLength, take);
                headLength += take;
            }
            int[] k = matched;
            for (int x = off; x < off + len && !armored; x++) {
                byte c = b[x];
                if (c != '-' && idle(k)) {
                    continue; // every header begins with '-': nothing to step
                }
                for (int i = 0; i < HEADERS.length; i++) {
                    byte[] p = HEADERS[i];
                    int q = k[i];
                    while (q > 0 && c != p[q]) {
                        q = FAIL[i][q - 1];
                    }
                    if (c == p[q]) {
                        q++;
                    }
                    if (q == p.length) {
                        armored = true;
                    }
                    k[i] = q;
                }
            }
        }

        private static boolean idle(int[] k) {
            for (int q : k) {
                if (q != 0) {
                    return false;
                }
            }
            return true;
        }

        /** What was found so far (the head is judged once whole, or at the end); null when nothing. */
        String found(boolean atEnd) {
            if (armored) {
                return ARMORED;
            }
            if (!judged && (atEnd || headLength == HEAD)) {
                judged = true;
                binary = secretPacket(head, headLength);
                head = null;
            }
            return binary ? BINARY : null;
        }

        private void check(boolean atEnd) throws Found {
            String what = found(atEnd);
            if (what != null) {
                throw new Found(what);
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n < 0) {
                check(true);
                return n;
            }
            see(b, off, n);
            check(false);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[(int) Math.min(n, 8192)];
            int read = read(buf, 0, buf.length);
            return Math.max(read, 0);
        }
    }
}
