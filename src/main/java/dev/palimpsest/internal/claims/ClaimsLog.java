package dev.palimpsest.internal.claims;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import dev.palimpsest.internal.git.CacheLog;
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
    private static final byte WRITTEN = 1;
    private static final byte REMOVED = 2;

    private ClaimsLog() {}

    static byte[] header(ObjectId genesis) {
        return CacheLog.header(MAGIC, VERSION, genesis);
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
            return CacheLog.frame(bytes.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void str(DataOutputStream out, String s) throws IOException {
        CacheLog.writeString(out, s);
    }

    /** The genesis the header names; {@code Corrupt} on a bad magic, version or length. */
    static ObjectId genesis(byte[] file) throws CacheLog.Corrupt {
        return CacheLog.genesis(file, MAGIC, VERSION);
    }

    /** The records after the header, each with its framed bytes; {@code Corrupt} on any bad record. */
    static List<CacheLog.Framed<CommitRecord>> records(byte[] file) throws CacheLog.Corrupt {
        return CacheLog.records(file, ClaimsLog::parse);
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
        return CacheLog.take(b, n);
    }

    private static String str(ByteBuffer b) {
        return CacheLog.readString(b);
    }
}
