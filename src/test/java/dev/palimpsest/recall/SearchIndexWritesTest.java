package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the search index follows writes: its own store's, another store's, and when it saves them. */
class SearchIndexWritesTest {
    @TempDir
    Path dir;

    private static String savedCommit(Path gitDir) throws Exception {
        try (FSDirectory d = FSDirectory.open(gitDir.resolve("palimpsest-index/search-v1"))) {
            return SegmentInfos.readLatestCommit(d).getUserData().get("commit");
        }
    }

    private static List<String> named(Store s, String entity) throws Exception {
        return RecallStoriesTest.ids(s.recall().search(RecallStoriesTest.about(entity)));
    }

    @Test
    void aStoresFirstQuestionBuildsAndSavesItsIndexAtOnceEvenAtItsGenesis() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertThat(s.recall().search(SearchQuery.builder("anything").build())).isEmpty();
            assertThat(savedCommit(s.gitDir())).isEqualTo(s.head().hex());
        }
    }

    @Test
    void aRebuiltIndexIsSavedBeforeAnyWrite() throws Exception {
        Path g;
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            g = s.gitDir();
        }
        try (Store s = Store.open(g, new KeyHome(dir.resolve("home")))) {
            assertThat(named(s, "redis")).containsExactly("r1", "r2");
            assertThat(savedCommit(g)).isEqualTo(s.head().hex());
        }
    }

    @Test
    void aWriteWithinASecondOfTheLastSaveIsSavedLater() throws Exception {
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            assertThat(named(s, "redis")).isNotEmpty();
            String saved = savedCommit(s.gitDir());
            long started = System.nanoTime();
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("redis", "runs on", "k8s", FactId.of("arch-md"))
                    .id(FactId.of("r3")));
            assumeTrue(System.nanoTime() - started < 800_000_000L, "the write took less than a second");
            assertThat(savedCommit(s.gitDir())).isEqualTo(saved).isNotEqualTo(s.head().hex());
            assertThat(named(s, "redis")).containsExactly("r1", "r2", "r3");
        }
        // closing saved it
    }

    @Test
    void anotherStoresWriteIsCaughtUpBeforeThisStoresNextWriteIsApplied() throws Exception {
        Path g;
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            g = s.gitDir();
        }
        try (Store one = Store.open(g, new KeyHome(dir.resolve("home")));
                Store two = Store.open(g, new KeyHome(dir.resolve("home")))) {
            assertThat(named(one, "redis")).containsExactly("r1", "r2");
            two.claims().claim(TestStores.ALICE, ClaimSpec.of("redis", "runs on", "k8s", FactId.of("arch-md"))
                    .id(FactId.of("r3")));
            var before = two.head();
            Thread.sleep(1100); // past a second since one's last save: its next write is saved with it
            one.claims().claim(TestStores.ALICE, ClaimSpec.of("redis", "listens on", "6379", FactId.of("arch-md"))
                    .id(FactId.of("r4")));
            assertThat(savedCommit(g)).isEqualTo(one.head().hex()); // caught up with the write, not at the question
            assertThat(named(one, "redis")).containsExactly("r1", "r2", "r3", "r4");
            assertThat(RecallStoriesTest.ids(one.recall().search(RecallStoriesTest.about("redis")
                    .toBuilder().at(before).build()))).containsExactly("r1", "r2", "r3");
        }
    }

    @Test
    void aKeysFileNamedLikeAFactEndsNothing() throws Exception {
        ActorName bob = ActorName.of("bob");
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "a note on bob the builder").id(FactId.of("bob")));
            tx.commit();
            assertThat(RecallStoriesTest.ids(s.recall().search(SearchQuery.builder("builder").build()))).containsExactly("bob");
            String key = new KeyHome(dir.resolve("home")).generateKey(bob, "bob@example.org");
            s.begin(TestStores.ALICE).addKey(bob, key, KeyRole.AGENT).commit(); // writes keys/bob.yaml
            assertThat(RecallStoriesTest.ids(s.recall().search(SearchQuery.builder("builder").build()))).containsExactly("bob");
        }
    }
}
