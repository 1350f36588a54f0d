package dev.palimpsest.it;

import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.cli.Main;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.StoreOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
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
 * Hardening cases made with the real git and gpg against a store served with the pre-receive hook:
 * each tampered commit is signed by a trusted key, flagged by {@code palimpsest audit} with its rule
 * (never an internal error) and refused on push, leaving the origin unchanged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HardeningPushTest {
    private static final ActorName ALICE = ActorName.of("alice");

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
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "A first fact.").id(FactId.of("first")));
            tx.commit();
        }
        assertThat(cli("hooks", "install", "--store", origin.toString()).code).isZero();
        gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch", "--quiet", "--import",
                home.dir().resolve("keys/alice.sec.asc").toString())).ok();
        aliceKey = GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch",
                "--with-colons", "--fingerprint", "--list-keys", "alice")).ok().stdoutLines().stream()
                .filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
    }

    @AfterAll
    void stopGpgAgent() {
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), "gpgconf", "--kill", "all");
    }

    @Test
    void aSignedCommitAddingAnOversizeFactIsShownButIsATooLargeViolationOfThatCommitAndIsRefused() throws Exception {
        Path work = cloneWork();
        String id = "oversize";
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, FactId.of(id)));
        Files.createDirectories(file.getParent());
        String body = "w".repeat(3 * Limits.MAX_FILE + 1);
        Files.write(file, FactCodec.encode(new Fact(FactId.of(id), Kind.CLAIM, body, null, List.of())));
        commit(work, trailers("assert", id));
        Cli show = cli("show", id, "--store", work.resolve(".git").toString(), "--json");
        assertThat(show.code).as("a file written before the limits is still shown: " + show.err).isZero();
        assertThat(new ObjectMapper().readTree(show.out).get("body").asText()).isEqualTo(body);
        String path = StorePaths.factPath(Kind.CLAIM, FactId.of(id));
        JsonNode v = flaggedAndRefused(work, "too-large");
        assertThat(v.get("path").asText()).isEqualTo(path);
        assertThat(v.get("commit").asText()).isEqualTo(git(work, "rev-parse", "HEAD").ok().stdout().trim());
    }

    @Test
    void aKeyExportedByGpgWithOldFormatSignatureHeadersIsRefusedByTheGateAndFlaggedByTheAudit() throws Exception {
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch", "--quiet", "--passphrase",
                "", "--quick-gen-key", "zed <zed@palimpsest.local>", "ed25519", "sign", "never")).ok();
        String exported = GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, List.of("gpg", "--batch",
                "--armor", "--export", "zed")).ok().stdout();
        Path keyFile = tmp.resolve("zed.asc");
        Files.writeString(keyFile, exported);
        Path writer = tmp.resolve("writer.git");
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", "--bare", origin.toString(),
                writer.toString())).ok();
        Cli add = cli("keys", "add", "--store", writer.toString(), "--home", tmp.resolve("home").toString(),
                "--actor", "alice", "--name", "zed", "--key", keyFile.toString());
        assertThat(add.code).as(add.err).isEqualTo(Main.REJECTED);
        assertThat(add.err).contains("[invalid-key]").contains("canonical framing");

        Path work = cloneWork();
        Files.writeString(work.resolve(StorePaths.keyPath(ActorName.of("zed"))), exported);
        TrustedKey key = TrustedKey.parse(exported);
        Files.write(work.resolve(StorePaths.keyInfoPath(ActorName.of("zed"))),
                KeyCodec.encode(new ActorKey(ActorName.of("zed"), KeyRole.AGENT, key.fingerprint())));
        commit(work, "hand-made commit\n\nPalimpsest-Actor: alice\nPalimpsest-Op: key-add\nPalimpsest-Key: zed\n");
        flaggedAndRefused(work, "invalid-key");
    }

    @Test
    void aFactFileRemovedWithoutARetractionRecordExistsForNeitherExistsNorShow() throws Exception {
        Path work = cloneWork();
        git(work, "rm", "-q", StorePaths.factPath(Kind.CLAIM, FactId.of("first"))).ok();
        commit(work, trailers("retract", "first"));
        String store = work.resolve(".git").toString();
        Cli show = cli("show", "first", "--store", store);
        Cli exists = cli("exists", "first", "--store", store);
        assertThat(show.code).as(show.err).isEqualTo(Main.NOT_FOUND);
        assertThat(exists.code).as(exists.out + exists.err).isEqualTo(Main.NOT_FOUND);
        Cli before = cli("exists", "first", "--store", store, "--at", "main~1");
        assertThat(before.code).as(before.err).isZero();
        flaggedAndRefused(work, "retraction-inconsistent", "trailer-mismatch");
    }

    /** The clone's new commit is flagged with exactly these rules (exit 3), and the push is refused. */
    JsonNode flaggedAndRefused(Path work, String... rules) throws Exception {
        Cli audit = cli("audit", "--store", work.resolve(".git").toString(), "--range", "origin/main..main", "--json");
        assertThat(audit.code).as(audit.out + audit.err).isEqualTo(Main.AUDIT_VIOLATIONS);
        JsonNode report = new ObjectMapper().readTree(audit.out);
        Set<String> found = new TreeSet<>();
        report.get("violations").forEach(v -> found.add(v.get("rule").asText()));
        assertThat(found).as(audit.out).containsExactlyInAnyOrder(rules);
        Set<String> before = TestStores.durableState(origin);
        GitCli.Result push = git(work, "push", "origin", "main");
        assertThat(push.exitCode()).as(push.describe()).isNotZero();
        assertThat(push.stderr()).contains("pre-receive hook declined");
        for (String rule : rules) {
            assertThat(push.stderr()).contains("[" + rule + "]");
        }
        assertThat(TestStores.durableState(origin)).isEqualTo(before);
        return report.get("violations").get(0);
    }

    Path cloneWork() {
        Path work = tmp.resolve("work-" + (++clones));
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, List.of("git", "clone", "-q", origin.toString(),
                work.toString())).ok();
        return work;
    }

    static String trailers(String verb, String fact) {
        return "hand-made commit\n\nPalimpsest-Actor: alice\nPalimpsest-Op: " + verb + "\nPalimpsest-Fact: " + fact
                + "\n";
    }

    /** {@code git commit} of every change as alice, signed with alice's trusted key through gpg. */
    void commit(Path work, String message) {
        git(work, "add", "-A").ok();
        Map<String, String> env = new HashMap<>();
        for (String who : List.of("AUTHOR", "COMMITTER")) {
            env.put("GIT_" + who + "_NAME", "alice");
            env.put("GIT_" + who + "_EMAIL", "alice@palimpsest.local");
        }
        git(work, env, "-c", "user.signingkey=" + aliceKey, "commit", "-q", "-S", "-m", message).ok();
    }

    GitCli.Result git(Path work, String... args) {
        return git(work, Map.of(), args);
    }

    GitCli.Result git(Path work, Map<String, String> extra, String... args) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("GNUPGHOME", gnupg.toString());
        List<String> cmd = new ArrayList<>(List.of("git", "-C", work.toString()));
        cmd.addAll(List.of(args));
        return GitCli.run(GitCli.gitEnv(env), null, 120, cmd);
    }

    record Cli(int code, String out, String err) {}

    static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
