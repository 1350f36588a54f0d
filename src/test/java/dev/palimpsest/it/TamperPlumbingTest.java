package dev.palimpsest.it;

import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.cli.Main;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tampering that a trusted key signs, made with git's own plumbing and gpg: false dates (a
 * signature made years after the commit's date, an author time other than the committer time, a
 * +0500 zone, a commit older than its parent) and malformed trees (two entries of one name, a
 * zero-padded mode). Each is flagged by {@code palimpsest audit} (exit 3) with its rule and
 * refused by the pre-receive hook, leaving the origin unchanged; for the malformed trees,
 * {@code git fsck --strict} agrees with the audit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TamperPlumbingTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final FactId CLAIM = FactId.of("claim-1");

    @TempDir
    static Path tmp;

    private Path origin;
    private Path gnupg;
    private String aliceKey;
    private int clones;

    @BeforeAll
    void serveAStore() throws Exception {
        origin = tmp.resolve("origin.git");
        KeyHome home = new KeyHome(tmp.resolve("home"));
        try (Store s = Store.initializer(origin).home(home).actor(ALICE).options(StoreOptions.defaults().withFsync(false)).create()) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The harbour board approved the breakwater.").id(CLAIM));
            t.commit();
        }
        assertThat(cli("hooks", "install", "--store", origin.toString()).code).isZero();
        gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch", "--quiet", "--import",
                home.dir().resolve("keys").resolve("alice.sec.asc").toString())).ok();
        List<String> lines = GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch",
                "--with-colons", "--fingerprint", "--list-keys", "alice")).ok().stdoutLines();
        aliceKey = lines.stream().filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
        assertThat(fsck(origin).exitCode()).isZero();
        assertThat(cli("audit", "--store", origin.toString()).code).isZero();
    }

    @AfterAll
    void stopGpgAgent() {
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), "gpgconf", "--kill", "all");
    }

    @Test
    void aSignatureMadeYearsAfterTheCommitDateIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered(now + " +0000", now + " +0000", 2_051_222_400L);
        flaggedAndRefused(store, "signature-time");
    }

    @Test
    void anAuthorTimeOtherThanTheCommitterTimeIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered((now - 3_600) + " +0000", now + " +0000", null);
        flaggedAndRefused(store, "author-time");
    }

    @Test
    void aZoneOtherThanUtcIsFlaggedAndRefused() {
        long now = now();
        Path store = tampered(now + " +0500", now + " +0500", null);
        flaggedAndRefused(store, "time-zone");
    }

    @Test
    void aCommitOlderThanItsParentIsFlaggedAndRefused() {
        long before = now() - 3_600;
        Path store = tampered(before + " +0000", before + " +0000", before);
        flaggedAndRefused(store, "time-regression");
    }

    @Test
    void aTreeWithTwoEntriesOfOneNameIsFlaggedByAuditAndFsckAndRefused() {
        Path store = malformedTree("100644", true);
        assertThat(fsck(store).exitCode()).as(fsck(store).describe()).isNotZero();
        flaggedAndRefused(store, "malformed-object");
    }

    @Test
    void aZeroPaddedFileModeIsFlaggedByAuditAndFsckAndRefused() {
        Path store = malformedTree("0100644", false);
        assertThat(fsck(store).exitCode()).as(fsck(store).describe()).isNotZero();
        flaggedAndRefused(store, "malformed-object");
    }

    /** A bare clone whose main gained a signed commit asserting fact-x, dated as given. */
    private Path tampered(String authorDate, String committerDate, Long signedAt) {
        Path store = cloneBare();
        GitPlumbing git = new GitPlumbing(store, gnupg);
        FactId x = FactId.of("fact-x");
        String blob = git.blob(FactCodec.encode(new Fact(x, Kind.CLAIM, "Dated by hand.", null, List.of())));
        String tree = git.treeWith(git.treeOf("main"), StorePaths.factPath(Kind.CLAIM, x), "100644", blob, false);
        git.moveMain(git.commit(tree, head(store), "alice", authorDate, committerDate, trailers("assert", x), aliceKey,
                signedAt));
        return store;
    }

    /** A bare clone whose main gained a signed revision of claim-1 in a tree git's strict checks refuse. */
    private Path malformedTree(String mode, boolean duplicate) {
        Path store = cloneBare();
        GitPlumbing git = new GitPlumbing(store, gnupg);
        String blob = git.blob(FactCodec.encode(new Fact(CLAIM, Kind.CLAIM, "A second version, side by side.", null,
                List.of())));
        String tree = git.treeWith(git.treeOf("main"), StorePaths.factPath(Kind.CLAIM, CLAIM), mode, blob, duplicate);
        String now = now() + " +0000";
        git.moveMain(git.commit(tree, head(store), "alice", now, now, trailers("revise", CLAIM), aliceKey, null));
        return store;
    }

    /** The audit flags only the new commit, with exactly {@code rule}; the hook refuses the push. */
    private void flaggedAndRefused(Path store, String rule) {
        Cli audit = cli("audit", "--store", store.toString(), "--json");
        assertThat(audit.code).as(audit.out + audit.err).isEqualTo(Main.AUDIT_VIOLATIONS);
        Set<String> rules = new TreeSet<>();
        try {
            JsonNode report = new ObjectMapper().readTree(audit.out);
            report.get("violations").forEach(v -> rules.add(v.get("rule").asText()));
        } catch (java.io.IOException e) {
            throw new AssertionError(audit.out, e);
        }
        assertThat(rules).as(audit.out).containsExactly(rule);

        Set<String> before = TestStores.durableState(origin);
        GitCli.Result push = GitCli.git(store, "push", "origin", "main");
        assertThat(push.exitCode()).as(push.describe()).isNotZero();
        assertThat(push.stderr()).contains("pre-receive hook declined").contains("[" + rule + "]");
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    private Path cloneBare() {
        Path store = tmp.resolve("tampered-" + (++clones) + ".git");
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", "--bare", origin.toString(),
                store.toString())).ok();
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

    private static String trailers(String verb, FactId fact) {
        return "hand-made commit\n\nPalimpsest-Actor: alice\nPalimpsest-Op: " + verb + "\nPalimpsest-Fact: "
                + fact.value() + "\n";
    }

    private record Cli(int code, String out, String err) {}

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
