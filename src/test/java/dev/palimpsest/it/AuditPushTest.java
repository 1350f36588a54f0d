package dev.palimpsest.it;

import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.cli.Main;
import dev.palimpsest.demo.Demo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store served as a git remote with the pre-receive hook installed, exercised with the real git
 * and gpg: plain git verifies every commit (of the demo store, and of a store whose keys were added
 * and revoked) with the keys exported from history; each kind of tampering made with
 * git commit is flagged by {@code palimpsest audit} and refused on push, leaving the origin
 * unchanged; commits written with palimpsest in a clone are accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditPushTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final ActorName BOB = ActorName.of("bob");
    private static final ActorName CAROL = ActorName.of("carol");
    private static final FactId SRC = FactId.of("minutes-1887");
    private static final FactId CLAIM = FactId.of("claim-vote");
    private static final String QUOTE = "approved by seven votes to two";

    @TempDir
    static Path tmp;

    private Path origin;
    private KeyHome home;
    private Path gnupg;
    private final List<Path> gnupgHomes = new ArrayList<>();
    private String eveFingerprint;
    private FactVersion srcVersion;
    private int clones;

    @BeforeAll
    void serveAStore() throws Exception {
        origin = tmp.resolve("origin.git");
        home = new KeyHome(tmp.resolve("home"));
        try (Store s = Store.initializer(origin)
                .home(home).actor(ALICE).options(StoreOptions.defaults().withFsync(false)).create()) {
            s.begin(ALICE).addKey(BOB, home.generateKey(BOB), KeyRole.AGENT).commit();
            Transaction t = s.begin(BOB);
            t.assertFact(FactSpec.of(Kind.SOURCE, "Minutes of the harbour board, 1887: the breakwater was " + QUOTE + ".")
                    .id(SRC));
            CommitId c = t.commit().id();
            srcVersion = s.factExistsAt(SRC, c).version();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(CLAIM)
                    .refs(List.of(RefSpec.cites(SRC).at(c).withQuote(QUOTE))));
            t.commit();
            s.begin(ALICE).addKey(CAROL, home.generateKey(CAROL), KeyRole.HUMAN).commit();
            t = s.begin(CAROL);
            t.assertFact(FactSpec.of(Kind.CLAIM, "Carol was here before her key was revoked.")
                    .id(FactId.of("carol-note")));
            t.commit();
            s.begin(ALICE).revokeKey(CAROL).commit();
        }
        assertThat(cli("hooks", "install", "--store", origin.toString()).code).isZero();
        gnupg = newGnupgHome("signers");
        for (ActorName a : List.of(ALICE, CAROL)) {
            gpg(gnupg, null, "--import", home.dir().resolve("keys").resolve(a.value() + ".sec.asc").toString());
        }
        gpg(gnupg, null, "--passphrase", "", "--quick-gen-key", "eve <eve@example.org>", "ed25519", "sign", "never");
        eveFingerprint = fingerprints(gnupg, "eve");
    }

    @AfterAll
    void stopGpgAgents() {
        for (Path h : gnupgHomes) {
            GitCli.run(Map.of("GNUPGHOME", h.toString()), "gpgconf", "--kill", "all");
        }
    }

    @Test
    void plainGitVerifiesEveryCommitWithTheKeysExportedFromHistory() throws Exception {
        assertGitVerifiesEveryCommit(origin, "verify", 7);
    }

    @Test
    void theDemoStorePassesTheAuditAndPlainGitVerifiesEveryCommit() throws Exception {
        Path demo = tmp.resolve("demo");
        new Demo(new PrintWriter(java.io.Writer.nullWriter())).run(demo);
        Path store = demo.resolve("store.git");
        Cli audit = cli("audit", "--store", store.toString());
        assertThat(audit.code).as(audit.out).isZero();
        assertThat(audit.out).endsWith("clean\n");
        assertGitVerifiesEveryCommit(store, "verify-demo", 6);
    }

    /** Imports every key ever added (as README shows), then git verify-commit and git log --show-signature. */
    private void assertGitVerifiesEveryCommit(Path store, String gnupgName, int commits) throws Exception {
        Path verify = newGnupgHome(gnupgName);
        GitCli.Result keys = GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("sh", "-c",
                "git --git-dir=\"$0\" log --format= -p --diff-filter=A -- 'keys/*.asc' | sed -n 's/^+//p'"
                        + " | grep -v '^++ '", store.toString())).ok();
        gpg(verify, keys.stdoutBytes(), "--import");
        Map<String, String> env = Map.of("GNUPGHOME", verify.toString());
        List<String> revs = GitCli.git(store, "rev-list", "main").ok().stdoutLines();
        assertThat(revs).hasSize(commits);
        for (String c : revs) {
            GitCli.Result v = GitCli.git(store, env, "verify-commit", c);
            assertThat(v.exitCode()).as(v.describe()).isZero();
        }
        GitCli.Result log = GitCli.git(store, env, "log", "--show-signature", "main").ok();
        assertThat(log.stdout().split("Good signature from", -1)).hasSize(revs.size() + 1);
        assertThat(GitCli.git(store, env, "log", "--format=%G?", "main").ok().stdoutLines())
                .hasSize(revs.size()).allMatch(s -> s.equals("G") || s.equals("U"));
    }

    @Test
    void anUnsignedCommitIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        writeFact(work, "fact-unsigned", "Written with git and not signed.");
        commit(work, "alice", null, trailers("alice", "assert", "fact-unsigned"));
        flaggedAndRefused(work, "unsigned");
    }

    @Test
    void aCommitSignedByAGpgKeyNotInKeysIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        writeFact(work, "fact-eve", "Signed by a key the store never trusted.");
        commit(work, "alice", eveFingerprint, trailers("alice", "assert", "fact-eve"));
        flaggedAndRefused(work, "untrusted-signer");
    }

    @Test
    void aFactWhosePinWasRemovedByHandIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, CLAIM));
        List<String> kept = Files.readAllLines(file).stream()
                .filter(l -> !l.startsWith("  commit: ") && !l.startsWith("  blob: ")).toList();
        Files.write(file, kept);
        commit(work, "alice", aliceFingerprint(), trailers("alice", "revise", CLAIM.value()));
        flaggedAndRefused(work, "refs-rewritten", "unpinned-ref");
    }

    @Test
    void aFactWhoseQuoteWasChangedByHandIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, CLAIM));
        String yaml = Files.readString(file);
        assertThat(yaml).contains(QUOTE);
        Files.writeString(file, yaml.replace(QUOTE, "approved unanimously by all"));
        commit(work, "alice", aliceFingerprint(), trailers("alice", "revise", CLAIM.value()));
        flaggedAndRefused(work, "refs-rewritten", "quote-not-found");
    }

    @Test
    void aCommitByARevokedKeyIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        writeFact(work, "carol-late", "Carol writes after her key was revoked.");
        commit(work, "carol", fingerprints(gnupg, "carol"), trailers("carol", "assert", "carol-late"));
        flaggedAndRefused(work, "untrusted-signer");
    }

    @Test
    void trailersThatLieAboutTheChangeAreFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        writeFact(work, "fact-new", "A new fact the trailers call a revision of another.");
        commit(work, "alice", aliceFingerprint(), trailers("alice", "revise", CLAIM.value()));
        flaggedAndRefused(work, "trailer-mismatch", "unexplained-change");
    }

    @Test
    void aRetractionRecordWithoutTheFileRemovalIsFlaggedAndRefused() throws Exception {
        Path work = cloneWork();
        Path record = work.resolve(StorePaths.retractionPath(SRC));
        Files.createDirectories(record.getParent());
        Files.write(record, FactCodec.encode(new RetractionRecord(srcVersion, "a retraction that removes nothing",
                ALICE)));
        commit(work, "alice", aliceFingerprint(), trailers("alice", "retract", SRC.value()));
        flaggedAndRefused(work, "retraction-inconsistent", "trailer-mismatch");
    }

    @Test
    void rewritingDeletingOrAddingOtherRefsIsRefused() throws Exception {
        Path work = cloneWork();
        Set<String> before = TestStores.durableState(origin);
        git(work, "reset", "-q", "--hard", "HEAD~1").ok();
        GitCli.Result force = git(work, "push", "--force", "origin", "main");
        assertThat(force.exitCode()).as(force.describe()).isNotZero();
        assertThat(force.stderr()).contains("main is never rewritten");
        GitCli.Result delete = git(work, "push", "origin", ":main");
        assertThat(delete.exitCode()).as(delete.describe()).isNotZero();
        assertThat(delete.stderr()).contains("cannot be deleted");
        GitCli.Result branch = git(work, "push", "origin", "HEAD:refs/heads/side");
        assertThat(branch.exitCode()).as(branch.describe()).isNotZero();
        assertThat(branch.stderr()).contains("refs/heads/main only");
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    @Test
    void commitsWrittenWithPalimpsestInACloneArePushedAndAccepted() throws Exception {
        Path served = tmp.resolve("served.git");
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", "--bare", origin.toString(),
                served.toString())).ok();
        assertThat(cli("hooks", "install", "--store", served.toString()).code).isZero();
        Path clone = tmp.resolve("writer.git");
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", "--bare", served.toString(),
                clone.toString())).ok();
        try (Store s = Store.open(clone, home, StoreOptions.defaults().withFsync(false))) {
            Transaction t = s.begin(BOB);
            t.assertFact(FactSpec.of(Kind.CLAIM, "Written in a clone, citing the minutes.").id(FactId.of("clone-claim"))
                    .refs(List.of(RefSpec.cites(SRC).at(srcVersion.commit()).withQuote("seven votes to two"))));
            t.commit();
            s.begin(ALICE).revise(CLAIM, "The vote was close: seven to two.", List.of()).commit();
        }
        GitCli.Result push = GitCli.git(clone, "push", "origin", "main");
        assertThat(push.exitCode()).as(push.describe()).isZero();
        assertThat(push.stderr()).contains("clean");
        assertThat(GitCli.git(served, "rev-parse", "main").ok().stdout())
                .isEqualTo(GitCli.git(clone, "rev-parse", "main").ok().stdout());
        assertThat(cli("audit", "--store", served.toString()).code).isZero();
    }

    @Test
    void aWholeStorePushedIntoAnEmptyRepositoryIsAuditedFromGenesis() throws Exception {
        Path empty = tmp.resolve("empty.git");
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "init", "-q", "--bare", empty.toString())).ok();
        assertThat(cli("hooks", "install", "--store", empty.toString()).code).isZero();
        GitCli.Result push = GitCli.git(origin, "push", empty.toString(), "main");
        assertThat(push.exitCode()).as(push.describe()).isZero();
        assertThat(push.stderr()).contains("audited 7 commits").contains("clean");
        assertThat(GitCli.git(empty, "rev-parse", "refs/heads/main").ok().stdout())
                .isEqualTo(GitCli.git(origin, "rev-parse", "main").ok().stdout());
    }

    /** The clone's new commit is flagged by audit with exactly these rules, and the push is refused. */
    private void flaggedAndRefused(Path work, String... rules) throws Exception {
        Cli audit = cli("audit", "--store", work.resolve(".git").toString(), "--range", "origin/main..main", "--json");
        assertThat(audit.code).as(audit.out + audit.err).isEqualTo(Main.AUDIT_VIOLATIONS);
        JsonNode report = new ObjectMapper().readTree(audit.out);
        assertThat(report.get("clean").asBoolean()).isFalse();
        assertThat(report.get("commits").asInt()).isEqualTo(1);
        Set<String> found = new java.util.TreeSet<>();
        report.get("violations").forEach(v -> found.add(v.get("rule").asText()));
        assertThat(found).as(audit.out).containsExactlyInAnyOrder(rules);

        Set<String> before = TestStores.durableState(origin);
        GitCli.Result push = git(work, "push", "origin", "main");
        assertThat(push.exitCode()).as(push.describe()).isNotZero();
        assertThat(push.stderr()).contains("pre-receive hook declined").contains("fail the audit");
        for (String rule : rules) {
            assertThat(push.stderr()).contains("[" + rule + "]");
        }
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    private Path cloneWork() {
        Path work = tmp.resolve("work-" + (++clones));
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", origin.toString(),
                work.toString())).ok();
        return work;
    }

    private void writeFact(Path work, String id, String body) throws IOException {
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, FactId.of(id)));
        Files.createDirectories(file.getParent());
        Files.write(file, FactCodec.encode(new Fact(FactId.of(id), Kind.CLAIM, body, null, List.of())));
    }

    private static String trailers(String actor, String verb, String fact) {
        return "hand-made commit\n\nPalimpsest-Actor: " + actor + "\nPalimpsest-Op: " + verb
                + "\nPalimpsest-Fact: " + fact + "\n";
    }

    /** {@code git commit -a} of every change as {@code actor}, signed with {@code key} (null: unsigned). */
    private void commit(Path work, String actor, String key, String message) {
        git(work, "add", "-A").ok();
        List<String> args = new ArrayList<>(List.of("-c", "commit.gpgsign=false"));
        if (key != null) {
            args.addAll(List.of("-c", "user.signingkey=" + key));
        }
        args.addAll(List.of("commit", "-q", "-m", message));
        if (key != null) {
            args.add("-S");
        }
        Map<String, String> env = new HashMap<>();
        env.put("GIT_AUTHOR_NAME", actor);
        env.put("GIT_AUTHOR_EMAIL", actor + "@palimpsest.local");
        env.put("GIT_COMMITTER_NAME", actor);
        env.put("GIT_COMMITTER_EMAIL", actor + "@palimpsest.local");
        GitCli.Result r = git(work, env, args.toArray(String[]::new));
        r.ok();
    }

    private GitCli.Result git(Path work, String... args) {
        return git(work, Map.of(), args);
    }

    private GitCli.Result git(Path work, Map<String, String> extra, String... args) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("GNUPGHOME", gnupg.toString());
        List<String> cmd = new ArrayList<>(List.of("git", "-C", work.toString()));
        cmd.addAll(List.of(args));
        return GitCli.run(GitCli.gitEnv(env), null, 120, cmd);
    }

    private String aliceFingerprint() {
        return fingerprints(gnupg, "alice");
    }

    /** The fingerprint of the key whose user id contains {@code who}. */
    private static String fingerprints(Path gnupgHome, String who) {
        List<String> lines = GitCli.run(Map.of("GNUPGHOME", gnupgHome.toString()), null, 60,
                List.of("gpg", "--batch", "--with-colons", "--fingerprint", "--list-keys", who)).ok().stdoutLines();
        return lines.stream().filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
    }

    private static void gpg(Path gnupgHome, byte[] stdin, String... args) {
        List<String> cmd = new ArrayList<>(List.of("gpg", "--batch", "--quiet"));
        cmd.addAll(List.of(args));
        GitCli.run(Map.of("GNUPGHOME", gnupgHome.toString()), stdin, 60, cmd).ok();
    }

    private Path newGnupgHome(String name) throws IOException {
        Path h = Files.createDirectory(tmp.resolve("gnupg-" + name),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        gnupgHomes.add(h);
        return h;
    }

    private record Cli(int code, String out, String err) {}

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
