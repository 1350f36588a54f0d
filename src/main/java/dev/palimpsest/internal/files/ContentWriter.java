package dev.palimpsest.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Streams bytes into the repository as one loose blob object (zlib, level 1, as
 * {@code git hash-object -w} writes it), computing its git id (SHA-1) and its SHA-256 in the same
 * pass, with a fixed-size buffer: memory does not grow with the content. Identical content is
 * stored once (an existing object is kept; the new copy is discarded). Stateless.
 */
public final class ContentWriter {
    private static final int BUFFER = 1 << 16;

    /** What was stored: the blob, the content's SHA-256 (hex), its size, and whether the object is new. */
    public record Stored(ObjectId blob, String sha256, long size, boolean created) {}

    private ContentWriter() {}

    /**
     * Writes exactly {@code length} bytes of {@code in} as a blob of the git directory {@code gitDir}
     * (temporary file in {@code tmpDir}, renamed into {@code objects/}); fails when the stream holds
     * fewer or more bytes.
     */
    public static Stored write(Path gitDir, Path tmpDir, InputStream in, long length, boolean fsync,
            java.util.function.Predicate<ObjectId> exists)
            throws IOException {
        MessageDigest sha1;
        MessageDigest sha256;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Files.createDirectories(tmpDir);
        Path tmp = tmpDir.resolve("content-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        byte[] header = ("blob " + length + "\0").getBytes(StandardCharsets.US_ASCII);
        sha1.update(header);
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        boolean done = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    OutputStream raw = java.nio.channels.Channels.newOutputStream(ch);
                    DeflaterOutputStream z = new DeflaterOutputStream(raw, deflater, BUFFER)) {
                z.write(header);
                byte[] buf = new byte[BUFFER];
                long total = 0;
                int n;
                while ((n = in.read(buf)) > 0) {
                    total += n;
                    if (total > length) {
                        throw new IOException("the input holds more than the " + length + " bytes announced");
                    }
                    sha1.update(buf, 0, n);
                    sha256.update(buf, 0, n);
                    z.write(buf, 0, n);
                }
                if (total != length) {
                    throw new IOException("the input ended after " + total + " of " + length + " bytes");
                }
                z.finish();
                if (fsync) {
                    ch.force(true);
                }
            }
            ObjectId id = ObjectId.fromRaw(sha1.digest());
            String hex = HexFormat.of().formatHex(sha256.digest());
            String name = id.name();
            Path target = gitDir.resolve("objects").resolve(name.substring(0, 2)).resolve(name.substring(2));
            if (exists.test(id) || Files.exists(target)) {
                return new Stored(id, hex, length, false);
            }
            Files.createDirectories(target.getParent());
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r--r--r--"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                return new Stored(id, hex, length, false);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target);
            }
            done = true;
            return new Stored(id, hex, length, true);
        } finally {
            deflater.end();
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
