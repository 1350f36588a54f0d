package dev.palimpsest.internal.index;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The persisted form of the predicate index: {@code <git-dir>/palimpsest-index/index-v1.log}, a
 * header (magic, version 3, the store's genesis commit) then one length-prefixed, CRC-checked record
 * per indexed commit (its id, first parent and fact events), appended in indexing order. A torn or
 * corrupt tail is cut off at the first bad record; a bad header means the file is discarded and the
 * index rebuilt from git. Not thread-safe.
 */
final class IndexLog {
    static final String DIR = "palimpsest-index";
    static final String FILE = "index-v1.log";
    private static final int MAGIC = 0x50494458;
    private static final int VERSION = 3;
    static final int HEADER = 28;
    /** The smallest whole record: length, commit, first parent, event count (zero), CRC. */
    static final int MIN_RECORD = 4 + 20 + 20 + 4 + 4;

    /** One commit's record. */
    record Entry(ObjectId commit, ObjectId firstParent, Map<String, FactEvent> events) {}

    private final Path file;

    IndexLog(Path gitDir) {
        this.file = gitDir.resolve(DIR).resolve(FILE);
    }

    Path file() {
        return file;
    }

    /**
     * Records read from an offset and the offset after the last good one; from the start also
     * whether the header is bad (wrong magic or version) and the genesis commit it names.
     */
    record Read(List<Entry> entries, long end, boolean headerBad, ObjectId genesis) {}

    /** True when the log is absent or a regular file (not a folder or anything else in its place). */
    boolean usable() {
        return !Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(file);
    }

    /** True when the file starts with this log's magic but another format version (a cache of an older release). */
    boolean otherVersion() throws IOException {
        byte[] head = new byte[8];
        try (java.io.InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 8) < 8) {
                return false;
            }
        }
        ByteBuffer b = ByteBuffer.wrap(head);
        return b.getInt(0) == MAGIC && b.getInt(4) != VERSION;
    }

    Read read(long offset) throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return new Read(out, 0, false, null);
        }
        byte[] all;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            all = new byte[(int) Math.max(0, ch.size() - offset)];
            fill(ch, ByteBuffer.wrap(all), offset);
        }
        int p = 0;
        ObjectId genesis = null;
        if (offset == 0) {
            if (all.length < HEADER || ByteBuffer.wrap(all, 0, 8).getInt() != MAGIC
                    || ByteBuffer.wrap(all, 4, 4).getInt() != VERSION) {
                return new Read(out, 0, true, null);
            }
            genesis = ObjectId.fromRaw(all, 8);
            p = HEADER;
        }
        ByteBuffer bb = ByteBuffer.wrap(all);
        while (all.length - p >= MIN_RECORD) {
            // unsigned: a negative length runs past the end of any file
            long len = Integer.toUnsignedLong(bb.getInt(p));
            if (len > all.length - p - 8) {
                break;
            }
            CRC32 crc = new CRC32();
            crc.update(all, p + 4, (int) len);
            if ((int) crc.getValue() != bb.getInt(p + 4 + (int) len)) {
                break;
            }
            try {
                out.add(decode(all, p + 4, (int) len));
            } catch (IOException | RuntimeException e) {
                break;
            }
            p += 8 + (int) len;
        }
        return new Read(out, offset + p, false, genesis);
    }

    /** Reads the channel from {@code offset} into {@code b} until it is full or the file ends. */
    @dev.palimpsest.model.DoNotMutate("speed only: the loop retries short reads, which a regular file does not give")
    private static void fill(FileChannel ch, ByteBuffer b, long offset) throws IOException {
        int n;
        do {
            n = ch.read(b, offset + b.position());
        } while (n > 0 && b.hasRemaining());
    }

    /** Creates (or empties) the file with a header naming the store's {@code genesis} commit. */
    void create(ObjectId genesis) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] raw = new byte[20];
        genesis.copyRawTo(raw, 0);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.allocate(HEADER).putInt(MAGIC).putInt(VERSION).put(raw).flip());
        }
    }

    /** Cuts the file to {@code length} (at least the header), dropping a bad tail. */
    void truncate(long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(Math.max(length, HEADER));
        }
    }

    /** The file's current size (0 when absent), without reading it. */
    long size() throws IOException {
        try {
            return Files.size(file);
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        }
    }

    /** Appends records; returns the new end offset. */
    long append(List<Entry> entries) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buf);
        for (Entry e : entries) {
            byte[] rec = encode(e);
            CRC32 crc = new CRC32();
            crc.update(rec);
            out.writeInt(rec.length);
            out.write(rec);
            out.writeInt((int) crc.getValue());
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(buf.toByteArray());
            while (b.hasRemaining()) {
                ch.write(b);
            }
            return ch.size();
        }
    }

    /** An event's state byte: removed (with its retraction record), written, removed without a record. */
    private static final int REMOVED = 0;
    private static final int LIVE = 1;
    private static final int REMOVED_UNRECORDED = 2;

    private static byte[] encode(Entry e) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        DataOutputStream out = new DataOutputStream(buf);
        id(out, e.commit());
        id(out, e.firstParent());
        out.writeInt(e.events().size());
        for (Map.Entry<String, FactEvent> en : e.events().entrySet()) {
            FactEvent ev = en.getValue();
            out.writeUTF(en.getKey());
            out.writeByte(ev.live() ? LIVE : ev.navigable() ? REMOVED : REMOVED_UNRECORDED);
            id(out, ev.versionCommit());
            id(out, ev.blob());
            out.writeUTF(ev.kind() == null ? "" : ev.kind());
            out.writeLong(ev.validFrom());
            out.writeLong(ev.validUntil());
            out.writeShort(ev.refs().size());
            for (RefPin r : ev.refs()) {
                out.writeUTF(r.target());
                out.writeUTF(r.role());
                id(out, r.commit());
                id(out, r.blob());
            }
        }
        return buf.toByteArray();
    }

    private static Entry decode(byte[] all, int off, int len) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, off, len));
        ObjectId commit = id(in);
        ObjectId parent = id(in);
        int n = in.readInt();
        Map<String, FactEvent> events = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String fact = in.readUTF();
            int state = in.readUnsignedByte();
            if (state > REMOVED_UNRECORDED) {
                throw new IOException("event state " + state);
            }
            boolean live = state == LIVE;
            ObjectId version = id(in);
            ObjectId blob = id(in);
            String kind = in.readUTF();
            long validFrom = in.readLong();
            long validUntil = in.readLong();
            int refCount = in.readUnsignedShort();
            List<RefPin> refs = new ArrayList<>(refCount);
            for (int r = 0; r < refCount; r++) {
                refs.add(new RefPin(in.readUTF(), in.readUTF(), id(in), id(in)));
            }
            events.put(fact, new FactEvent(commit, live, version, blob, kind.isEmpty() ? null : kind, refs,
                    state != REMOVED_UNRECORDED, validFrom, validUntil));
        }
        return new Entry(commit, parent, events);
    }

    private static void id(DataOutputStream out, ObjectId id) throws IOException {
        byte[] raw = new byte[20];
        if (id != null) {
            id.copyRawTo(raw, 0);
        }
        out.write(raw);
    }

    private static ObjectId id(DataInputStream in) throws IOException {
        byte[] raw = new byte[20];
        in.readFully(raw);
        ObjectId id = ObjectId.fromRaw(raw);
        return id.equals(ObjectId.zeroId()) ? null : id;
    }
}
