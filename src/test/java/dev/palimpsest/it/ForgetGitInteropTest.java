package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that sealed, forgot and expired facts is checked with the real {@code git} and
 * {@code gpg}: {@code git show} of a sealed version shows ciphertext, {@code fsck --strict} finds
 * nothing, every commit verifies (signatures cover the ciphertext), and the audit stays clean
 * after {@code git gc}.
 */
class ForgetGitInteropTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final String SECRET = "Patient Zelda Quixote lives at 12 Harbour Lane";

    @TempDir
    Path tmp;
    private Path gnupg;

    @AfterEach
    void stopAgent() {
        if (gnupg != null) {
            GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), "gpgconf", "--kill", "all");
        }
    }

    @Test
    void forgetCommitsAreValidSignedGitCommitsAndGitShowsOnlyCiphertext() throws Exception {
        Path dir = tmp.resolve("forget.git");
        CommitId written;
        try (Store s = Store.initializer(dir).home(new KeyHome(tmp.resolve("home"))).actor(ALICE).create()) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET).id(FactId.of("a")).asSensitive());
            written = tx.commit().id();
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "needs a ramp").id(FactId.of("b"))
                    .retainedUntil(Instant.parse("2026-01-01T00:00:00Z"))
                    .refs(RefSpec.cites(FactId.of("a")).withQuote("Zelda Quixote lives at")));
            tx.commit();
            s.erasure().forget(ALICE, List.of(FactId.of("a")), "erasure request", false);
            s.erasure().expire(ALICE, Instant.parse("2026-02-01T00:00:00Z"), false);
        }
        String shown = GitCli.git(dir, "show", written.hex() + ":" + StorePaths.factPath(Kind.of("note"), FactId.of("a")))
                .ok().stdout();
        assertThat(shown).contains("sealed:").contains("nonce:").doesNotContain("Zelda");

        GitCli.Result fsck = GitCli.git(dir, "fsck", "--strict", "--full", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
        assertThat((fsck.stdout() + fsck.stderr()).lines()
                .filter(l -> l.matches("(?i).*(error|warning|missing|corrupt|broken|bad|invalid).*"))).isEmpty();

        gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        GitCli.run(env, GitCli.git(dir, "show", "main:keys/alice.asc").ok().stdoutBytes(), 60,
                List.of("gpg", "--batch", "--import")).ok();
        List<String> commits = GitCli.git(dir, "rev-list", "main").ok().stdoutLines();
        assertThat(commits).hasSize(5);
        for (String c : commits) {
            GitCli.Result v = GitCli.git(dir, env, "verify-commit", c);
            assertThat(v.exitCode()).as(v.describe()).isZero();
        }
        List<String> ops = GitCli.git(dir, "log", "--format=%(trailers:key=Palimpsest-Op,valueonly)", "main").ok()
                .stdoutLines().stream().filter(l -> !l.isBlank()).toList();
        assertThat(ops).containsExactly("forget", "forget", "assert", "assert", "init");

        GitCli.git(dir, "gc", "--prune=now", "--quiet").ok();
        try (Auditor a = Auditor.open(dir)) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }
}
