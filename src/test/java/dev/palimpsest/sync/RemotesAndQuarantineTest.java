package dev.palimpsest.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.testing.Forgery;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remotes as the repository's config records them, and the quarantine ref a refused pull leaves. */
class RemotesAndQuarantineTest {
    private static final String QUARANTINE = "refs/palimpsest/quarantine/origin";
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    private Replicas rs;

    @BeforeEach
    void hub() throws Exception {
        rs = Replicas.create(dir);
    }

    @Test
    void aRefusedPullAfterTheRemoteRewroteItsMainLeavesTheNewTipInQuarantine() throws Exception {
        Path a = rs.cloneHub("a");
        ObjectId shared = Replicas.head(rs.hub);
        ObjectId first = Forgery.unsignedCommitOnMain(rs.hub, "bob");
        try (Store s = rs.open(a)) {
            assertThat(s.replication().pullAs("origin", Replicas.BOB, NONE)).isInstanceOf(PullResult.Refused.class);
        }
        assertThat(ref(a, QUARANTINE)).isEqualTo(first);

        setMain(rs.hub, shared);
        ObjectId second = Forgery.unsignedCommitOnMain(rs.hub, "carol");
        try (Store s = rs.open(a)) {
            assertThat(s.replication().pullAs("origin", Replicas.BOB, NONE)).isInstanceOf(PullResult.Refused.class);
        }
        assertThat(ref(a, QUARANTINE)).isEqualTo(second);
    }

    @Test
    void theQuarantineRefKeepsNoReflogEvenWhenTheRepositoryLogsEveryRef() throws Exception {
        Path a = rs.cloneHub("a");
        try (Repository r = open(a)) {
            r.getConfig().setString("core", null, "logAllRefUpdates", "always");
            r.getConfig().save();
        }
        Forgery.unsignedCommitOnMain(rs.hub, "bob");
        try (Store s = rs.open(a)) {
            assertThat(s.replication().pullAs("origin", Replicas.BOB, NONE)).isInstanceOf(PullResult.Refused.class);
        }
        assertThat(ref(a, QUARANTINE)).isNotNull();
        assertThat(a.resolve("logs").resolve(QUARANTINE)).doesNotExist();
    }

    @Test
    void remotesAreListedByNameWhateverTheOrderTheyWereAdded() throws Exception {
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(a)) {
            s.replication().addRemote(new Remote("zeta", rs.hub.toString()));
            s.replication().addRemote(new Remote("beta", rs.hub.toString()));
            assertThat(s.replication().remotes()).extracting(Remote::name).containsExactly("beta", "origin", "zeta");
        }
    }

    @Test
    void anAddedRemoteIsRecordedToFetchMainOnlyAndNoTags() throws Exception {
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(a)) {
            s.replication().addRemote(new Remote("peer", rs.hub.toString()));
        }
        try (Repository r = open(a)) {
            assertThat(r.getConfig().getString("remote", "peer", "tagopt")).isEqualTo("--no-tags");
            assertThat(r.getConfig().getStringList("remote", "peer", "fetch"))
                    .containsExactly("+refs/heads/main:refs/remotes/peer/main");
            assertThat(r.getConfig().getString("remote", "peer", "url")).isEqualTo(rs.hub.toString());
        }
    }

    @Test
    void removingARemoteDeletesItsQuarantineAndRemoteTrackingRefs() throws Exception {
        Path a = rs.cloneHub("a");
        Forgery.unsignedCommitOnMain(rs.hub, "bob");
        try (Store s = rs.open(a)) {
            s.replication().addRemote(new Remote("peer", rs.hub.toString()));
            assertThat(s.replication().pullAs("origin", Replicas.BOB, NONE)).isInstanceOf(PullResult.Refused.class);
        }
        ObjectId main = Replicas.head(a);
        setRef(a, "refs/remotes/origin/main", main);
        setRef(a, "refs/remotes/peer/main", main);
        assertThat(ref(a, QUARANTINE)).isNotNull();
        try (Store s = rs.open(a)) {
            s.replication().removeRemote("origin");
            assertThat(s.replication().remotes()).extracting(Remote::name).containsExactly("peer");
        }
        assertThat(ref(a, QUARANTINE)).isNull();
        assertThat(ref(a, "refs/remotes/origin/main")).isNull();
        assertThat(ref(a, "refs/remotes/peer/main")).isEqualTo(main);
        try (Repository r = open(a)) {
            assertThat(r.getConfig().getSubsections("remote")).containsExactly("peer");
        }
    }

    private static Repository open(Path gitDir) throws Exception {
        return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
    }

    private static ObjectId ref(Path gitDir, String name) throws Exception {
        try (Repository r = open(gitDir)) {
            Ref ref = r.exactRef(name);
            return ref == null ? null : ref.getObjectId();
        }
    }

    private static void setMain(Path gitDir, ObjectId to) throws Exception {
        setRef(gitDir, "refs/heads/main", to);
    }

    private static void setRef(Path gitDir, String name, ObjectId to) throws Exception {
        try (Repository r = open(gitDir)) {
            RefUpdate u = r.updateRef(name);
            u.setNewObjectId(to);
            u.setForceUpdate(true);
            assertThat(u.update()).isIn(RefUpdate.Result.NEW, RefUpdate.Result.FORCED, RefUpdate.Result.NO_CHANGE);
        }
    }
}
