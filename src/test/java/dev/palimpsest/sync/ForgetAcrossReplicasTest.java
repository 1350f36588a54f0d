package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.vault.Vault;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forget across replicas: a tombstone on one side beats a concurrent revision on the other in the
 * convergent merge, whichever side merges; a forget that arrives by a pull (fast-forward or merge)
 * destroys the local vault's data key of that fact; and a sealed fact written on another replica
 * reads as sealed content unavailable here (keys never travel through git), then as forgotten.
 */
class ForgetAcrossReplicasTest {
    private static final TransferProgress NONE = TransferProgress.none();
    private static final FactId F = FactId.of("f");
    private static final String SECRET = "Patient Z lives at 12 Harbour Lane";

    @TempDir
    Path dir;

    /** Replica a writes sealed f and pushes it; b is a copy of a, vault included (so b holds f's key too). */
    private Path[] sealedOnTwoReplicas(Replicas rs) throws Exception {
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(a)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET).id(F).asSensitive());
            tx.commit();
            s.replication().push("origin", NONE);
        }
        Path b = Replicas.copy(a, dir.resolve("b.git"));
        assertThat(new Vault(b, false).holds(F)).isTrue();
        return new Path[] {a, b};
    }

    @Test
    void aForgetBeatsAConcurrentRevisionInBothSyncOrdersAndDestroysTheKeyEverywhere() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path[] ab = sealedOnTwoReplicas(rs);
        Path a = ab[0];
        Path b = ab[1];
        try (Store s = rs.open(a)) {
            s.erasure().forget(ALICE, List.of(F), "erasure request 7", false);
        }
        Thread.sleep(1100);
        try (Store s = rs.open(b)) {
            s.begin(BOB).revise(F, "Patient Z moved to 3 Quay Street", List.of()).commit();
        }
        Path a2 = Replicas.copy(a, dir.resolve("a2.git"));
        Path b2 = Replicas.copy(b, dir.resolve("b2.git"));
        for (Path[] pair : new Path[][] {{a2, b}, {b2, a}}) {
            try (Store s = rs.open(pair[0])) {
                s.replication().addRemote(new Remote("peer", pair[1].toString()));
                assertThat(s.replication().pullAs("peer", ALICE, NONE)).isInstanceOf(PullResult.Merged.class);
                NotFoundException gone = catchThrowableOfType(() -> s.read(F, s.head()), NotFoundException.class);
                assertThat(gone).as("on %s", pair[0].getFileName()).hasMessageContaining("forgotten at");
            }
            assertThat(new Vault(pair[0], false).holds(F)).as("the key on %s", pair[0].getFileName()).isFalse();
            List<String> paths = Replicas.git(dir, "--git-dir=" + pair[0], "ls-tree", "-r", "--name-only", "main")
                    .output().lines().filter(l -> l.endsWith("/f.yaml")).toList();
            assertThat(paths).as("only the tombstone names f on %s", pair[0].getFileName()).singleElement()
                    .asString().startsWith("tombstones/");
        }
        assertThat(Replicas.tree(a2)).isEqualTo(Replicas.tree(b2));
        assertThat(Replicas.audit(a2).violations()).isEmpty();
        assertThat(Replicas.audit(b2).violations()).as("key-not-destroyed included").isEmpty();
    }

    @Test
    void aForgetPulledByFastForwardDestroysTheLocalKeyAndTheAuditAgrees() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path[] ab = sealedOnTwoReplicas(rs);
        try (Store s = rs.open(ab[0])) {
            s.erasure().forget(ALICE, List.of(F), "retention ended", false);
            s.replication().push("origin", NONE);
        }
        Path b = ab[1];
        try (Store s = rs.open(b)) {
            assertThat(((FactRead.Found) s.read(F, s.head())).fact().body()).isEqualTo(SECRET);
            assertThat(s.replication().pullAs("origin", BOB, NONE)).isInstanceOf(PullResult.FastForward.class);
            assertThat(catchThrowableOfType(() -> s.read(F, s.head()), NotFoundException.class))
                    .hasMessageContaining("forgotten at");
        }
        assertThat(new Vault(b, false).holds(F)).isFalse();
        assertThat(new Vault(b, false).orphanedIntents()).as("the pull's intent is settled").isEmpty();
        assertThat(b.resolve("palimpsest-vault/forgetting")).isEmptyDirectory();
        assertThat(b.resolve("palimpsest-index/search-v1")).doesNotExist();
        assertThat(Replicas.audit(b).violations()).isEmpty();
    }

    @Test
    void aSealedFactWrittenOnAnotherReplicaReadsAsUnavailableThenAsForgotten() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path[] ab = sealedOnTwoReplicas(rs);
        Path c = rs.cloneHub("c");
        try (Store s = rs.open(c)) {
            assertThat(catchThrowableOfType(() -> s.read(F, s.head()), NotFoundException.class))
                    .hasMessageContaining("sealed content unavailable (no data key in this store's vault");
        }
        try (Store s = rs.open(ab[0])) {
            s.erasure().forget(ALICE, List.of(F), "erasure request 8", false);
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(c)) {
            s.replication().pullAs("origin", BOB, NONE);
            assertThat(catchThrowableOfType(() -> s.read(F, s.head()), NotFoundException.class))
                    .hasMessageContaining("forgotten at");
        }
    }
}
