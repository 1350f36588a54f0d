package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.cli.Main;
import dev.palimpsest.internal.git.GitRepo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer indexes its own commits from the changes it made, not from a tree diff; the events it
 * records must be exactly those a rebuild from the trees finds. The demo's stores cover asserts,
 * revisions, retractions, re-adds, merges, ingest, entailment and a cleanup cascade. So must the
 * events a pull takes from what its audit read (changes and decoded facts) instead of diffing.
 */
class OwnCommitIndexTest {
    @TempDir
    Path dir;

    @Test
    void eventsRecordedByTheWriterEqualThoseOfARebuildFromTheTrees() throws Exception {
        StringWriter out = new StringWriter();
        assertThat(Main.run(new String[] {"demo", dir.toString()}, new PrintWriter(out), new PrintWriter(out)))
                .as(out.toString()).isZero();
        for (String store : new String[] {"store.git", "receipts.git"}) {
            try (GitRepo repo = GitRepo.open(dir.resolve(store), false)) {
                PersistedIndex.Contents written = PersistedIndex.read(repo);
                assertThat(written.corrupt()).isFalse();
                PersistedIndex.discard(repo);
                PredicateIndex.open(repo).persist();
                Map<ObjectId, Map<String, FactState>> rebuilt = PersistedIndex.read(repo).byCommit();
                assertThat(written.byCommit()).as(store).hasSizeGreaterThan(3).isEqualTo(rebuilt);
            }
        }
    }

    @Test
    void eventsAPullTookFromItsAuditEqualThoseOfARebuildFromTheTrees() throws Exception {
        StringWriter out = new StringWriter();
        assertThat(Main.run(new String[] {"demo", dir.toString()}, new PrintWriter(out), new PrintWriter(out)))
                .as(out.toString()).isZero();
        for (String store : new String[] {"store.git", "receipts.git"}) {
            Path replica = dir.resolve("replica-" + store);
            Replication.cloneStore(dir.resolve(store).toString(), replica, StoreOptions.defaults(), TransferProgress.none());
            try (GitRepo repo = GitRepo.open(replica, false)) {
                ObjectId genesis;
                try (RevWalk walk = new RevWalk(repo.repository())) {
                    walk.markStart(walk.parseCommit(repo.head()));
                    walk.sort(RevSort.REVERSE);
                    genesis = walk.next().copy();
                }
                RefUpdate u = repo.repository().updateRef(GitRepo.MAIN);
                u.setNewObjectId(genesis);
                u.setForceUpdate(true);
                u.disableRefLog();
                assertThat(u.update()).isEqualTo(RefUpdate.Result.FORCED);
                PersistedIndex.discard(repo);
            }
            try (Store s = Store.open(replica, new KeyHome(dir.resolve("home-" + store)))) {
                assertThat(s.replication().pull("origin", TransferProgress.none()))
                        .isInstanceOf(PullResult.FastForward.class);
            }
            try (GitRepo repo = GitRepo.open(replica, false)) {
                PersistedIndex.Contents pulled = PersistedIndex.read(repo);
                assertThat(pulled.corrupt()).isFalse();
                PersistedIndex.discard(repo);
                PredicateIndex.open(repo).persist();
                Map<ObjectId, Map<String, FactState>> rebuilt = PersistedIndex.read(repo).byCommit();
                assertThat(pulled.byCommit()).as(store).hasSizeGreaterThan(3).isEqualTo(rebuilt);
            }
        }
    }
}
