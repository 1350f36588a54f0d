package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.embed.Vectors;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The semantic channel's HNSW search over an index of several segments (their graphs searched side
 * by side) finds the nearest fact wherever it lies, as scoring every candidate does.
 */
class NearestAcrossSegmentsTest {
    private static final int SEGMENTS = 6;
    private static final int PER_SEGMENT = 100;
    private static final int DIMENSIONS = 16;

    @TempDir
    Path dir;

    /** Fact {@code i}'s body and the question near it share no word; each maps to a vector near fact i's own. */
    private static final class Planted implements Embedder {
        final Map<String, float[]> vectors = new HashMap<>();

        @Override
        public String name() {
            return "test-planted-16";
        }

        @Override
        public int dimensions() {
            return DIMENSIONS;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                float[] v = vectors.get(t);
                out.add(v != null ? v.clone() : Vectors.unit(random(t.hashCode(), 0f)));
            }
            return out;
        }
    }

    private static float[] random(long seed, float noise) {
        float[] v = GaussianVectors.of(seed, DIMENSIONS);
        if (noise > 0) {
            Random n = new Random(~seed);
            for (int k = 0; k < DIMENSIONS; k++) {
                v[k] += noise * (float) n.nextGaussian();
            }
        }
        return v;
    }

    private static String body(int i) {
        return "planted fact " + Integer.toString(i, 36) + "x";
    }

    private static String question(int i) {
        return "asking about q" + Integer.toString(i, 36) + "z";
    }

    /** A store of {@link #SEGMENTS} commits of planted facts, its index refreshed after each: one segment per commit. */
    private Planted build() throws Exception {
        Planted e = new Planted();
        int facts = SEGMENTS * PER_SEGMENT;
        for (int i = 0; i < facts; i++) {
            e.vectors.put(body(i), Vectors.unit(random(i, 0f)));
            e.vectors.put(question(i), Vectors.unit(random(i, 0.05f)));
        }
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withEmbedder(e);
        try (Store s = Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home")))
                .actor(TestStores.ALICE).options(opts).create()) {
            for (int c = 0; c < SEGMENTS; c++) {
                var tx = s.begin(TestStores.ALICE);
                for (int i = c * PER_SEGMENT; i < (c + 1) * PER_SEGMENT; i++) {
                    tx.assertFact(FactSpec.of(Kind.CLAIM, body(i)).id(FactId.of("f" + i)));
                }
                tx.commit();
                s.recall().search(SearchQuery.builder(question(0)).build()); // a refresh: what is buffered becomes a segment
            }
        }
        return e;
    }

    @Test
    void theGraphsOfEverySegmentAreSearchedAndTheNearestFactComesFirstAsWhenEveryCandidateIsScored()
            throws Exception {
        Planted e = build();
        int facts = SEGMENTS * PER_SEGMENT;
        try (GitRepo repo = GitRepo.open(dir.resolve("store.git"), false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            try (SearchIndex idx = SearchIndex.open(repo, claims, e)) {
                int seq = idx.indexedSeq();
                IndexSearcher searcher = idx.acquire(seq);
                try {
                    assertThat(searcher.getIndexReader().leaves()).hasSizeGreaterThan(1);
                } finally {
                    idx.release(searcher);
                }
                Ranker graphs = new Ranker(idx, 0);
                Ranker exact = new Ranker(idx, Integer.MAX_VALUE);
                Random pick = new Random(7);
                for (int k = 0; k < 40; k++) {
                    int i = pick.nextInt(facts);
                    SearchQuery q = SearchQuery.builder(question(i)).limit(5).build();
                    List<Ranker.Found> byGraphs = graphs.search(q, seq);
                    List<Ranker.Found> byScoring = exact.search(q, seq);
                    assertThat(byGraphs).as("question %d", i).isNotEmpty();
                    assertThat(byGraphs.get(0).hit().id().value()).as("question %d", i).isEqualTo("f" + i);
                    assertThat(byScoring.get(0).hit().id().value()).isEqualTo("f" + i);
                }
            }
        }
    }

    @Test
    void questionsAskedFromSeveralThreadsAtOnceShareTheSearchPoolAndEachFindsItsNearestFact() throws Exception {
        Planted e = build();
        int facts = SEGMENTS * PER_SEGMENT;
        try (GitRepo repo = GitRepo.open(dir.resolve("store.git"), false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            try (SearchIndex idx = SearchIndex.open(repo, claims, e)) {
                int seq = idx.indexedSeq();
                Ranker graphs = new Ranker(idx, 0);
                int threads = 4;
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.ExecutorService askers = java.util.concurrent.Executors.newFixedThreadPool(threads);
                try {
                    List<java.util.concurrent.Future<List<String>>> asked = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int first = t;
                        asked.add(askers.submit(() -> {
                            start.await();
                            List<String> wrong = new ArrayList<>();
                            for (int i = first; i < facts; i += 37) {
                                List<Ranker.Found> hits = graphs.search(SearchQuery.builder(question(i)).limit(5).build(), seq);
                                if (hits.isEmpty() || !hits.get(0).hit().id().value().equals("f" + i)) {
                                    wrong.add("question " + i + ": " + (hits.isEmpty() ? "none" : hits.get(0).hit().id().value()));
                                }
                            }
                            return wrong;
                        }));
                    }
                    start.countDown();
                    for (var f : asked) {
                        assertThat(f.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEmpty();
                    }
                } finally {
                    askers.shutdownNow();
                }
            }
        }
    }
}
