package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that finds the search index held waits for a holder that says it is finishing its
 * merges before releasing it (in this process or in another), and only for such a holder; a marker
 * no holder stands behind is cleared by the next holder.
 */
class ClosingHolderTest {
    @TempDir
    Path dir;

    private Path git;
    private Path index;
    private Path marker;

    @BeforeEach
    void build() throws Exception {
        git = dir.resolve("store.git");
        StoreOptions opts = StoreOptions.defaults().withFsync(false);
        try (Store s = Store.initializer(git).home(new KeyHome(dir.resolve("home"))).actor(TestStores.ALICE)
                .options(opts).create()) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "the gateway retries three times").id(FactId.of("g1")));
            tx.commit();
            assertThat(s.recall().search(SearchQuery.builder("gateway").build())).hasSize(1); // the index is built and saved
        }
        index = git.resolve("palimpsest-index").resolve(SearchIndex.DIR);
        marker = index.resolveSibling(SearchIndex.DIR + ".closing");
    }

    /** Opens the index as a second process would, saying whether it holds the folder and how long the open took. */
    private record Opened(boolean persistent, long millis) {}

    private Opened open() throws Exception {
        long t0 = System.nanoTime();
        try (GitRepo repo = GitRepo.open(git, false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            try (SearchIndex idx = SearchIndex.open(repo, claims, Embedder.NONE)) {
                return new Opened(idx.persistent(), (System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    @Test
    void anOpenerWaitsForAHolderFinishingItsMergesAndThenHoldsTheIndexItself() throws Exception {
        try (Directory d = FSDirectory.open(index)) {
            Lock held = d.obtainLock(IndexWriter.WRITE_LOCK_NAME);
            Files.writeString(marker, "4242 1\n");
            Thread holder = new Thread(() -> {
                try {
                    Thread.sleep(800);
                    held.close(); // as a holder closes: the lock first, then its marker
                    Files.delete(marker);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            holder.start();
            Opened o = open();
            holder.join();
            assertThat(o.persistent()).as("held the folder after the wait").isTrue();
            assertThat(o.millis()).isGreaterThanOrEqualTo(700);
        }
    }

    @Test
    void anOpenerDoesNotWaitForAHolderThatSaysNothingOfClosing() throws Exception {
        try (Directory d = FSDirectory.open(index); Lock held = d.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            Opened o = open();
            assertThat(o.persistent()).as("kept its own index in memory").isFalse();
            assertThat(o.millis()).isLessThan(SearchIndex.CLOSING_WAIT_MILLIS / 2);
        }
    }

    @Test
    void aMarkerNoHolderStandsBehindIsNotWaitedForAndTheNextHolderClearsIt() throws Exception {
        Files.writeString(marker, "4242 1\n"); // a holder killed while finishing its merges
        Opened o = open();
        assertThat(o.persistent()).isTrue();
        assertThat(o.millis()).isLessThan(SearchIndex.CLOSING_WAIT_MILLIS / 2);
        assertThat(marker).doesNotExist();
    }

    @Test
    void anOpenerWaitsForAHolderInAnotherProcessFinishingItsMerges() throws Exception {
        Process holder = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-Xmx64m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                ClosingHolderMain.class.getName(), index.toString(), marker.toString(), "1500")
                .redirectErrorStream(true).start();
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("held");
            Opened o = open();
            assertThat(o.persistent()).as("held the folder once the other process released it").isTrue();
            assertThat(o.millis()).isGreaterThanOrEqualTo(1000);
            assertThat(out.readLine()).isEqualTo("released");
        } finally {
            assertThat(holder.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        assertThat(holder.exitValue()).isZero();
        assertThat(marker).doesNotExist();
    }
}
