package dev.palimpsest.internal.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.eclipse.jgit.internal.storage.file.BasePackIndexWriter;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.transport.PackParser;
import org.eclipse.jgit.transport.PackedObjectInfo;

/**
 * Writes the objects of one commit as one git pack (v2, whole objects, no deltas) with its v2
 * index, into {@link FilePool} files renamed into {@code objects/pack/}: two renames per commit and
 * no new inode, where loose objects would create one file per object. The {@code .idx} is renamed
 * in before its {@code .pack}: JGit lists packs by their {@code .pack} file and takes one without
 * an index for corrupt (dropping it from its list until it rescans), while git lists them by their
 * {@code .idx} and skips one whose pack is missing; a crash in between leaves an index without a
 * pack that both ignore. Every object inserted is written into
 * this pack even if the repository has it already (only what the commit's tree edit produced is
 * inserted, so that is rare), so a commit never depends on an unreachable object that a concurrent
 * repack may drop. Not thread-safe; used under the writer lock.
 */
public final class PackObjectWriter extends ObjectInserter {
    private final GitRepo repo;
    private final FilePool pool;
    private final boolean fsync;
    /**
     * Blobs smaller than this, and every tree, are written in stored (uncompressed) deflate blocks:
     * deflating a few hundred bytes saves little and costs microseconds of setup each, which
     * dominates a commit of thousands of small files, and a tree is mostly 20-byte hashes that do
     * not compress. Larger blobs and commits are deflated at the writer's level.
     */
    static final int STORE_BELOW = 1024;

    private final Deflater deflater;
    private final Map<ObjectId, PackedObjectInfo> pending = new HashMap<>();
    private final List<PackedObjectInfo> order = new ArrayList<>();
    private final PackBody body = new PackBody();
    private final CRC32 crc = new CRC32();
    private final Adler32 adler = new Adler32();
    private final ObjectReader reader;
    private byte[] buf = new byte[8192];
    private byte[] lastDigest;
    private final MessageDigest objectDigest = sha1();
    private final byte[] objectHeader = new byte[32];

    public PackObjectWriter(GitRepo repo, FilePool pool, boolean fsync, int level) {
        this.repo = repo;
        this.pool = pool;
        this.fsync = fsync;
        this.deflater = new Deflater(level);
        this.reader = repo.repository().newObjectReader();
    }

