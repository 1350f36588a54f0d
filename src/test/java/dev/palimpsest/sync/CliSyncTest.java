package dev.palimpsest.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.cli.Run;
import dev.palimpsest.testing.Forgery;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replication commands' output, JSON and exit codes. */
class CliSyncTest {
    @TempDir
    Path dir;

    @Test
    void remotesAreManagedAndListedAsTextAndJson() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        String home = rs.home.dir().toString();
        assertThat(Run.inStore(a.toString(), home, "remote", "add", "peer", "/srv/peer.git").out())
                .isEqualTo("added remote peer /srv/peer.git\n");
        assertThat(Run.inStore(a.toString(), home, "remote", "list").out())
                .isEqualTo("origin\t" + rs.hub + "\npeer\t/srv/peer.git\n");
        Run json = Run.inStore(a.toString(), home, "remote", "list", "--json");
        assertThat(json.json().get(1).get("name").asText()).isEqualTo("peer");
        assertThat(Run.inStore(a.toString(), home, "remote", "add", "peer", "/x.git").code()).isEqualTo(7);
        assertThat(Run.inStore(a.toString(), home, "remote", "add", "bad/name", "/x.git").code()).isEqualTo(5);
        assertThat(Run.inStore(a.toString(), home, "remote", "remove", "peer").code()).isZero();
        assertThat(Run.inStore(a.toString(), home, "remote", "remove", "peer").code()).isEqualTo(4);
        assertThat(Run.of("clone", rs.hub.toString()).code()).isEqualTo(2);
        assertThat(Run.inStore(a.toString(), home, "pull").code()).isEqualTo(2);
    }

    @Test
    void aRefusedPullExitsThreeListingEveryViolationAndAdoptsNothing() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        ObjectId before = Replicas.head(a);
        ObjectId forged = Forgery.unsignedCommitOnMain(rs.hub, "bob");
        Run r = Run.inStore(a.toString(), rs.home.dir().toString(), "pull", "--actor", "bob");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).contains(forged.name()).contains("[unsigned]").contains("refused: nothing adopted");
        Run j = Run.inStore(a.toString(), rs.home.dir().toString(), "pull", "--actor", "bob", "--json");
        assertThat(j.code()).isEqualTo(3);
        assertThat(j.json().get("result").asText()).isEqualTo("refused");
        assertThat(j.json().get("violations").findValuesAsText("rule")).contains("unsigned", "bad-trailers");
        assertThat(Replicas.head(a)).isEqualTo(before);
        Run up = Run.inStore(a.toString(), rs.home.dir().toString(), "push");
        assertThat(up.code()).as(up.err()).isEqualTo(7);
    }

    @Test
    void aRemoteWithNoRepositoryAtItsUrlIsNotFoundAndNothingChanges() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        String home = rs.home.dir().toString();
        ObjectId before = Replicas.head(a);
        String gone = dir.resolve("gone.git").toString();
        assertThat(Run.inStore(a.toString(), home, "remote", "add", "gone", gone).code()).isZero();
        for (String[] args : new String[][] {{"pull", "--actor", "bob", "gone"}, {"push", "gone"},
                {"sync", "--actor", "bob", "gone"}}) {
            Run r = Run.inStore(a.toString(), home, args);
            assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(4);
            assertThat(r.err()).isEqualTo("error: remote 'gone' (" + gone + ") has no git repository at its URL\n");
        }
        Run j = Run.inStore(a.toString(), home, "pull", "--actor", "bob", "gone", "--json");
        assertThat(j.json().get("error").get("kind").asText()).isEqualTo("not-found");
        assertThat(Replicas.head(a)).isEqualTo(before);
        assertThat(Replicas.git(a, "for-each-ref", "--format=%(refname)").output()).doesNotContain("gone");
        Path clone = dir.resolve("c");
        Run c = Run.of("clone", gone, "--store", clone.toString());
        assertThat(c.code()).as(c.err()).isEqualTo(4);
        assertThat(c.err()).isEqualTo("error: remote 'origin' (" + gone + ") has no git repository at its URL\n");
        assertThat(clone).doesNotExist();
    }
}
