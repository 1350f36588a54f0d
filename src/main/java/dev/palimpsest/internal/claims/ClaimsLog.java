package dev.palimpsest.internal.claims;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The on-disk form of the claims index, {@code palimpsest-index/claims-v1.log}: a 28-byte header
 * (magic {@code PCLM}, version 1, the 20 raw bytes of the store's genesis commit), then one record
 * per commit of main, oldest first, each framed as a 4-byte length N, N bytes of payload and the
 * CRC-32 of the payload (integers 4-byte big-endian). See store-layout.md. Stateless.
 */
final class ClaimsLog {
    static final int MAGIC = 0x50434C4D;
    static final int VERSION = 1;
    static final int HEADER = 28;
    private static final byte WRITTEN = 1;
    private static final byte REMOVED = 2;

    private ClaimsLog() {}

    static byte[] header(ObjectId genesis) {
        ByteBuffer b = ByteBuffer.allocate(HEADER);
        b.putInt(MAGIC).putInt(VERSION);
        genesis.copyRawTo(b.array(), 8);
        return b.array();
    }

    /** The framed record (length, payload, CRC). */
    static byte[] frame(CommitRecord r) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            DataOutputStream out = new DataOutputStream(bytes);
            byte[] raw = new byte[20];
            r.commit().copyRawTo(raw, 0);
            out.write(raw);
            if (r.parent() == null) {
                out.write(new byte[20]);
            } else {
                r.parent().copyRawTo(raw, 0);
                out.write(raw);
            }
            str(out, r.actor());
            if (r.multiValued() == null) {
                out.writeByte(0);
            } else {
                out.writeByte(1);
                out.writeInt(r.multiValued().size());
                for (String p : r.multiValued()) {
                    str(out, p);
                }
            }
            out.writeInt(r.events().size());
            for (CommitRecord.Event e : r.events()) {
                if (e instanceof CommitRecord.Written w) {
                    out.writeByte(WRITTEN);
                    str(out, w.id());
                    ClaimRecord c = w.claim();
                    out.writeByte(c == null ? 0 : 1);
                    if (c != null) {
                        str(out, c.subject());
                        str(out, c.predicate());
                        str(out, c.object());
                        str(out, c.source());
                        str(out, c.run() == null ? "" : c.run());
                        out.writeDouble(c.confidence() == null ? Double.NaN : c.confidence());
                    }
                    out.writeInt(w.supersedes().size());
                    for (String t : w.supersedes()) {
                        str(out, t);
                    }
                } else {
                    out.writeByte(REMOVED);
                    str(out, e.id());
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

    /** Thrown when the bytes do not check out. */
    static final class Corrupt extends Exception {
        Corrupt(String message) {
            super(message);
        }
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

    /** The records after the header, each with its framed bytes; {@code Corrupt} on any bad record. */
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

    private static CommitRecord parse(ByteBuffer b) {
        ObjectId commit = ObjectId.fromRaw(take(b, 20));
        ObjectId parent = ObjectId.fromRaw(take(b, 20));
        String actor = str(b);
        List<String> mv = null;
        if (b.get() == 1) {
            int n = b.getInt();
            mv = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                mv.add(str(b));
            }
        }
        int events = b.getInt();
        List<CommitRecord.Event> es = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            byte type = b.get();
            String id = str(b);
            if (type == WRITTEN) {
                ClaimRecord c = null;
                if (b.get() == 1) {
                    String s = str(b);
                    String p = str(b);
                    String o = str(b);
                    String src = str(b);
                    String run = str(b);
                    double conf = b.getDouble();
                    c = ClaimRecord.of(id, s, p, o, src, run.isEmpty() ? null : run, Double.isNaN(conf) ? null : conf);
                }
                int n = b.getInt();
                List<String> sup = new ArrayList<>(n);
                for (int k = 0; k < n; k++) {
                    sup.add(str(b));
                }
                es.add(new CommitRecord.Written(id, c, sup));
            } else if (type == REMOVED) {
                es.add(new CommitRecord.Removed(id));
            } else {
                throw new IllegalArgumentException("unknown event type " + type);
            }
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("trailing bytes");
        }
        return new CommitRecord(commit, parent.equals(ObjectId.zeroId()) ? null : parent, actor, mv, es);
    }

    private static byte[] take(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private static String str(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad string length " + n);
        }
        return new String(take(b, n), StandardCharsets.UTF_8);
    }
}
