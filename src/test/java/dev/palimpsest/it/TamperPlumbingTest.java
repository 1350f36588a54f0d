package dev.palimpsest.it;

import static dev.palimpsest.it.HookedOrigin.trailers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.cli.Run;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tampering that a trusted key signs, made with git's own plumbing and gpg: false dates (a
 * signature made years after the commit's date, an author time other than the committer time, a
 * +0500 zone, a commit older than its parent), malformed trees (two entries of one name, a
 * zero-padded mode) and malformed commits (a NUL in the message, a zero-padded date). Each is flagged
 * by {@code palimpsest audit} (exit 3) with its rule and refused by the pre-receive hook, leaving the
 * origin unchanged; for the malformed objects, {@code git fsck --strict} agrees with the audit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TamperPlumbingTest {
    private static final FactId CLAIM = FactId.of("claim-1");

    @TempDir
    static Path tmp;

    private HookedOrigin origin;

    @BeforeAll
    void serveAStore() throws Exception {
        origin = HookedOrigin.serve(tmp,
                FactSpec.of(Kind.CLAIM, "The harbour board approved the breakwater.").id(CLAIM));
        assertThat(fsck(origin.dir()).exitCode()).isZero();
        assertThat(Run.of("audit", "--store", origin.dir().toString()).code()).isZero();
    }

    @AfterAll
    void stopGpgAgent() {
        origin.close();
    }

    @Test
    void aSignatureMadeYearsAfterTheCommitDateIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered(now + " +0000", now + " +0000", 2_051_222_400L);
        origin.flaggedAndRefused(store, "signature-time");
    }

    @Test
    void anAuthorTimeOtherThanTheCommitterTimeIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered((now - 3_600) + " +0000", now + " +0000", null);
        origin.flaggedAndRefused(store, "author-time");
    }

    @Test
    void aZoneOtherThanUtcIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered(now + " +0500", now + " +0500", null);
        origin.flaggedAndRefused(store, "time-zone");
    }

    @Test
    void aCommitOlderThanItsParentIsFlaggedAndRefused() {
        long before = now() - 3_600;
        Path store = tampered(before + " +0000", before + " +0000", before);
        origin.flaggedAndRefused(store, "time-regression");
    }

    @Test
    void aTreeWithTwoEntriesOfOneNameIsFlaggedByAuditAndFsckAndRefused() {
        Path store = malformedTree("100644", true);
        assertThat(fsck(store).exitCode()).as(fsck(store).describe()).isNotZero();
        origin.flaggedAndRefused(store, "malformed-object");
    }

    @Test
    void aZeroPaddedFileModeIsFlaggedByAuditAndFsckAndRefused() {
        Path store = malformedTree("0100644", false);
        assertThat(fsck(store).exitCode()).as(fsck(store).describe()).isNotZero();
        origin.flaggedAndRefused(store, "malformed-object");
    }

    @Test
    void aNulInACommitMessageIsFlaggedByAuditAndFsckAndRefused() {
        long now = now();
        Path store = tampered(now + " +0000", now + " +0000", null, "assert fact-x: a\u0000b\n\n");
        GitCli.Result fsck = fsck(store);
        assertThat(fsck.exitCode()).as(fsck.describe()).isNotZero();
        assertThat(fsck.stdout() + fsck.stderr()).contains("nulInCommit");
        JsonNode v = origin.flaggedAndRefused(store, "malformed-object");
        assertThat(v.get("message").asText()).contains("nulInCommit");
    }

    @Test
    void aZeroPaddedCommitDateIsFlaggedByAuditAndFsckAndRefused() {
        long now = now();
        Path store = tampered("0" + now + " +0000", "0" + now + " +0000", now);
        assertThat(fsck(store).stdout() + fsck(store).stderr()).contains("zeroPaddedDate");
        origin.flaggedAndRefused(store, "malformed-object");
    }

    /** A bare clone whose main gained a signed commit asserting fact-x, dated as given. */
    private Path tampered(String authorDate, String committerDate, Long signedAt) {
        return tampered(authorDate, committerDate, signedAt, "");
    }

    /** {@link #tampered(String, String, Long)} with {@code subject} before the commit message's trailers. */
    private Path tampered(String authorDate, String committerDate, Long signedAt, String subject) {
        Path store = origin.cloneBare();
        GitPlumbing git = new GitPlumbing(store, origin.gnupg());
        FactId x = FactId.of("fact-x");
        String blob = git.blob(FactCodec.encode(new Fact(x, Kind.CLAIM, "Dated by hand.", null, List.of())));
        String tree = git.treeWith(git.treeOf("main"), StorePaths.factPath(Kind.CLAIM, x), "100644", blob, false);
        git.moveMain(git.commit(tree, head(store), "alice", authorDate, committerDate,
                subject + trailers("assert", x.value()), origin.actorKey(), signedAt));
        return store;
    }

    /** A bare clone whose main gained a signed revision of claim-1 in a tree git's strict checks refuse. */
    private Path malformedTree(String mode, boolean duplicate) {
        Path store = origin.cloneBare();
        GitPlumbing git = new GitPlumbing(store, origin.gnupg());
        String blob = git.blob(FactCodec.encode(new Fact(CLAIM, Kind.CLAIM, "A second version, side by side.", null,
                List.of())));
        String tree = git.treeWith(git.treeOf("main"), StorePaths.factPath(Kind.CLAIM, CLAIM), mode, blob, duplicate);
        String now = now() + " +0000";
        git.moveMain(git.commit(tree, head(store), "alice", now, now, trailers("revise", CLAIM.value()),
                origin.actorKey(), null));
        return store;
    }

    private static String head(Path store) {
        return GitCli.git(store, "rev-parse", "main").ok().stdout().strip();
    }

    private static GitCli.Result fsck(Path store) {
        return GitCli.git(store, "fsck", "--strict", "--no-progress");
    }

    private static long now() {
        return Instant.now().getEpochSecond();
    }
}
