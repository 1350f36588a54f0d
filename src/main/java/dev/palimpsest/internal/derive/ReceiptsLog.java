package dev.palimpsest.internal.derive;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The on-disk form of the receipt-members index, {@code palimpsest-index/receipts-v1.log}: a
 * 28-byte header (magic {@code PRCM}, version 1, the 20 raw bytes of the store's genesis commit),
 * then one record per indexed commit that wrote artifact versions not recorded before, each framed
 * as a 4-byte length N, N bytes of payload and the CRC-32 of the payload. The payload is the commit
 * (20 raw bytes), a count, and per artifact version its id (length-prefixed UTF-8), its blob (20
 * raw bytes), a count and its receipt members (length-prefixed UTF-8, sorted). Integers are 4-byte
 * big-endian. See store-layout.md. Stateless.
 */
final class ReceiptsLog {
    static final int MAGIC = 0x5052434D;
    static final int VERSION = 1;
    static final int HEADER = 28;

    /** One artifact version: fact id, blob and the members its receipts name (itself excluded). */
    record Version(String id, ObjectId blob, Set<String> members) {}

    /** The artifact versions one commit wrote. */
    record Commit(ObjectId commit, List<Version> versions) {}

    /** Thrown when the bytes do not check out. */
    static final class Corrupt extends Exception {
        Corrupt(String message) {
            super(message);
        }
    }

    private ReceiptsLog() {}

    static byte[] header(ObjectId genesis) {
        ByteBuffer b = ByteBuffer.allocate(HEADER);
        b.putInt(MAGIC).putInt(VERSION);
        genesis.copyRawTo(b.array(), 8);
        return b.array();
    }

    /** The framed record (length, payload, CRC). */
    static byte[] frame(Commit c) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            DataOutputStream out = new DataOutputStream(bytes);
            byte[] raw = new byte[20];
            c.commit().copyRawTo(raw, 0);
            out.write(raw);
            out.writeInt(c.versions().size());
            for (Version v : c.versions()) {
                str(out, v.id());
                v.blob().copyRawTo(raw, 0);
                out.write(raw);
                out.writeInt(v.members().size());
                for (String m : new TreeSet<>(v.members())) {
                    str(out, m);
                }
            }
            out.flush();
            byte[] payload = bytes.toByteArray();
            CRC32 crc = new CRC32();
            crc.update(payload);
            ByteBuffer framed = ByteBuffer.allocate(payload.length + 8);
            framed.putInt(payload.length).put(payload).putInt((int) crc.getValue());
            return framed.array();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void str(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** The genesis the header names; {@code Corrupt} on a bad magic, version or length. */
    static ObjectId genesis(byte[] file) throws Corrupt {
        if (file.length < HEADER) {
            throw new Corrupt("shorter than its header");
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        if (b.getInt() != MAGIC) {
            throw new Corrupt("bad magic");
        }
        int v = b.getInt();
        if (v != VERSION) {
            throw new Corrupt("format version " + v + ", expected " + VERSION);
        }
        return ObjectId.fromRaw(file, 8);
    }

    /** The records after the header, each as {record, framed bytes}; {@code Corrupt} on any bad or torn record. */
    static List<Object[]> records(byte[] file) throws Corrupt {
        List<Object[]> out = new ArrayList<>();
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
                out.add(new Object[] {parse(ByteBuffer.wrap(payload)), framed});
            } catch (RuntimeException e) {
                throw new Corrupt("a malformed record at byte " + start + ": " + e);
            }
        }
        return out;
    }

    private static Commit parse(ByteBuffer b) {
        ObjectId commit = ObjectId.fromRaw(take(b, 20));
        int n = count(b);
        List<Version> vs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String id = str(b);
            ObjectId blob = ObjectId.fromRaw(take(b, 20));
            int m = count(b);
            Set<String> members = new java.util.HashSet<>();
            for (int k = 0; k < m; k++) {
                members.add(str(b));
            }
            vs.add(new Version(id, blob, members));
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("trailing bytes");
        }
        return new Commit(commit, vs);
    }

    private static int count(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad count " + n);
        }
        return n;
    }

    private static byte[] take(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private static String str(ByteBuffer b) {
        int n = count(b);
        return new String(take(b, n), StandardCharsets.UTF_8);
    }
}
