package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index's searchers and the commits it reads, seen from inside the package. */
class SearchIndexTest {
    @TempDir
    Path dir;

    /** A store of {@code n} commits after its genesis, each asserting one fact about a lighthouse. */
    private Path store(int n) throws Exception {
        try (Store s = TestStores.init(dir)) {
            for (int i = 0; i < n; i++) {
                var tx = s.begin(TestStores.ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "lighthouse keeper note " + i).id(FactId.of("f" + i)));
                tx.commit();
            }
            return s.gitDir();
        }
    }

    @Test
    void aSearchReleasesTheSearcherItAcquired() throws Exception {
        Path g = store(2);
        try (GitRepo repo = GitRepo.open(g, false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            try (SearchIndex idx = SearchIndex.open(repo, claims)) {
                int seq = idx.indexedSeq();
                IndexSearcher s = idx.acquire(seq);
                int refs = s.getIndexReader().getRefCount();
                assertThat(new Ranker(idx).search(SearchQuery.builder("lighthouse").build(), seq)).hasSize(2);
                assertThat(s.getIndexReader().getRefCount()).isEqualTo(refs);
                idx.release(s);
                assertThat(s.getIndexReader().getRefCount()).isEqualTo(refs - 1);
            }
        }
    }

    @Test
    void aLongRangeIsReadInOrderOnADaemonThreadThatClosingStops() throws Exception {
        Path g = store(2);
        int n = 300; // more than the queue holds: the worker waits for the reader
        dev.palimpsest.testing.Forgery.emptyCommitsOnMain(g, "mallory", n);
        try (GitRepo repo = GitRepo.open(g, false)) {
            ClaimsIndex claims = ClaimsIndex.open(repo);
            int last = claims.commitCount() - 1;
            Thread worker;
            try (CommitReads reads = new CommitReads(repo, claims, 1, last)) {
                assertThat(reads.next().seq()).isEqualTo(1);
                worker = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals("palimpsest-search-reads")).findFirst().orElseThrow();
                assertThat(worker.isDaemon()).isTrue();
            }
            assertThat(worker.isAlive()).isFalse();
            try (CommitReads reads = new CommitReads(repo, claims, 1, last)) {
                int seq = 1;
                for (CommitReads.Read r = reads.next(); r != null; r = reads.next()) {
                    assertThat(r.seq()).isEqualTo(seq);
                    assertThat(r.commit()).isEqualTo(claims.commitAt(seq));
                    assertThat(r.facts()).hasSize(seq <= 2 ? 1 : 0);
                    seq++;
                }
                assertThat(seq).isEqualTo(last + 1);
            }
        }
    }

    @Test
    void theWriterMergesSegmentsUnderSixteenMegabytesAsThoughOfThatSizeAndItsCommitsDoNotWaitForMerges() {
        var config = SearchIndex.config(org.apache.lucene.index.IndexWriterConfig.OpenMode.CREATE);
        assertThat(config.getMergePolicy()).isInstanceOfSatisfying(org.apache.lucene.index.TieredMergePolicy.class,
                p -> assertThat(p.getFloorSegmentMB()).isEqualTo(16.0));
        assertThat(config.getMaxFullFlushMergeWaitMillis()).isZero();
        assertThat(config.getCommitOnClose()).as("saved only under the writer lock, never by Lucene's close").isFalse();
    }
}
