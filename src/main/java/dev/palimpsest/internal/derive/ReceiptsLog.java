package dev.palimpsest.internal.derive;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import dev.palimpsest.internal.git.CacheLog;
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

    /** One artifact version: fact id, blob and the members its receipts name (itself excluded). */
    record Version(String id, ObjectId blob, Set<String> members) {}

    /** The artifact versions one commit wrote. */
    record Commit(ObjectId commit, List<Version> versions) {}

    private ReceiptsLog() {}

    static byte[] header(ObjectId genesis) {
        return CacheLog.header(MAGIC, VERSION, genesis);
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

    /** The records after the header, each with its framed bytes; {@code Corrupt} on any bad or torn record. */
    static List<CacheLog.Framed<Commit>> records(byte[] file) throws CacheLog.Corrupt {
        return CacheLog.records(file, ReceiptsLog::parse);
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
        return CacheLog.take(b, n);
    }

    private static String str(ByteBuffer b) {
        return CacheLog.readString(b);
    }
}
