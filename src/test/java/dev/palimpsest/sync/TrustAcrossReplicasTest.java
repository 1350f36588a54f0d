package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys added or revoked on one replica, against commits made concurrently on another. */
class TrustAcrossReplicasTest {
    private static final TransferProgress NONE = TransferProgress.none();
    private static final ActorName DAVE = ActorName.of("dave");

    @TempDir
    Path dir;

    @Test
    void aConcurrentRevocationKeepsTheOtherSidesCommitsValidAndStopsTheActorAfterTheMerge() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            s.begin(ALICE).revokeKey(BOB).commit();
            s.begin(ALICE).addKey(DAVE, rs.home.generateKey(DAVE, "dave@example.org"), KeyRole.AGENT).commit();
            ReplicationTest.assertFact(s, DAVE, "by-dave", "Written by dave, trusted on a only.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            ReplicationTest.assertFact(s, BOB, "by-bob", "Written by bob, not yet revoked on b.");
            assertThat(s.replication().pullAs("origin", BOB, NONE)).isInstanceOf(PullResult.Merged.class);
            assertThat(s.keys(s.head())).extracting(ActorKey::name).containsExactly(ALICE, CAROL, DAVE);
            assertThatThrownBy(() -> ReplicationTest.assertFact(s, BOB, "late", "Bob after the merge."))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("unknown-actor");
            ReplicationTest.assertFact(s, DAVE, "dave-on-b", "Dave writes on b after the merge.");
            s.replication().push("origin", NONE);
        }
        assertThat(Replicas.audit(b).violations()).isEmpty();
        assertThat(Replicas.audit(rs.hub).violations()).isEmpty();
    }
}
