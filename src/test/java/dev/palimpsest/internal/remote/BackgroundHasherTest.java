package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.git.TreeCache;
import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.junit.jupiter.api.Test;

/** The hasher checks submitted objects on its own daemon thread and keeps the large trees that hash to their ids. */
class BackgroundHasherTest {
    private static final ObjectInserter.Formatter IDS = new ObjectInserter.Formatter();

    @Test
    void treesOfAtLeastWorthCachingBytesThatHashAreCachedAndNothingElse() throws Exception {
        TreeCache trees = new TreeCache(64L << 20);
        byte[] worth = filled(TreeCache.WORTH_CACHING, 't');
        byte[] small = filled(TreeCache.WORTH_CACHING - 1, 's');
        byte[] blob = filled(TreeCache.WORTH_CACHING, 'b');
        try (BackgroundHasher h = new BackgroundHasher(trees)) {
            h.submit(id(Constants.OBJ_TREE, worth), Constants.OBJ_TREE, worth);
            h.submit(id(Constants.OBJ_TREE, small), Constants.OBJ_TREE, small);
            h.submit(id(Constants.OBJ_BLOB, blob), Constants.OBJ_BLOB, blob);
            h.sync();
        }
        assertThat(trees.get(id(Constants.OBJ_TREE, worth))).isEqualTo(worth);
        assertThat(trees.get(id(Constants.OBJ_TREE, small))).isNull();
        assertThat(trees.get(id(Constants.OBJ_TREE, blob))).isNull();
        assertThat(trees.get(id(Constants.OBJ_BLOB, blob))).isNull();
    }

    @Test
    void anUnexpectedFailureWhileHashingIsReportedBySyncAndTheHasherGoesOnDraining() throws Exception {
        byte[] data = filled(16, 'x');
        try (BackgroundHasher h = new BackgroundHasher(new TreeCache(64L << 20))) {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
                h.submit(id(Constants.OBJ_BLOB, data), 99, data); // no such object type: the hashing itself throws
                assertThatThrownBy(h::sync).isInstanceOf(IOException.class).hasMessageContaining("hashing a fetched object failed");
                for (int i = 0; i < 5000; i++) {
                    h.submit(id(Constants.OBJ_BLOB, data), Constants.OBJ_BLOB, data);
                }
                assertThatThrownBy(h::sync).isInstanceOf(IOException.class);
            });
        }
    }

    @Test
    void aTreeThatDoesNotHashToItsIdIsNotCachedAndSyncThrows() throws Exception {
        TreeCache trees = new TreeCache(64L << 20);
        byte[] worth = filled(TreeCache.WORTH_CACHING, 't');
        ObjectId other = id(Constants.OBJ_TREE, filled(TreeCache.WORTH_CACHING, 'o'));
        try (BackgroundHasher h = new BackgroundHasher(trees)) {
            h.submit(other, Constants.OBJ_TREE, worth);
            assertThatThrownBy(h::sync).isInstanceOf(IOException.class).hasMessageContaining(other.name());
        }
        assertThat(trees.get(other)).isNull();
    }

    @Test
    void itsThreadIsADaemonAndCloseWaitsUntilEverythingSubmittedIsHashed() throws Exception {
        Set<Thread> before = hashers();
        TreeCache trees = new TreeCache(64L << 20);
        byte[] big = filled(4 << 20, 'x');
        byte[] last = filled(TreeCache.WORTH_CACHING, 'l');
        Thread thread;
        try (BackgroundHasher h = new BackgroundHasher(trees)) {
            Set<Thread> started = hashers();
            started.removeAll(before);
            assertThat(started).hasSize(1);
            thread = started.iterator().next();
            assertThat(thread.isDaemon()).as("a copy that fails never keeps the JVM alive").isTrue();
            ObjectId bigId = id(Constants.OBJ_BLOB, big);
            for (int i = 0; i < 8; i++) {
                h.submit(bigId, Constants.OBJ_BLOB, big);
            }
            h.submit(id(Constants.OBJ_TREE, last), Constants.OBJ_TREE, last);
        }
        assertThat(thread.isAlive()).isFalse();
        assertThat(trees.get(id(Constants.OBJ_TREE, last))).isEqualTo(last);
    }

    private static Set<Thread> hashers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals("palimpsest-hash")).collect(Collectors.toSet());
    }

    private static ObjectId id(int type, byte[] data) {
        return IDS.idFor(type, data);
    }

    private static byte[] filled(int n, char c) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }
}
