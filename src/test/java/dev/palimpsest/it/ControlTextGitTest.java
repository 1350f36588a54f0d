package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.cli.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text holding NUL, ESC, BEL, DEL, a C1 control and a bidirectional override, written through the
 * CLI as a claim, a revision and a retraction reason: every fact and record reads back exactly,
 * while no commit object carries any of them raw, so the real {@code git fsck --strict} and the
 * audit both find the store clean.
 */
class ControlTextGitTest {
    private static final String EVIL = "x\u0000y\u001b[31m\u0007\u009b1m\u007f\u202eend";

    @TempDir
    Path tmp;

    @Test
    void controlCharactersAreStoredExactlyAndNeverReachACommitObjectRaw() throws Exception {
        String store = tmp.resolve("s.git").toString();
        String home = tmp.resolve("home").toString();
        ok(store, home, "init", "--actor", "alice");
        ok(store, home, "assert", "--actor", "alice", "--id", "src", "--kind", "source", "--body", "the source");
        ok(store, home, "claim", "--actor", "alice", "--subject", "gi\u0000na", "--predicate", "likes", "--object",
                EVIL, "--source", "src", "--id", "c1");
        ok(store, home, "assert", "--actor", "alice", "--id", "f1", "--body", "first");
        ok(store, home, "revise", "--actor", "alice", "f1", "--body", EVIL);
        ok(store, home, "retract", "--actor", "alice", "f1", "--reason", EVIL, "--no-cascade");

        assertThat(ok(store, home, "show", "c1", "--json").json().get("body").asText())
                .isEqualTo("gi\u0000na likes " + EVIL);
        assertThat(ok(store, home, "current", "GI\u0000NA", "--json").json().get(0).get("object").asText())
                .isEqualTo(EVIL);
        assertThat(ok(store, home, "show", "f1", "--fallback", "--json").json().get("reason").asText()).isEqualTo(EVIL);

        Path git = Path.of(store);
        for (String commit : GitCli.git(git, "rev-list", "main").ok().stdoutLines()) {
            byte[] raw = GitCli.git(git, "cat-file", "commit", commit).ok().stdoutBytes();
            for (byte b : raw) {
                assertThat(b == '\n' || (b >= 0x20 && b != 0x7f)).as("byte %d of commit %s", b, commit).isTrue();
            }
            String text = new String(raw, StandardCharsets.UTF_8);
            assertThat(text.chars()).as(commit).noneMatch(c -> (c >= 0x80 && c <= 0x9f) || c == 0x202e);
        }
        assertThat(GitCli.git(git, "log", "-1", "--format=%s", "main").ok().stdout())
                .isEqualTo("retract f1: x\\x00y\\x1b[31m\\x07\\x9b1m\\x7f\\u202eend\n");
        GitCli.Result fsck = GitCli.git(git, "fsck", "--strict", "--full", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
        assertThat(fsck.stdout() + fsck.stderr()).as(fsck.describe()).doesNotContain("error", "warning");
        assertThat(ok(store, home, "audit", "--json").json().get("clean").asBoolean()).isTrue();
    }

    private static Run ok(String store, String home, String... args) {
        Run r = Run.inStore(store, home, args);
        assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isZero();
        return r;
    }
}