    /**
     * The object's id, hashed with the JDK's SHA-1 (hardware-accelerated where the CPU has SHA
     * instructions) rather than JGit's collision-detecting one: this writer hashes only content it
     * was handed to write, and collision detection guards readers of foreign objects.
     */
    @Override
    public ObjectId idFor(int type, byte[] data, int off, int len) {
        byte[] typeName = Constants.encodedTypeString(type);
        System.arraycopy(typeName, 0, objectHeader, 0, typeName.length);
        int h = typeName.length;
        objectHeader[h++] = ' ';
        String size = Integer.toString(len);
        for (int i = 0; i < size.length(); i++) {
            objectHeader[h++] = (byte) size.charAt(i);
        }
        objectHeader[h++] = 0;
        objectDigest.update(objectHeader, 0, h);
        objectDigest.update(data, off, len);
        return ObjectId.fromRaw(objectDigest.digest());
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public ObjectId insert(int type, byte[] data, int off, int len) throws IOException {
        ObjectId id = idFor(type, data, off, len);
        if (pending.containsKey(id)) {
            return id;
        }
        if (type == Constants.OBJ_TREE && len >= TreeCache.WORTH_CACHING) {
            repo.trees().put(id, java.util.Arrays.copyOfRange(data, off, off + len));
        }
        append(id, type, data, off, len);
        return id;
    }

    /** Appends an object known to be absent from the repository and from this pack. */
    void append(ObjectId id, int type, byte[] data, int off, int len) {
        PackedObjectInfo info = new PackedObjectInfo(id);
        info.setOffset(12L + body.size());
        info.setType(type);
        crc.reset();
        byte[] header = new byte[10];
        int h = 0;
        long size = len;
        int c = (type << 4) | (int) (size & 0x0f);
        size >>>= 4;
        while (size != 0) {
            header[h++] = (byte) (c | 0x80);
            c = (int) (size & 0x7f);
            size >>>= 7;
        }
        header[h++] = (byte) c;
        body.write(header, 0, h);
        crc.update(header, 0, h);
        if (len < STORE_BELOW || type == Constants.OBJ_TREE) {
            stored(data, off, len);
        } else {
            deflater.reset();
            deflater.setInput(data, off, len);
            deflater.finish();
            while (!deflater.finished()) {
                int n = deflater.deflate(buf);
                body.write(buf, 0, n);
                crc.update(buf, 0, n);
            }
        }
        info.setCRC((int) crc.getValue());
        pending.put(id, info);
        order.add(info);
    }

    /**
     * Writes {@code data} as a zlib stream of one stored (uncompressed) deflate block: header
     * {@code 78 01}, block header, LEN and its complement, the bytes, then their Adler-32.
     */
    private void stored(byte[] data, int off, int len) {
        byte[] head = {0x78, 0x01, 0x01, (byte) len, (byte) (len >>> 8), (byte) ~len, (byte) (~len >>> 8)};
        adler.reset();
        adler.update(data, off, len);
        int sum = (int) adler.getValue();
        byte[] tail = {(byte) (sum >>> 24), (byte) (sum >>> 16), (byte) (sum >>> 8), (byte) sum};
        body.write(head, 0, head.length);
        body.write(data, off, len);
        body.write(tail, 0, tail.length);
        crc.update(head);
        crc.update(data, off, len);
        crc.update(tail);
    }

    /**
     * Appends an entry copied verbatim from another pack: {@code raw} holds a whole-object entry
     * (header and deflated data), so nothing is inflated or deflated again.
     */
    void appendRaw(ObjectId id, int type, byte[] raw, int off, int len) {
        PackedObjectInfo info = new PackedObjectInfo(id);
        info.setOffset(12L + body.size());
        info.setType(type);
        body.write(raw, off, len);
        crc.reset();
        crc.update(raw, off, len);
        info.setCRC((int) crc.getValue());
        pending.put(id, info);
        order.add(info);
    }

    /**
     * Appends an object whose id the caller computed from exactly these bytes (a fetch that hashed
     * every object it read with collision detection), without hashing it again; a no-op when this
     * pack already holds it.
     */
    public void appendHashed(ObjectId id, int type, byte[] data) {
        if (!pending.containsKey(id)) {
            append(id.copy(), type, data, 0, data.length);
        }
    }

    /** Bytes of the pack body appended and not yet flushed. */
    public long pendingBytes() {
        return body.size();
    }

    boolean contains(ObjectId id) {
        return pending.containsKey(id);
    }

    /** Objects appended and not yet flushed. */
    public int pendingCount() {
        return order.size();
    }

    @Override
    public ObjectId insert(int type, long length, InputStream in) throws IOException {
        byte[] data = in.readNBytes((int) length);
        if (data.length != length) {
            throw new IOException("short object stream: " + data.length + " of " + length + " bytes");
        }
        return insert(type, data, 0, data.length);
    }

    @Override
    public PackParser newPackParser(InputStream in) {
        throw new UnsupportedOperationException("pack object writer does not parse packs");
    }

    @Override
    public ObjectReader newReader() {
        return repo.newReader();
    }

    /** Writes the pending objects as one pack and registers it; returns its {@code .pack} file or null. */
    public Path flushPack() throws IOException {
        if (order.isEmpty()) {
            return null;
        }
        MessageDigest sha1 = sha1();
        Path packTmp = writePooled(out -> {
            DigestOutputStream d = new DigestOutputStream(out, sha1);
            byte[] header = {'P', 'A', 'C', 'K', 0, 0, 0, 2, 0, 0, 0, 0};
            int n = order.size();
            header[8] = (byte) (n >>> 24);
            header[9] = (byte) (n >>> 16);
            header[10] = (byte) (n >>> 8);
            header[11] = (byte) n;
            d.write(header);
            body.writeInChunks(d);
            d.flush();
            lastDigest = sha1.digest();
            out.write(lastDigest);
        });
        byte[] checksum = lastDigest;
        PackedObjectInfo[] byId = order.toArray(new PackedObjectInfo[0]);
        java.util.Arrays.parallelSort(byId);
        List<PackedObjectInfo> sorted = java.util.Arrays.asList(byId);
        Path idxTmp = writePooled(out -> BasePackIndexWriter.createVersion(out, 2).write(sorted, checksum));
        Path packDir = repo.gitDir().resolve("objects/pack");
        String name = "pack-" + HexFormat.of().formatHex(checksum);
        Path pack = packDir.resolve(name + ".pack");
        // the index first: JGit readers list packs by their .pack file and take one without an index for corrupt
        Files.move(idxTmp, packDir.resolve(name + ".idx"), StandardCopyOption.ATOMIC_MOVE);
        Files.move(packTmp, pack, StandardCopyOption.ATOMIC_MOVE);
        if (fsync) {
            RefCas.syncDirectory(packDir);
        }
        ((FileRepository) repo.repository()).getObjectDatabase().openPack(pack.toFile());
        pending.clear();
        order.clear();
        body.reset();
        return pack;
    }

    private interface Body {
        void write(OutputStream out) throws IOException;
    }

    private Path writePooled(Body content) throws IOException {
        while (true) {
            Path tmp = pool.take();
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                OutputStream out = new java.io.BufferedOutputStream(Channels.newOutputStream(ch), 65536);
                content.write(out);
                out.flush();
                if (fsync) {
                    ch.force(true);
                }
                return tmp;
            } catch (NoSuchFileException claimedElsewhere) {
                // another process took that pooled file; take the next one
            }
        }
    }

    @Override
    public void flush() throws IOException {
        flushPack();
    }

    @Override
    public void close() {
        deflater.end();
        reader.close();
    }

    /**
     * The pack body in memory, in blocks that are never copied to grow (a fetch fills 32 MiB before
     * it writes a pack): the first block is small, each next one twice as large up to 1 MiB. Written
     * in 64 KiB pieces at most: one call hashing 32 MiB would run the digest's loop uncompiled in a
     * young JVM (a pull writes only a few packs), many short calls get it compiled.
     */
    private static final class PackBody {
        private static final int FIRST = 4096;
        private static final int LARGEST = 1 << 20;
        private final List<byte[]> blocks = new ArrayList<>();
        private byte[] last;
        private int used;
        private long size;

        void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (last == null || used == last.length) {
                    last = new byte[last == null ? FIRST : Math.min(LARGEST, last.length * 2)];
                    blocks.add(last);
                    used = 0;
                }
                int n = Math.min(len, last.length - used);
                System.arraycopy(b, off, last, used, n);
                used += n;
                off += n;
                len -= n;
                size += n;
            }
        }

        long size() {
            return size;
        }

        void writeInChunks(OutputStream out) throws IOException {
            for (byte[] block : blocks) {
                int n = block == last ? used : block.length;
                for (int off = 0; off < n; off += 65536) {
                    out.write(block, off, Math.min(65536, n - off));
                }
            }
        }

        void reset() {
            blocks.clear();
            last = null;
            used = 0;
            size = 0;
        }
    }
}
