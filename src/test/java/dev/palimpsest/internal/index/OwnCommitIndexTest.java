package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.cli.Main;
import dev.palimpsest.internal.git.GitRepo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer indexes its own commits from the changes it made, not from a tree diff; the events it
 * records must be exactly those a rebuild from the trees finds. The demo's stores cover asserts,
 * revisions, retractions, re-adds, merges, ingest, entailment and a cleanup cascade.
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
                PredicateIndex.Persisted written = PredicateIndex.readPersisted(repo);
                assertThat(written.corrupt()).isFalse();
                PredicateIndex.discardPersisted(repo);
                PredicateIndex.open(repo).persist();
                Map<ObjectId, Map<String, FactState>> rebuilt = PredicateIndex.readPersisted(repo).byCommit();
                assertThat(written.byCommit()).as(store).hasSizeGreaterThan(3).isEqualTo(rebuilt);
            }
        }
    }
}
