package dev.palimpsest.internal.git;

import dev.palimpsest.api.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Empty files created ahead of need in {@code <git-dir>/palimpsest-tmp/}, so the commit path never
 * waits for a new inode: creating a file costs ~800 µs on some disks (measured on ours), while
 * writing an existing one and renaming it into place costs ~30 µs. A daemon thread keeps the pool
 * topped up; when it runs dry, {@link #take()} creates a file itself. Files left behind by a dead
 * process are reused. Thread-safe.
 */
public final class FilePool implements AutoCloseable {
    public static final String DIR = "palimpsest-tmp";

    private final Path dir;
    private final int target;
    private final ConcurrentLinkedQueue<Path> ready = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Path> dirty = new ConcurrentLinkedQueue<>();
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
                old.filter(p -> p.getFileName().toString().endsWith(".pool")).forEach(dirty::add);
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot prepare " + dir, e);
        }
        refiller = new Thread(this::refill, "palimpsest-file-pool");
        refiller.setDaemon(true);
        refiller.start();
    }

    /**
     * An empty file of the pool, removed from it; open it with TRUNCATE_EXISTING all the same (a
     * dead process may have left bytes in it). Another process may have claimed it: opening then fails with
     * NoSuchFileException and the caller takes another.
     */
    public Path take() {
        Path p = ready.poll();
        if (p != null) {
            size.decrementAndGet();
        } else {
            p = create();
        }
        synchronized (signal) {
            signal.notifyAll();
        }
        return p;
    }

    /**
     * Returns a file that is no longer needed (a retired pack, a replaced ref) to the pool, reusing
     * its inode instead of deleting it.
     */
    public void recycle(Path file) throws IOException {
        Path p = newName();
        Files.move(file, p, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        adopt(p);
    }

    /** A fresh name in the pool folder (for linking a live file into the pool). */
    public Path newName() {
        return dir.resolve(Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".pool");
    }

    /**
     * Adds a file already placed in the pool folder under {@link #newName()}. It is emptied by the
     * pool's thread before reuse: freeing a file's blocks is slow on some disks (~180 µs here), so
     * the commit path only ever writes into empty files.
     */
    public void adopt(Path pooled) {
        dirty.add(pooled);
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private Path create() {
        try {
            return Files.createFile(dir.resolve(Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".pool"));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return create();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot create a file in " + dir, e);
        }
    }

    private void refill() {
        while (!closed) {
            try {
                Path d;
                while (!closed && (d = dirty.poll()) != null) {
                    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(d,
                            java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                        ready.add(d);
                        size.incrementAndGet();
                    } catch (java.nio.file.NoSuchFileException claimedElsewhere) {
                        // another process reused it
                    } catch (IOException e) {
                        // leave it; a later open will fail and the caller takes another
                    }
                }
                while (!closed && size.get() < target && dirty.isEmpty()) {
                    ready.add(create());
                    size.incrementAndGet();
                }
                synchronized (signal) {
                    if (!closed && size.get() >= target && dirty.isEmpty()) {
                        signal.wait(1000);
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        refiller.interrupt();
    }
}
