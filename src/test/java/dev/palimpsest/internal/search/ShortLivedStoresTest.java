package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.embed.Vectors;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose search index is opened and closed by one short-lived process after another (the
 * CLI's way: write, search, exit) keeps the index merged: a merge running at close is finished and
 * saved, not aborted and begun again by the next process while segments pile up.
 */
class ShortLivedStoresTest {
    /** As many dimensions as the local model: a merge of a few thousand vectors outlasts a search. */
    private static final int DIMENSIONS = 384;
    private static final int PER_PROCESS = 200;
    private static final int PROCESSES = 24;

    @TempDir
    Path dir;

    /** A pseudo-random unit vector per text. */
    private static final class Hashed implements Embedder {
        @Override
        public String name() {
            return "test-hashed-384";
        }

        @Override
        public int dimensions() {
            return DIMENSIONS;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                out.add(Vectors.unit(GaussianVectors.of(t.hashCode(), DIMENSIONS)));
            }
            return out;
        }
    }

    @Test
    void anIndexOpenedByOneShortLivedStoreAfterAnotherKeepsItsSegmentsMerged() throws Exception {
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withEmbedder(new Hashed());
        Path git = dir.resolve("store.git");
        KeyHome home = new KeyHome(dir.resolve("home"));
        Store.initializer(git).home(home).actor(TestStores.ALICE).options(opts).create().close();
        List<Integer> segments = new ArrayList<>();
        int n = 0;
        for (int p = 0; p < PROCESSES; p++) {
            try (Store s = Store.open(git, home, opts)) {
                var tx = s.begin(TestStores.ALICE);
                for (int i = 0; i < PER_PROCESS; i++, n++) {
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "observation " + n + " about topic" + (n % 97)));
                }
                tx.commit();
                // the first question opens the index: it catches up (one new segment) and saves, which starts a merge
                assertThat(s.recall().search(SearchQuery.builder("topic5").build())).isNotEmpty();
            }
            try (var d = FSDirectory.open(git.resolve("palimpsest-index").resolve("search-v1"))) {
                SegmentInfos saved = SegmentInfos.readLatestCommit(d);
                segments.add(saved.size());
                assertThat(saved.totalMaxDoc()).as("documents saved after process %d", p).isEqualTo(n);
                assertThat(git.resolve("palimpsest-index").resolve(SearchIndex.DIR + ".closing"))
                        .as("the closing marker, gone with its holder").doesNotExist();
            }
        }
        // a tiered policy keeps about ten segments a size; merges aborted at every close would leave one per process
        assertThat(segments.subList(PROCESSES - 4, PROCESSES)).as("segments saved after each process: %s", segments)
                .allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(12));
        try (Store s = Store.open(git, home, opts)) {
            var hits = s.recall().search(SearchQuery.builder("observation 4711").build());
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).body()).contains("4711");
        }
    }
}
