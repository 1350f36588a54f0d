package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.cli.Main;
import dev.palimpsest.hub.HubConfig;
import dev.palimpsest.hub.HubServer;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub's git smart HTTP at /git, driven by the real git CLI and by palimpsest's own clone, push
 * and pull: any valid token clones and fetches, no token is refused, a read-only token cannot push;
 * commits written with palimpsest are pushed and the serving store sees the new head at once; an
 * unsigned commit, a commit signed by a key the store never trusted and a rewritten history are
 * refused with the reason in git's output and main untouched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HubGitTest {
    private static final ActorName ALICE = TestStores.ALICE;

    @TempDir
    static Path tmp;

    private Store store;
    private Path origin;
    private KeyHome home;
    private HubServer hub;
    private String writer;
    private String reader;
    private Path gnupg;
    private int clones;

    @BeforeAll
    void serveAStore() throws Exception {
        store = TestStores.init(tmp);
        origin = store.gitDir();
        home = new KeyHome(tmp.resolve("home"));
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "The harbour board met on Tuesday.").id(FactId.of("minutes-1")));
        t.commit();
        Tokens tokens = new Tokens(home.dir());
        writer = tokens.add(ALICE, false, Optional.empty(), Instant.now()).secret();
        reader = tokens.add(ALICE, true, Optional.empty(), Instant.now()).secret();
        hub = HubServer.start(store, HubConfig.loopback(0, home),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch", "--quiet", "--passphrase",
                "", "--quick-gen-key", "eve <eve@example.org>", "ed25519", "sign", "never")).ok();
    }

    @AfterAll
    void stop() {
        if (hub != null) {
            hub.stop();
        }
        if (store != null) {
            store.close();
        }
        if (gnupg != null) {
            GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), "gpgconf", "--kill", "all");
        }
    }

    @Test
    void gitClonesAndFetchesWithAnyValidTokenAndNotWithout() throws Exception {
        Path work = cloneWork(reader);
        assertThat(git(work, "rev-parse", "HEAD").ok().stdout().strip()).isEqualTo(store.head().hex());
        assertThat(git(work, "fetch", "origin").exitCode()).isZero();
        GitCli.Result anonymous = GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q",
                hub.url() + "/git", tmp.resolve("anonymous").toString()));
        assertThat(anonymous.exitCode()).isNotZero();
        assertThat(anonymous.stderr()).contains("could not read Username"); // the 401 asked for credentials
        GitCli.Result wrong = GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q",
                url("pal_00000000_" + "A".repeat(43)), tmp.resolve("wrong").toString()));
        assertThat(wrong.exitCode()).isNotZero();
    }

    @Test
    void aReadOnlyTokenCannotPush() throws Exception {
        Path work = cloneWork(reader);
        writeFact(work, "fact-ro", "Pushed with a read-only token.");
        commit(work, null);
        Set<String> before = TestStores.durableState(origin);
        GitCli.Result push = git(work, "push", "origin", "HEAD:main");
        assertThat(push.exitCode()).isNotZero();
        assertThat(push.stderr()).contains("403");
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    @Test
    void commitsWrittenWithPalimpsestArePushedAndTheServingStoreSeesThem() throws Exception {
        Path replica = cloneAndWrite("replica.git", writer, "replica-1", "Written in a replica and pushed over HTTP.");
        Cli push = cli("push", "--store", replica.toString(), "--home", home.dir().toString());
        assertThat(push.code).as(push.out + push.err).isZero();
        String pushed = GitCli.git(replica, "rev-parse", "main").ok().stdout().strip();
        assertThat(store.head().hex()).isEqualTo(pushed);
        assertThat(store.find(FactId.of("replica-1"))).isPresent();

        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "Written at the hub over its API.").id(FactId.of("hub-1")));
        t.commit();
        Cli pull = cli("pull", "--store", replica.toString(), "--home", home.dir().toString(), "--actor", "alice");
        assertThat(pull.code).as(pull.out + pull.err).isZero();
        assertThat(GitCli.git(replica, "rev-parse", "main").ok().stdout().strip()).isEqualTo(store.head().hex());
    }

    @Test
    void aPushWhoseMainMovedOnIsAuditedAndMergedByTheHubSignedByThePushersActor() throws Exception {
        Path replica = cloneAndWrite("racing-replica.git", writer, "racer-1",
                "Written in a replica while the hub moved on.");
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "Written at the hub meanwhile.").id(FactId.of("hub-racer-1")));
        t.commit();
        String hubBefore = store.head().hex();
        String pushed = GitCli.git(replica, "rev-parse", "main").ok().stdout().strip();

        Cli push = cli("push", "--store", replica.toString(), "--home", home.dir().toString(), "--json");
        assertThat(push.code).as(push.out + push.err).isZero();
        assertThat(push.out).contains("\"push\" : \"merged\"").contains(pushed);

        String merge = store.head().hex();
        assertThat(GitCli.git(origin, "rev-parse", merge + "^1").ok().stdout().strip()).isEqualTo(hubBefore);
        assertThat(GitCli.git(origin, "rev-parse", merge + "^2").ok().stdout().strip()).isEqualTo(pushed);
        assertThat(GitCli.git(origin, "log", "-1", "--format=%B", merge).ok().stdout()).contains("Palimpsest-Actor: alice");
        assertThat(GitCli.git(origin, "cat-file", "commit", merge).ok().stdout()).contains("gpgsig");
        assertThat(store.find(FactId.of("racer-1"))).isPresent();
        assertThat(store.find(FactId.of("hub-racer-1"))).isPresent();
        assertThat(GitCli.git(origin, "show-ref").ok().stdout()).doesNotContain("refs/palimpsest/merge");
        try (Auditor a = Auditor.open(origin)) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
        // the replica's next pull is a fast-forward onto the hub's merge
        Cli pull = cli("pull", "--store", replica.toString(), "--home", home.dir().toString(), "--actor", "alice");
        assertThat(pull.code).as(pull.out + pull.err).isZero();
        assertThat(GitCli.git(replica, "rev-parse", "main").ok().stdout().strip()).isEqualTo(merge);
    }

    @Test
    void twoProcessesPushingAtOnceAfterTheHubMovedOnAreBothMergedAndNothingIsLost() throws Exception {
        Path a = cloneAndWrite("concurrent-a.git", writer, "concurrent-a", "Pushed by the first of two processes.");
        Path b = cloneAndWrite("concurrent-b.git", writer, "concurrent-b", "Pushed by the second of two processes.");
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "The hub moved on before both pushes.").id(FactId.of("hub-concurrent")));
        t.commit();
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> pushes = new ArrayList<>();
        for (Path replica : List.of(a, b)) {
            pushes.add(new ProcessBuilder(jvm, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "push", "--store", replica.toString(), "--home", home.dir().toString(), "--json")
                    .redirectErrorStream(true).start());
        }
        for (Process p : pushes) {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(out).isZero();
            assertThat(out).contains("\"push\" : \"merged\"");
        }
        for (String id : List.of("concurrent-a", "concurrent-b", "hub-concurrent")) {
            assertThat(store.find(FactId.of(id))).as(id).isPresent();
        }
        String merges = GitCli.git(origin, "rev-list", "--merges", "--parents", "main").ok().stdout();
        String reflog = GitCli.git(origin, "reflog", "show", "--no-abbrev", "--format=%H %gs", "main").ok().stdout();
        for (Path replica : List.of(a, b)) {
            String pushed = GitCli.git(replica, "rev-parse", "main").ok().stdout().strip();
            assertThat(GitCli.git(origin, "merge-base", "--is-ancestor", pushed, "main").exitCode()).isZero();
            String merge = merges.lines().filter(l -> l.endsWith(" " + pushed)).map(l -> l.split(" ")[0]).findFirst()
                    .orElseThrow(() -> new AssertionError("no merge of " + pushed + " in\n" + merges));
            assertThat(reflog).as("each adoption recorded once in the hub's reflog, whole lines").containsOnlyOnce(merge)
                    .containsPattern("(?m)^" + merge + " palimpsest merge request from [a-z]+: merge$");
        }
        try (Auditor au = Auditor.open(origin)) {
            assertThat(au.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    @Test
    void aMergeRequestIsRefusedWhenThePushersActorHasNoKeyAtTheHubToSignTheMerge() throws Exception {
        String carol = new Tokens(home.dir()).add(ActorName.of("carol"), false, Optional.empty(), Instant.now()).secret();
        Path replica = cloneAndWrite("keyless-replica.git", carol, "keyless-1",
                "Pushed with the token of an actor without a key.");
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "The hub moved on first.").id(FactId.of("hub-keyless-1")));
        t.commit();
        String head = store.head().hex();
        Set<String> before = TestStores.durableState(origin);

        Cli push = cli("push", "--store", replica.toString(), "--home", home.dir().toString());
        assertThat(push.code).as(push.out + push.err).isEqualTo(5);
        assertThat(push.err).contains("carol").contains("main is unchanged");
        assertThat(store.head().hex()).isEqualTo(head);
        assertThat(store.find(FactId.of("keyless-1"))).isEmpty();
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    @Test
    void aPusherBehindTheHubsMainSendsOnlyItsNewCommitsNotItsHistory() throws Exception {
        Path work = cloneWork(writer);
        for (int i = 1; i <= 3; i++) {
            Transaction t = store.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "The hub moves on, " + i + ".").id(FactId.of("ahead-" + i)));
            t.commit();
        }
        writeFact(work, "fact-behind", "Written on a clone three commits behind.");
        commit(work, null);
        int history = git(work, "rev-list", "--objects", "HEAD").ok().stdout().strip().split("\n").length;
        assertThat(history).isGreaterThan(20);
        GitCli.Result push = git(work, "push", "--progress", "origin", "HEAD:refs/palimpsest/merge");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Writing objects: 100% \\((\\d+)/").matcher(push.stderr());
        assertThat(m.find()).as(push.describe()).isTrue();
        // the commit, the trees on its fact's path and the fact: what the hub's main lacks, found through its .haves
        assertThat(Integer.parseInt(m.group(1))).isLessThanOrEqualTo(8);
    }

    @Test
    void aMergeRequestOfAnUnsignedCommitIsRefusedWithTheReasonAndMainUntouched() throws Exception {
        Path work = cloneWork(writer);
        writeFact(work, "fact-merge-unsigned", "Asked to be merged, never signed.");
        commit(work, null);
        refused(work, "refs/palimpsest/merge", "fail the audit", "[unsigned]");
    }

    @Test
    void palimpsestCloneSendsTheTokenFromTheEnvironmentAndFailsClearlyWithoutOne() throws Exception {
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String url = hub.url() + "/git";
        Path with = tmp.resolve("env-clone.git");
        GitCli.Result ok = GitCli.run(Map.of("PALIMPSEST_TOKEN", reader), null, 120, List.of(jvm,
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "clone", url,
                "--store", with.toString(), "--home", home.dir().toString()));
        assertThat(ok.exitCode()).as(ok.describe()).isZero();
        assertThat(GitCli.git(with, "rev-parse", "main").ok().stdout().strip()).isEqualTo(store.head().hex());
        Path without = tmp.resolve("no-token-clone.git");
        Map<String, String> none = new HashMap<>();
        none.put("PALIMPSEST_TOKEN", null);
        GitCli.Result refused = GitCli.run(none, null, 120, List.of(jvm, "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "clone", url, "--store", without.toString(),
                "--home", home.dir().toString()));
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).containsIgnoringCase("auth");
        assertThat(Files.exists(without)).isFalse();
    }

    @Test
    void anUnsignedCommitIsRefusedWithTheReasonAndMainUntouched() throws Exception {
        Path work = cloneWork(writer);
        writeFact(work, "fact-unsigned", "Written with git and not signed.");
        commit(work, null);
        refused(work, "main", "fail the audit", "[unsigned]");
    }

    @Test
    void aCommitSignedByAnUntrustedKeyIsRefusedWithTheReasonAndMainUntouched() throws Exception {
        Path work = cloneWork(writer);
        writeFact(work, "fact-eve", "Signed by a key the store never trusted.");
        commit(work, "eve@example.org");
        refused(work, "main", "fail the audit", "[untrusted-signer]");
    }

    @Test
    void aRewrittenHistoryIsRefusedEvenWhenForced() throws Exception {
        Path work = cloneWork(writer);
        git(work, "reset", "-q", "--hard", "HEAD~1").ok();
        writeFact(work, "fact-fork", "A fork of history.");
        commit(work, null);
        Set<String> before = TestStores.durableState(origin);
        GitCli.Result plain = git(work, "push", "origin", "HEAD:main");
        assertThat(plain.exitCode()).isNotZero();
        GitCli.Result force = git(work, "push", "--force", "origin", "HEAD:main");
        assertThat(force.exitCode()).as(force.describe()).isNotZero();
        assertThat(force.stderr()).contains("never rewritten");
        GitCli.Result side = git(work, "push", "origin", "HEAD:refs/heads/side");
        assertThat(side.exitCode()).isNotZero();
        assertThat(side.stderr()).contains("refs/heads/main only");
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    private void refused(Path work, String ref, String... reasons) {
        Set<String> before = TestStores.durableState(origin);
        String head = store.head().hex();
        GitCli.Result push = git(work, "push", "origin", "HEAD:" + ref);
        assertThat(push.exitCode()).as(push.describe()).isNotZero();
        for (String r : reasons) {
            assertThat(push.stderr()).contains(r);
        }
        assertThat(store.head().hex()).isEqualTo(head);
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
    }

    /** Clones the hub with palimpsest into {@code name} and writes one source there as alice. */
    private Path cloneAndWrite(String name, String token, String id, String body) throws Exception {
        Path replica = tmp.resolve(name);
        assertThat(cli("clone", url(token), "--store", replica.toString(), "--home", home.dir().toString()).code).isZero();
        try (Store r = Store.open(replica, home, StoreOptions.defaults().withFsync(false))) {
            Transaction t = r.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, body).id(FactId.of(id)));
            t.commit();
        }
        return replica;
    }

    private String url(String token) {
        return "http://x:" + token + "@127.0.0.1:" + hub.port() + "/git";
    }

    private Path cloneWork(String token) {
        Path work = tmp.resolve("work-" + (++clones));
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", url(token), work.toString())).ok();
        return work;
    }

    private void writeFact(Path work, String id, String body) throws IOException {
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, FactId.of(id)));
        Files.createDirectories(file.getParent());
        Files.write(file, FactCodec.encode(new Fact(FactId.of(id), Kind.CLAIM, body, null, List.of())));
    }

    /** Commits every change as alice with her trailers, signed with {@code key} (null: unsigned). */
    private void commit(Path work, String key) {
        git(work, "add", "-A").ok();
        List<String> args = new ArrayList<>(List.of("-c", "commit.gpgsign=false"));
        if (key != null) {
            args.addAll(List.of("-c", "user.signingkey=" + key));
        }
        args.addAll(List.of("commit", "-q", "-m", "hand-made commit\n\nPalimpsest-Actor: alice\nPalimpsest-Op: assert\n"));
        if (key != null) {
            args.add("-S");
        }
        Map<String, String> env = new HashMap<>();
        env.put("GIT_AUTHOR_NAME", "alice");
        env.put("GIT_AUTHOR_EMAIL", "alice@palimpsest.local");
        env.put("GIT_COMMITTER_NAME", "alice");
        env.put("GIT_COMMITTER_EMAIL", "alice@palimpsest.local");
        git(work, env, args.toArray(String[]::new)).ok();
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

    private record Cli(int code, String out, String err) {}

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
