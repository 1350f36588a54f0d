package dev.palimpsest.internal.git;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The framing of the append-only cache logs kept beside a store (the claims index, the
 * receipt-members index): a 28-byte header (4-byte magic, 4-byte version, the 20 raw bytes of the
 * store's genesis commit), then records, each a 4-byte length N, N bytes of payload and the CRC-32
 * of the payload; integers are big-endian, and strings inside payloads are a 4-byte length and
 * UTF-8. Each log defines its own magic, version and payload. Stateless; thread-safe.
 */
public final class CacheLog {
    /** The header's length: magic, version, genesis. */
    public static final int HEADER = 28;

    /** The bytes do not check out: a bad header, a torn or malformed record, a CRC mismatch. */
    public static final class Corrupt extends Exception {
        private static final long serialVersionUID = 1L;

        public Corrupt(String message) {
            super(message);
        }
    }

    /** One record as parsed, with its framed bytes (length, payload, CRC) as they stand in the file. */
    public record Framed<T>(T record, byte[] bytes) {}

    private CacheLog() {}

    /** The header of a log with {@code magic} and {@code version} for the store whose genesis is {@code genesis}. */
    public static byte[] header(int magic, int version, ObjectId genesis) {
        ByteBuffer b = ByteBuffer.allocate(HEADER);
        b.putInt(magic).putInt(version);
        genesis.copyRawTo(b.array(), 8);
        return b.array();
    }

    /** The genesis the header names; {@link Corrupt} on a short file, another magic or another version. */
    public static ObjectId genesis(byte[] file, int magic, int version) throws Corrupt {
        if (file.length < HEADER) {
            throw new Corrupt("shorter than its header");
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        if (b.getInt() != magic) {
            throw new Corrupt("bad magic");
        }
        int v = b.getInt();
        if (v != version) {
            throw new Corrupt("format version " + v + ", expected " + version);
        }
        return ObjectId.fromRaw(file, 8);
    }

    /** The framed record of {@code payload}: its length, the payload, its CRC-32. */
    public static byte[] frame(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer framed = ByteBuffer.allocate(payload.length + 8);
        framed.putInt(payload.length).put(payload).putInt((int) crc.getValue());
        return framed.array();
    }

    /**
     * The records after the header, each parsed by {@code parse} (which throws an unchecked exception
     * on a malformed payload); {@link Corrupt} on any torn, malformed or CRC-failing record.
     */
    public static <T> List<Framed<T>> records(byte[] file, Function<ByteBuffer, T> parse) throws Corrupt {
        List<Framed<T>> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(file);
        b.position(HEADER);
        while (b.hasRemaining()) {
            int start = b.position();
            if (b.remaining() < 8) {
                throw new Corrupt("a torn record at byte " + start);
            }
            int n = b.getInt();
            if (n < 0 || n > b.remaining() - 4) {
                throw new Corrupt("a torn or malformed record at byte " + start);
            }
            byte[] payload = new byte[n];
            b.get(payload);
            CRC32 crc = new CRC32();
            crc.update(payload);
            if (b.getInt() != (int) crc.getValue()) {
                throw new Corrupt("a CRC mismatch in the record at byte " + start);
            }
            byte[] framed = new byte[n + 8];
            System.arraycopy(file, start, framed, 0, n + 8);
            try {
                out.add(new Framed<>(parse.apply(ByteBuffer.wrap(payload)), framed));
            } catch (RuntimeException e) {
                throw new Corrupt("a malformed record at byte " + start + ": " + e);
            }
        }
        return out;
    }

    /**
     * Saves the records {@code framed} to {@code file} and returns its length afterwards. When the
     * file is exactly as this process last left it ({@code savedLength} bytes holding the first
     * {@code savedCount} records), the new records are appended; otherwise the header and every
     * record are written to a temporary file that atomically replaces it. Call under the writer lock.
     */
    public static long save(Path file, byte[] header, List<byte[]> framed, int savedCount, long savedLength)
            throws IOException {
        Files.createDirectories(file.getParent());
        boolean append = savedLength > 0 && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                && Files.size(file) == savedLength;
        if (append) {
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
                out.write(join(framed, savedCount));
            }
        } else {
            Path tmp = file.resolveSibling(file.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW)) {
                out.write(header);
                out.write(join(framed, 0));
            } catch (IOException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        return Files.size(file);
    }

    private static byte[] join(List<byte[]> framed, int from) {
        int n = 0;
        for (int i = from; i < framed.size(); i++) {
            n += framed.get(i).length;
        }
        byte[] out = new byte[n];
        int pos = 0;
        for (int i = from; i < framed.size(); i++) {
            byte[] f = framed.get(i);
            System.arraycopy(f, 0, out, pos, f.length);
            pos += f.length;
        }
        return out;
    }

    /** Writes {@code s} as a 4-byte length and its UTF-8 bytes. */
    public static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** Reads a string written by {@link #writeString}; an impossible length is an IllegalArgumentException. */
    public static String readString(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad string length " + n);
        }
        return new String(take(b, n), StandardCharsets.UTF_8);
    }

    /** The next {@code n} bytes. */
    public static byte[] take(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }
}
