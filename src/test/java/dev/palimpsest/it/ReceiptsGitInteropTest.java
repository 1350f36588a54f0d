package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store built by the receipts path (ingest, entailment, a cleanup cascade) is checked with the
 * real {@code git} and {@code gpg}: fsck finds nothing, every commit verifies, the cascade's
 * trailers account for every retraction, and a record reads back through {@code git show}.
 */
class ReceiptsGitInteropTest {
    private static final ActorName CURATOR = ActorName.of("curator");

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
    void aCascadeCommitIsAValidSignedGitCommitWhoseTrailersAccountForEveryRetraction() throws Exception {
        Path dir = tmp.resolve("receipts.git");
        CommitResult cascade;
        try (Store s = Store.initializer(dir).home(new KeyHome(tmp.resolve("home"))).actor(CURATOR).create()) {
            s.receipts().ingest(CURATOR, Files.readAllBytes(Path.of("examples/receipts-corpus.yaml")), false);
            s.receipts().entail(CURATOR);
            CleanupPlan plan = s.receipts().planRetractSource(
                    List.of(FactId.of("pmid-39973430"), FactId.of("pmid-40057077")), "retracted by the journal");
            cascade = s.receipts().apply(CURATOR, plan);
            assertThat(cascade.retracted()).hasSizeGreaterThan(plan.roots().size());
        }
        GitCli.Result fsck = GitCli.git(dir, "fsck", "--strict", "--full", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
        assertThat((fsck.stdout() + fsck.stderr()).lines()
                .filter(l -> l.matches("(?i).*(error|warning|missing|corrupt|broken|bad|invalid).*"))).isEmpty();

        gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        GitCli.run(env, GitCli.git(dir, "show", "main:keys/curator.asc").ok().stdoutBytes(), 60,
                List.of("gpg", "--batch", "--import")).ok();
        for (String c : GitCli.git(dir, "rev-list", "main").ok().stdoutLines()) {
            GitCli.Result v = GitCli.git(dir, env, "verify-commit", c);
            assertThat(v.exitCode()).as(v.describe()).isZero();
        }

        String head = cascade.id().hex();
        List<String> facts = GitCli.git(dir, "log", "-1", "--format=%(trailers:key=Palimpsest-Fact,valueonly)", head)
                .ok().stdoutLines().stream().filter(l -> !l.isBlank()).toList();
        List<String> expected = new java.util.ArrayList<>();
        cascade.retracted().forEach(id -> expected.add(id.value()));
        cascade.written().forEach(id -> expected.add(id.value()));
        assertThat(facts).containsExactlyInAnyOrderElementsOf(expected);
        FactId edge = cascade.retracted().stream().filter(id -> id.value().startsWith("e-")).findFirst().orElseThrow();
        String record = GitCli.git(dir, "show", "main:" + StorePaths.retractionPath(edge)).ok().stdout();
        assertThat(record).startsWith("id: \"" + edge.value() + "\"\n")
                .contains("reason: \"cascade of retract-source pmid-39973430, pmid-40057077 (retracted by the journal)");
        List<String> changed = GitCli.git(dir, "diff-tree", "-r", "--name-status", "--no-commit-id", head + "^", head)
                .ok().stdoutLines();
        assertThat(changed).contains("A\t" + StorePaths.retractionPath(edge));
    }
}
