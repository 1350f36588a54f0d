package dev.palimpsest.internal.remote;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import dev.palimpsest.internal.git.TreeCache;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.util.sha1.SHA1;

/**
 * Hashes objects on its own thread while a copy goes on, so the copy's second core is used: the
 * copying thread {@link #submit}s an object (its bytes must not change afterwards) and, before it
 * writes a pack holding submitted objects, calls {@link #sync}, which waits until every object
 * submitted so far is hashed and throws when one did not hash to its id. Used by one copying
 * thread; close it. A tree of {@link TreeCache#WORTH_CACHING} bytes or more that hashed to its id is
 * put in the repository's tree cache, where the audit running meanwhile finds it.
 */
final class BackgroundHasher implements AutoCloseable {
    private static final Object[] END = new Object[0];
    private final BlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(4096);
    private final Thread thread;
    private volatile IOException failure;
    private final TreeCache trees;

    BackgroundHasher(TreeCache trees) {
        this.trees = trees;
        thread = new Thread(this::run, "palimpsest-hash");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues {@code data} to be hashed as an object of {@code type} that must have id {@code id}. */
    void submit(ObjectId id, int type, byte[] data) throws IOException {
        put(new Object[] {id, type, data});
    }

    /** Waits until every submitted object is hashed; throws the first mismatch found. */
    void sync() throws IOException {
        CountDownLatch done = new CountDownLatch(1);
        put(new Object[] {done});
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while hashing fetched objects", e);
        }
        IOException f = failure;
        if (f != null) {
            throw new IOException(f.getMessage(), f);
        }
    }

    private void put(Object[] item) throws IOException {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while hashing fetched objects", e);
        }
    }

    private void run() {
        SHA1 sha = SHA1.newInstance();
        try {
            for (Object[] item; (item = queue.take()) != END; ) {
                if (item.length == 1) {
                    ((CountDownLatch) item[0]).countDown();
                } else if (failure == null) {
                    try {
                        byte[] data = ObjectCopy.verified(sha, (ObjectId) item[0], (Integer) item[1], (byte[]) item[2]);
                        if ((Integer) item[1] == Constants.OBJ_TREE && data.length >= TreeCache.WORTH_CACHING) {
                            trees.put((ObjectId) item[0], data);
                        }
                    } catch (IOException e) {
                        failure = e;
                    } catch (RuntimeException | Error e) { // reported by sync: a dead thread would leave it waiting
                        failure = new IOException("hashing a fetched object failed: " + e, e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            queue.put(END);
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
