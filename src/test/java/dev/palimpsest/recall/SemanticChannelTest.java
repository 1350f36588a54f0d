package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.embed.Vectors;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The semantic channel: found by meaning, at any commit, each content embedded once, erased by a forget. */
class SemanticChannelTest {
    @TempDir
    Path dir;

    private static Store store(Path dir, StoreOptions options) throws Exception {
        return Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home")))
                .actor(TestStores.ALICE).options(options.withFsync(false)).create();
    }

    private static void note(Store s, String id, String body) throws Exception {
        Transaction tx = s.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, body).id(FactId.of(id)));
        tx.commit();
    }

    @Test
    void theBundledModelFindsAFactByMeaningWhenTheyShareNoWord() throws Exception {
        try (Store s = TestStores.init(dir.resolve("hybrid"));
                Store words = TestStores.initLexical(dir.resolve("lexical"))) {
            for (Store st : List.of(s, words)) {
                note(st, "car", "My car would not start this morning.");
                note(st, "cake", "Grandmother baked a lemon cake for the birthday party.");
                note(st, "tax", "The quarterly tax filing is due at the end of March.");
            }
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("automobile trouble").hops(0).build());
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).id().value()).isEqualTo("car");
            assertThat(hits.get(0).channel()).isEqualTo(Channel.SEMANTIC);
            assertThat(hits.get(0).score()).isEqualTo(0.9);
            assertThat(words.recall().search(SearchQuery.builder("automobile trouble").hops(0).build()))
                    .as("no word is shared: the words' channels find nothing").isEmpty();
        }
    }

    @Test
    void aHitFoundByBothChannelsOutranksOneFoundByEitherAlone() throws Exception {
        WordsEmbedder e = new WordsEmbedder();
        try (Store s = store(dir, StoreOptions.defaults().withEmbedder(e))) {
            note(s, "both", "rotate the signing keys every month");
            note(s, "words", "keys of the piano are ivory");
            note(s, "other", "signing rotate month every");
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("rotate signing keys").hops(0).build());
            assertThat(RecallStoriesTest.ids(hits).get(0)).isEqualTo("both");
            assertThat(hits.get(0).score()).isEqualTo(0.9);
            assertThat(hits).allSatisfy(h -> assertThat(h.score()).isLessThanOrEqualTo(0.9));
        }
    }

    @Test
    void vectorsFollowTheStoreAtAnyCommit() throws Exception {
        WordsEmbedder e = new WordsEmbedder();
        try (Store s = store(dir, StoreOptions.defaults().withEmbedder(e))) {
            note(s, "x", "alpha beta gamma");
            CommitId first = s.head();
            Transaction tx = s.begin(TestStores.ALICE);
            tx.revise(FactId.of("x"), "delta epsilon zeta", List.of());
            tx.commit();
            // "gamma alpha" shares only words of the first version; the semantic channel alone would not
            // know the difference if vectors ignored the commit
            SearchQuery q = SearchQuery.builder("alpha gamma").hops(0).build();
            List<SearchHit> then = s.recall().search(q.at(first));
            assertThat(then).extracting(SearchHit::body).containsExactly("alpha beta gamma");
            assertThat(s.recall().search(q)).isEmpty();
            List<SearchHit> now = s.recall().search(SearchQuery.builder("zeta delta").hops(0).build());
            assertThat(now).extracting(SearchHit::body).containsExactly("delta epsilon zeta");
            assertThat(s.recall().search(SearchQuery.builder("zeta delta").hops(0).build().at(first))).isEmpty();
        }
    }

    @Test
    void theSameContentIsNeverEmbeddedTwiceNotEvenByARebuiltIndex() throws Exception {
        WordsEmbedder e = new WordsEmbedder();
        Path gitDir;
        try (Store s = store(dir, StoreOptions.defaults().withEmbedder(e))) {
            note(s, "a", "first fact about lighthouses");
            note(s, "b", "second fact about harbours");
            s.recall().search(SearchQuery.builder("lighthouses").build());
            gitDir = s.gitDir();
        }
        List<String> facts = e.asked.stream().filter(t -> t.contains("fact")).toList();
        assertThat(facts).containsExactlyInAnyOrder("first fact about lighthouses", "second fact about harbours");
        deleteTree(gitDir.resolve("palimpsest-index/search-v1"));
        e.asked.clear();
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")),
                StoreOptions.defaults().withFsync(false).withEmbedder(e))) {
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("harbours").hops(0).build());
            assertThat(RecallStoriesTest.ids(hits)).containsExactly("b");
        }
        assertThat(e.asked).as("the rebuilt index took every vector from the cache; only the question was embedded")
                .containsExactly("harbours");
    }

    @Test
    void forgettingAFactRemovesItsVectorsFromEveryIndexFile() throws Exception {
        WordsEmbedder e = new WordsEmbedder();
        String secret = "patient zebra quokka diagnosis";
        byte[] pattern = Vectors.bytes(WordsEmbedder.vector(secret));
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withEmbedder(e);
        Path gitDir;
        try (Store s = store(dir, opts)) {
            Transaction tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), secret).id(FactId.of("s")).asSensitive());
            tx.commit();
            note(s, "p", "public zebra facts");
            assertThat(RecallStoriesTest.ids(s.recall().search(SearchQuery.builder("quokka diagnosis").hops(0).build())))
                    .contains("s");
            gitDir = s.gitDir();
        }
        assertThat(filesHolding(gitDir, pattern)).as("the test sees the vector on disk before the forget").isNotEmpty();
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), opts)) {
            s.recall().search(SearchQuery.builder("zebra").build()); // the index and its vector cache are open and held
            s.erasure().forget(TestStores.ALICE, List.of(FactId.of("s")), "erasure request", false);
            assertThat(filesHolding(gitDir, pattern)).as("no index file holds the forgotten fact's vector").isEmpty();
            assertThat(RecallStoriesTest.ids(s.recall().search(SearchQuery.builder("zebra diagnosis").hops(0).build())))
                    .doesNotContain("s").contains("p");
        }
        assertThat(filesHolding(gitDir, pattern)).as("nor after the store closed").isEmpty();
    }

    private static List<Path> filesHolding(Path gitDir, byte[] pattern) throws Exception {
        List<Path> out = new ArrayList<>();
        Path idx = gitDir.resolve("palimpsest-index");
        if (!Files.isDirectory(idx)) {
            return out;
        }
        String hex = HexFormat.of().formatHex(pattern);
        try (Stream<Path> files = Files.walk(idx)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (HexFormat.of().formatHex(Files.readAllBytes(f)).contains(hex)) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    private static void deleteTree(Path p) throws Exception {
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
