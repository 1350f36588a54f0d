package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted search index: reused when clean (caught up from its manifest's commit, no rebuild),
 * rebuilt from git with one stderr line when missing, corrupt, of another format, of another store
 * or off main's history, and right afterwards in every case.
 */
class SearchIndexRebuildTest {
    @TempDir
    Path dir;

    private CommitId mid;

    private Path build(Path at, String subject) throws Exception {
        try (Store s = TestStores.init(at)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "doc").id(FactId.of("doc")));
            tx.commit();
            s.claims().claim(TestStores.ALICE, ClaimSpec.of(subject, "is", "one", FactId.of("doc")).id(FactId.of("a1")));
            mid = s.head();
            assertThat(s.recall().search(SearchQuery.builder().entity(subject).build())).hasSize(1); // opens the index
            s.claims().supersede(TestStores.ALICE, FactId.of("a1"), ClaimSpec.of(subject, "is", "two",
                    FactId.of("doc")).id(FactId.of("a2")));
            return s.gitDir();
        }
    }

    private record Answer(List<String> now, List<String> before, String err) {}

    private Answer ask(Path gitDir, String subject) throws Exception {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (Store s = Store.open(gitDir, new KeyHome(gitDir.getParent().resolve("home")))) {
            List<String> now = ids(s.recall().search(SearchQuery.builder().entity(subject).build()));
            List<String> before = ids(s.recall().search(SearchQuery.builder().entity(subject).at(mid).build()));
            return new Answer(now, before, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(old);
        }
    }

    private static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(h -> h.id().value()).toList();
    }

    private static void assertRight(Answer a) {
        assertThat(a.now()).containsExactly("a2");
        assertThat(a.before()).containsExactly("a1");
    }

    private static Path index(Path gitDir) {
        return gitDir.resolve("palimpsest-index/search-v1");
    }

    @Test
    void aCleanIndexIsReusedAndCaughtUpFromItsCommit() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        Answer first = ask(g, "auth");
        assertRight(first);
        assertThat(first.err()).doesNotContain("search index");
        // a write by a store that never opened recall: the next open catches up, no rebuild
        try (Store s = Store.open(g, new KeyHome(g.getParent().resolve("home")))) {
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth", "runs on", "k8s", FactId.of("doc")).id(FactId.of("a3")));
        }
        Answer later = ask(g, "auth");
        assertThat(later.now()).containsExactly("a2", "a3");
        assertThat(later.before()).containsExactly("a1");
        assertThat(later.err()).doesNotContain("search index");
    }

    @Test
    void versionsLiveInAReusedIndexEndWhenRevisedOrRetractedLater() throws Exception {
        Path g = dir.resolve("a").resolve("store.git");
        try (Store s = TestStores.init(dir.resolve("a"))) {
            RecallStoriesTest.seedGraph(s);
            assertThat(ids(s.recall().search(RecallStoriesTest.about("redis"))))
                    .containsExactly("r1", "r2");
        }
        try (Store s = Store.open(g, new KeyHome(dir.resolve("a").resolve("home")))) {
            assertThat(s.recall().search(SearchQuery.builder("patched").build())).isEmpty(); // reused, not rebuilt
            var tx = s.begin(TestStores.ALICE);
            tx.revise(FactId.of("r1"), "redis runs version 7.2.4, patched in place", List.of());
            tx.retract(FactId.of("r2"), "not reproducible");
            tx.commit();
            List<SearchHit> now = s.recall().search(RecallStoriesTest.about("redis"));
            assertThat(ids(now)).containsExactly("r1");
            assertThat(now.get(0).body()).isEqualTo("redis runs version 7.2.4, patched in place");
            assertThat(s.recall().search(SearchQuery.builder("connection leak").build())).isEmpty();
        }
    }

    @Test
    void aWriteMoreThanASecondAfterTheLastSaveIsSavedWithItsCommit() throws Exception {
        try (Store s = TestStores.init(dir.resolve("a"))) {
            RecallStoriesTest.seedGraph(s);
            assertThat(s.recall().search(SearchQuery.builder().entity("redis").build())).isNotEmpty();
            assertThat(savedCommit(s.gitDir())).isEqualTo(s.head().hex());
            Thread.sleep(1100);
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("redis", "runs on", "k8s", FactId.of("arch-md"))
                    .id(FactId.of("r3")));
            assertThat(savedCommit(s.gitDir())).isEqualTo(s.head().hex());
        }
    }

    private static String savedCommit(Path gitDir) throws Exception {
        try (FSDirectory d = FSDirectory.open(index(gitDir))) {
            return org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData().get("commit");
        }
    }

    @Test
    void aMissingIndexIsBuilt() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        deleteTree(index(g));
        Answer a = ask(g, "auth");
        assertRight(a);
        assertThat(a.err()).contains("building the search index").contains("(missing)");
        assertThat(ask(g, "auth").err()).doesNotContain("search index");
    }

    @Test
    void aFileWhereTheIndexFolderBelongsIsReplacedByABuiltIndexSayingSoOnce() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        deleteTree(index(g));
        Files.writeString(index(g), "not an index");
        Answer a = ask(g, "auth");
        assertRight(a);
        assertThat(a.err().lines().filter(l -> l.contains("search index")).toList()).singleElement().satisfies(l -> assertThat(l)
                .isEqualTo("INFO SearchIndex - building the search index " + index(g) + " (missing); rebuilding it from git"));
        assertThat(Files.isDirectory(index(g))).isTrue();
        assertThat(ask(g, "auth").err()).doesNotContain("search index");
    }

    @Test
    void aCorruptIndexIsRebuilt() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        try (Stream<Path> files = Files.list(index(g))) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith("segments_")).toList()) {
                byte[] b = Files.readAllBytes(p);
                b[b.length / 2] ^= 0x5a;
                Files.write(p, b);
            }
        }
        Answer a = ask(g, "auth");
        assertRight(a);
        assertThat(a.err()).contains("discarded the search index").contains("unreadable");
    }

    @Test
    void anIndexOfAnotherStoreIsRebuilt() throws Exception {
        Path mine = build(dir.resolve("a"), "auth");
        CommitId mineMid = mid;
        Path theirs = build(dir.resolve("b"), "billing");
        deleteTree(index(mine));
        copyTree(index(theirs), index(mine));
        mid = mineMid;
        Answer a = ask(mine, "auth");
        assertRight(a);
        assertThat(a.err()).contains("discarded the search index").contains("belongs to the store whose genesis is");
    }

    @Test
    void anIndexOfAnotherFormatIsRebuilt() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        deleteTree(index(g));
        Files.createDirectories(index(g));
        try (FSDirectory d = FSDirectory.open(index(g)); IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
            w.setLiveCommitData(Map.of("format", "palimpsest-search-0").entrySet());
            w.commit();
        }
        Answer a = ask(g, "auth");
        assertRight(a);
        assertThat(a.err()).contains("its format is palimpsest-search-0");
    }

    @Test
    void anIndexOfFormatFourWhoseKeysKeptInvisibleCharactersIsRebuilt() throws Exception {
        Path g = build(dir.resolve("a"), "Gi\u200bna");
        try (FSDirectory d = FSDirectory.open(index(g)); IndexWriter w = new IndexWriter(d,
                new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
            Map<String, String> data = new java.util.HashMap<>(
                    org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData());
            data.put("format", "palimpsest-search-4");
            w.setLiveCommitData(data.entrySet());
            w.commit();
        }
        Answer a = ask(g, "GINA");
        assertRight(a);
        assertThat(a.err()).contains("its format is palimpsest-search-4");
    }

    @Test
    void anIndexOfARewoundMainIsRebuilt() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        try (Repository r = new FileRepositoryBuilder().setGitDir(g.toFile()).build()) {
            RefUpdate u = r.updateRef("refs/heads/main");
            u.setNewObjectId(ObjectId.fromString(mid.hex()));
            u.setForceUpdate(true);
            assertThat(u.update()).isIn(RefUpdate.Result.FORCED, RefUpdate.Result.FAST_FORWARD);
        }
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (Store s = Store.open(g, new KeyHome(g.getParent().resolve("home")))) {
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("auth", "is", "three", FactId.of("doc")).id(FactId.of("a4")));
            assertThat(ids(s.recall().search(SearchQuery.builder().entity("auth").build()))).containsExactly("a1", "a4");
        } finally {
            System.setErr(old);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("discarded the search index")
                .contains("is not on main's history");
    }

    @Test
    void aSecondOpenInTheSameProcessKeepsItsIndexInMemoryAndAnswersTheSame() throws Exception {
        Path g = build(dir.resolve("a"), "auth");
        try (Store one = Store.open(g, new KeyHome(g.getParent().resolve("home")));
                Store two = Store.open(g, new KeyHome(g.getParent().resolve("home")))) {
            assertThat(ids(one.recall().search(SearchQuery.builder().entity("auth").build()))).containsExactly("a2");
            PrintStream old = System.err;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                two.claims().claim(TestStores.ALICE, ClaimSpec.of("auth", "runs on", "k8s", FactId.of("doc"))
                        .id(FactId.of("a3")));
                assertThat(ids(two.recall().search(SearchQuery.builder().entity("auth").build()))).containsExactly("a2", "a3");
            } finally {
                System.setErr(old);
            }
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("keeping the search index in memory");
            // the first catches up with the other's write from git on its next question
            assertThat(ids(one.recall().search(SearchQuery.builder().entity("auth").build()))).containsExactly("a2", "a3");
        }
    }

    static void deleteTree(Path p) throws Exception {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    static void copyTree(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                if (!p.getFileName().toString().equals("write.lock")) {
                    Files.copy(p, to.resolve(p.getFileName()));
                }
            }
        }
    }
}
