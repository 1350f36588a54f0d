package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.cli.Run;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.PushResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import dev.palimpsest.testing.Forgery;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication through a real {@code git daemon --enable=receive-pack} on 127.0.0.1 serving a hub
 * with the pre-receive hook installed: clones, pushes (including a merge commit, which the hook
 * audits), audited pulls, the CLI's clone/sync, and a forged push the hook refuses.
 */
class SyncDaemonTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final ActorName BOB = ActorName.of("bob");
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    private Process daemon;

    @AfterEach
    void stop() throws Exception {
        if (daemon != null) {
            daemon.destroy();
            daemon.waitFor();
        }
    }

    @Test
    void twoAgentsSyncThroughAHookedGitDaemonAndTheHubAuditsClean() throws Exception {
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path hub = dir.resolve("srv").resolve("hub.git");
        try (Store s = Store.initializer(hub).home(home).actor(ALICE).options(OPTIONS).create()) {
            s.begin(ALICE).addKey(BOB, home.generateKey(BOB, "bob@example.org"), KeyRole.AGENT).commit();
        }
        assertThat(Run.of("hooks", "install", "--store", hub.toString()).code()).isZero();
        String url = serve(dir.resolve("srv")) + "/hub.git";

        Path a = dir.resolve("a.git");
        Path b = dir.resolve("b.git");
        assertThat(Replication.cloneStore(url, a, OPTIONS, NONE)).isInstanceOf(PullResult.FastForward.class);
        Run cloned = Run.of("clone", url, "--store", b.toString(), "--home", home.dir().toString());
        assertThat(cloned.code()).as(cloned.err()).isZero();
        assertThat(cloned.out()).startsWith("fast-forward (new)..");

        try (Store s = Store.open(a, home, OPTIONS)) {
            assertFact(s, ALICE, "x", "Written by alice on replica a.");
            assertThat(s.replication().push("origin", NONE)).isInstanceOf(PushResult.Pushed.class);
        }
        try (Store s = Store.open(b, home, OPTIONS)) {
            assertFact(s, BOB, "y", "Written by bob on replica b.");
        }
        Run sync = Run.of("sync", "--store", b.toString(), "--home", home.dir().toString(), "--actor", "bob");
        assertThat(sync.code()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("merged ").contains("pushed ");
        try (Store s = Store.open(a, home, OPTIONS)) {
            assertThat(s.replication().pullAs("origin", ALICE, NONE)).isInstanceOf(PullResult.FastForward.class);
            assertThat(s.read(FactId.of("y"), s.head())).isInstanceOf(FactRead.Found.class);
        }
        assertThat(head(a)).isEqualTo(head(hub)).isEqualTo(head(b));
        try (Auditor au = Auditor.open(hub)) {
            assertThat(au.audit(AuditProgress.none()).violations()).isEmpty();
        }
        assertThat(GitCli.git(hub, "fsck", "--strict").exitCode()).isZero();
    }

    @Test
    void theHubsHookRefusesAForgedPushAndAPullAfterwardsAdoptsNothingNew() throws Exception {
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path hub = dir.resolve("srv").resolve("hub.git");
        try (Store s = Store.initializer(hub).home(home).actor(ALICE).options(OPTIONS).create()) {
            assertFact(s, ALICE, "x", "Written by alice on the hub.");
        }
        assertThat(Run.of("hooks", "install", "--store", hub.toString()).code()).isZero();
        String url = serve(dir.resolve("srv")) + "/hub.git";
        Path a = dir.resolve("a.git");
        Replication.cloneStore(url, a, OPTIONS, NONE);
        ObjectId before = head(hub);
        Forgery.unsignedCommitOnMain(a, "alice");
        try (Store s = Store.open(a, home, OPTIONS)) {
            assertThatThrownBy(() -> s.replication().push("origin", NONE)).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("remote-rejected").hasMessageContaining("unsigned");
        }
        assertThat(head(hub)).isEqualTo(before);
    }

    private String serve(Path base) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        daemon = new ProcessBuilder("git", "daemon", "--enable=receive-pack", "--export-all", "--reuseaddr",
                "--listen=127.0.0.1", "--port=" + port, "--base-path=" + base, base.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("daemon.log").toFile()).start();
        long deadline = System.currentTimeMillis() + 10_000;
        while (true) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                break;
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("git daemon did not start: " + Files.readString(dir.resolve("daemon.log")));
                }
                Thread.sleep(50);
            }
        }
        return "git://127.0.0.1:" + port;
    }

    private static ObjectId head(Path gitDir) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.resolve("refs/heads/main");
        }
    }

    private static void assertFact(Store s, ActorName who, String id, String body) throws Exception {
        var tx = s.begin(who);
        tx.assertFact(FactSpec.of(Kind.CLAIM, body).id(FactId.of(id)));
        tx.commit();
    }
}
