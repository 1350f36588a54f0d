package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peer-to-peer syncs between two replicas write no commit once nothing new arrives: after two
 * replicas merged each other in opposite orders (two merge commits of one tree), one more merge
 * joins them and every later pull, either way, is up to date.
 */
class PingPongTest {
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    @Test
    void syncsOfReplicasThatAlreadyMergedEachOtherWriteNothing() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            ReplicationTest.assertFact(s, ALICE, "x", "Written on a.");
            s.replication().addRemote(new Remote("peer", b.toString()));
        }
        try (Store s = rs.open(b)) {
            ReplicationTest.assertFact(s, BOB, "y", "Written on b.");
            s.replication().addRemote(new Remote("peer", a.toString()));
        }
        Path a0 = Replicas.copy(a, dir.resolve("a0.git"));
        try (Store s = rs.open(a)) {
            assertThat(s.replication().pullAs("peer", ALICE, NONE)).isInstanceOf(PullResult.Merged.class);
        }
        try (Store s = rs.open(b)) {
            s.replication().removeRemote("peer");
            s.replication().addRemote(new Remote("peer", a0.toString()));
            assertThat(s.replication().pullAs("peer", BOB, NONE)).isInstanceOf(PullResult.Merged.class);
            s.replication().removeRemote("peer");
            s.replication().addRemote(new Remote("peer", a.toString()));
        }
        assertThat(Replicas.tree(a)).isEqualTo(Replicas.tree(b));
        List<String> results = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (Path p : List.of(a, b)) {
                try (Store s = rs.open(p)) {
                    results.add(s.replication().pullAs("peer", p == a ? ALICE : BOB, NONE).getClass().getSimpleName());
                }
            }
        }
        assertThat(results.subList(2, results.size())).as("after the first exchange: %s", results)
                .containsOnly("UpToDate");
        assertThat(results.stream().filter("Merged"::equals).count()).as("%s", results).isLessThanOrEqualTo(1);
        assertThat(Replicas.head(a)).isEqualTo(Replicas.head(b));
        assertThat(Replicas.audit(a).violations()).isEmpty();
    }

    @Test
    void repeatedSyncsThroughAHubMergeOnceThenAreNoOps() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            ReplicationTest.assertFact(s, ALICE, "x", "Written on a.");
        }
        try (Store s = rs.open(b)) {
            ReplicationTest.assertFact(s, BOB, "y", "Written on b.");
        }
        List<String> results = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (Path p : List.of(a, b)) {
                try (Store s = rs.open(p)) {
                    results.add(s.replication().pullAs("origin", p == a ? ALICE : BOB, NONE).getClass().getSimpleName());
                    s.replication().push("origin", NONE);
                }
            }
        }
        assertThat(results.stream().filter("Merged"::equals).count()).as("%s", results).isEqualTo(1);
        assertThat(results.subList(3, results.size())).as("%s", results).containsOnly("UpToDate");
        assertThat(Replicas.head(a)).isEqualTo(Replicas.head(b)).isEqualTo(Replicas.head(rs.hub));
    }
}
