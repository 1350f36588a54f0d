package dev.palimpsest.internal.git;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Empty files created ahead of need in {@code <git-dir>/palimpsest-tmp/}, so the commit path
 * rarely waits for a new inode: creating a file costs ~800 µs of kernel time on some disks
 * (measured on ours), while writing an existing empty one and renaming it into place costs ~30 µs.
 * A daemon thread keeps the pool topped up. Files are never reused once they left the pool (a pack
 * may still be mapped by a reader), so retired files are deleted, not recycled.
 *
 * <p>Every pool in every process may know the same file, so a file is only used after it was
 * <em>claimed</em> by an atomic rename from {@code *.pool} to a private {@code *.taken} name; a claim
 * that loses the race sees the file gone and moves on. Thread-safe.
 */
public final class FilePool implements AutoCloseable {
    public static final String DIR = "palimpsest-tmp";

    private final Path dir;
    private final int target;
    private final ConcurrentLinkedQueue<Path> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Object signal = new Object();
    private final Thread refiller;
    private volatile boolean closed;

    public FilePool(Path gitDir, int target) {
        this.dir = gitDir.resolve(DIR);
        this.target = target;
        try {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                old.filter(p -> p.getFileName().toString().endsWith(".pool")).forEach(p -> {
                    ready.add(p);
                    size.incrementAndGet();
                });
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot prepare " + dir, e);
        }
        refiller = new Thread(this::refill, "palimpsest-file-pool");
        refiller.setDaemon(true);
        refiller.start();
    }

    /** An empty file claimed for the caller alone (created on the spot when the pool is dry). */
    public Path take() {
        try {
            while (true) {
                Path p = ready.poll();
                if (p == null) {
                    return create(".taken");
                }
                size.decrementAndGet();
                Path claimed = name(".taken");
                try {
                    Files.move(p, claimed, StandardCopyOption.ATOMIC_MOVE);
                    return claimed;
                } catch (NoSuchFileException claimedElsewhere) {
                    // another pool took it first
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot take a file from " + dir, e);
        } finally {
            synchronized (signal) {
                signal.notifyAll();
            }
        }
    }

    private Path name(String suffix) {
        return dir.resolve(Long.toHexString(ThreadLocalRandom.current().nextLong()) + suffix);
    }

    private Path create(String suffix) throws IOException {
        while (true) {
            try {
                return Files.createFile(name(suffix));
            } catch (FileAlreadyExistsException e) {
                // a name clash: draw again
            }
        }
    }

    private void refill() {
        while (!closed) {
            try {
                while (!closed && size.get() < target) {
                    ready.add(create(".pool"));
                    size.incrementAndGet();
                }
                synchronized (signal) {
                    if (!closed && size.get() >= target) {
                        signal.wait(1000);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /**
     * Deletes claimed ({@code *.taken}) files last modified more than {@code minAge} ago: files a
     * writer or merger claimed and never renamed into place because it died first. Call only while
     * no writer and no merger can be using the pool (under the writer lock and the repack lock);
     * the age is a second guard. Returns how many were deleted.
     */
    public int reclaimAbandoned(java.time.Duration minAge) {
        return StaleFiles.delete(dir, "*.taken", minAge);
    }

    @Override
    public void close() {
        closed = true;
        refiller.interrupt();
    }
}
