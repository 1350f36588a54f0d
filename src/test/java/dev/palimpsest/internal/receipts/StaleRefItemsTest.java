package dev.palimpsest.internal.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.ReviewItem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReviewQueue#staleRefItems}, the review queue of a commit without artifacts computed from the
 * predicate index alone, gives the list {@link ReviewQueue#items} gives from the commit's receipt
 * graph, item for item and in order, at every commit of seeded random histories of sources and
 * claims that cite, revise, retract, supersede and acknowledge.
 */
class StaleRefItemsTest {
    @TempDir
    Path dir;

    @Test
    void theQueueWithoutTheReceiptGraphIsTheQueueWithItAtEveryCommit() throws Exception {
        long seed = Long.getLong("palimpsest.seed", new Random().nextLong());
        Random random = new Random(seed);
        int nonEmpty = 0;
        for (int run = 0; run < 3; run++) {
            Path store = dir.resolve("s" + run);
            List<FactId> written = new ArrayList<>();
            Path gitDir;
            try (Store s = TestStores.initLexical(store)) {
                gitDir = s.gitDir();
                for (int c = 0; c < 25; c++) {
                    write(s, random, written);
                }
            }
            try (GitRepo repo = GitRepo.open(gitDir, false)) {
                PredicateIndex index = PredicateIndex.open(repo);
                FactCache cache = new FactCache(repo.vault());
                for (LogEntry e : dev.palimpsest.internal.git.History.log(repo, repo.head(), 0)) {
                    ObjectId at = ObjectId.fromString(e.commit().hex());
                    assertThat(ReviewQueue.hasNoArtifacts(repo.repository(), at)).isTrue();
                    List<ReviewItem> full = ReviewQueue.items(index, new Cleanup(ReceiptGraph.load(repo, index, at, cache)));
                    assertThat(ReviewQueue.staleRefItems(index, at)).as("seed %d (replay: -Dpalimpsest.seed=%d), commit %s",
                            seed, seed, e.commit().hex()).isEqualTo(full);
                    nonEmpty += full.isEmpty() ? 0 : 1;
                }
            }
        }
        assertThat(nonEmpty).as("commits with something to review, seed %d", seed).isGreaterThan(10);
    }

    private static void write(Store s, Random random, List<FactId> written) throws Exception {
        var tx = s.begin(TestStores.ALICE);
        int ops = 1 + random.nextInt(3);
        List<FactId> touched = new ArrayList<>();
        for (int i = 0; i < ops; i++) {
            FactId target = written.isEmpty() ? null : written.get(random.nextInt(written.size()));
            if (target != null && touched.contains(target)) {
                continue;
            }
            boolean live = target != null && read(s, target) instanceof FactRead.Found;
            int dice = random.nextInt(10);
            if (target == null || dice < 4 || !live) {
                FactId id = FactId.of("f" + written.size());
                Kind kind = random.nextInt(4) == 0 ? Kind.SOURCE : Kind.CLAIM;
                FactSpec spec = FactSpec.of(kind, "fact " + id + " " + random.nextInt(100)).id(id);
                if (live && kind == Kind.CLAIM) {
                    spec = spec.refs(RefSpec.cites(target));
                }
                tx.assertFact(spec);
                written.add(id);
                touched.add(id);
            } else if (dice < 6) {
                tx.revise(target, "revised " + random.nextInt(1000), List.of());
                touched.add(target);
            } else if (dice < 7) {
                tx.retract(target, "wrong");
                touched.add(target);
            } else if (dice < 9 && read(s, target) instanceof FactRead.Found f && f.fact().kind().equals(Kind.CLAIM)
                    && s.receipts().review(s.head()).stream().noneMatch(r -> r.id().equals(target))) {
                FactId id = FactId.of("f" + written.size());
                try {
                    tx.supersede(target, FactSpec.of(Kind.CLAIM, "successor of " + target).id(id));
                    written.add(id);
                    touched.add(target);
                    touched.add(id);
                } catch (RuntimeException refused) {
                    // already superseded: the gate says so at commit
                }
            } else {
                if (!touched.isEmpty()) {
                    tryCommit(tx);
                }
                List<ReviewItem> items = s.receipts().review(s.head());
                if (!items.isEmpty()) {
                    s.receipts().acknowledge(TestStores.ALICE, items.get(random.nextInt(items.size())).id());
                }
                if (!touched.isEmpty() || !items.isEmpty()) {
                    return;
                }
            }
        }
        tryCommit(tx);
    }

    private static void tryCommit(dev.palimpsest.api.Transaction tx) throws Exception {
        try {
            tx.commit();
        } catch (dev.palimpsest.model.RejectedException refused) {
            // a second supersession of one fact, or an empty transaction: nothing written
        }
    }

    private static FactRead read(Store s, FactId id) throws Exception {
        try {
            return s.read(id, s.head());
        } catch (NotFoundException never) {
            return null;
        }
    }
}
