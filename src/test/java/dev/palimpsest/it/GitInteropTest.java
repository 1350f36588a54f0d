package dev.palimpsest.it;

import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bouncycastle.bcpg.BCPGKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store built through the Java API is an ordinary git repository to the real {@code git} and
 * {@code gpg} binaries: it passes {@code fsck --strict}, every commit verifies, trailers and files
 * read back, and the secret key stays in the owner-only key home.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GitInteropTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final String SOURCE_BODY = "Minutes of the 1887 harbour board meeting: the new breakwater"
            + " was approved by seven votes to two after a long debate about dredging costs.";
    private static final String QUOTE = "approved by seven votes to two";
    private static final String HYPOTHESIS_BODY = "Dredging costs were the decisive factor in the breakwater vote.";

    @TempDir
    static Path tmp;

    private Path storeDir;
    private Path homeDir;
    private Path gnupgHome;
    private final List<Path> gnupgHomes = new ArrayList<>();
    private final List<String> commits = new ArrayList<>();
    private FactId source;
    private FactId claim;
    private FactId retracted;

    @BeforeAll
    void buildStore() throws Exception {
        storeDir = tmp.resolve("store.git");
        homeDir = tmp.resolve("home");
        StoreOptions opts = StoreOptions.defaults();
        try (Store store = Store.initializer(storeDir).home(new KeyHome(homeDir)).actor(ALICE).options(opts).create()) {
            commits.add(store.head().hex());

            Transaction t = store.begin(ALICE);
            source = t.assertFact(FactSpec.of(Kind.SOURCE, SOURCE_BODY));
            commits.add(t.commit().id().hex());

            t = store.begin(ALICE);
            claim = t.assertFact(FactSpec.of(Kind.CLAIM, "The breakwater was approved in 1887.")
                    .refs(RefSpec.cites(source).withQuote(QUOTE)));
            commits.add(t.commit().id().hex());

            t = store.begin(ALICE);
            t.revise(claim, "The harbour board approved the breakwater in 1887, seven votes to two.", List.of());
            commits.add(t.commit().id().hex());

            t = store.begin(ALICE);
            retracted = t.assertFact(FactSpec.of(Kind.CLAIM, "The breakwater vote was unanimous."));
            commits.add(t.commit().id().hex());

            t = store.begin(ALICE);
            t.retract(retracted, "the minutes record two votes against");
            commits.add(t.commit().id().hex());

            t = store.begin(ALICE);
            FactId hypothesis = t.assertFact(FactSpec.of(Kind.HYPOTHESIS, HYPOTHESIS_BODY));
            t.assertFact(FactSpec.of(Kind.CLAIM, "Cost was debated before the vote.")
                    .refs(RefSpec.cites(hypothesis).withQuote("Dredging costs were the decisive")));
            t.revise(claim, "The harbour board approved the breakwater on a 7-2 vote in 1887.", List.of());
            CommitResult multi = t.commit();
            assertThat(multi.written()).hasSize(3);
            commits.add(multi.id().hex());
        }
        gnupgHome = newGnupgHome("gnupg");
    }

    @AfterAll
    void stopGpgAgents() {
        for (Path home : gnupgHomes) {
            GitCli.run(Map.of("GNUPGHOME", home.toString()), "gpgconf", "--kill", "all");
        }
    }

    @Test
    void historyAsSeenByGitIsTheCommitsTheApiReturned() {
        List<String> revs = GitCli.git(storeDir, "rev-list", "--reverse", "main").ok().stdoutLines();
        assertThat(revs).containsExactlyElementsOf(commits);
        assertThat(GitCli.git(storeDir, "symbolic-ref", "HEAD").ok().stdout().strip()).isEqualTo("refs/heads/main");
    }

    @Test
    void fsckStrictFindsNoProblem() {
        assertFsckClean(storeDir);
    }

    @Test
    void everyCommitVerifiesWithGitAndGpg() {
        Map<String, String> env = Map.of("GNUPGHOME", gnupgHome.toString());
        List<String> keyFiles = GitCli.git(storeDir, "ls-tree", "--name-only", "main", "keys/").ok().stdoutLines();
        assertThat(keyFiles).containsExactly("keys/alice.asc", "keys/alice.yaml");
        for (String keyFile : keyFiles.stream().filter(f -> f.endsWith(".asc")).toList()) {
            byte[] armored = GitCli.git(storeDir, "show", "main:" + keyFile).ok().stdoutBytes();
            GitCli.run(env, armored, 60, List.of("gpg", "--batch", "--import")).ok();
        }
        String fingerprint = primaryFingerprint(env, "--list-keys");

        List<String> revs = GitCli.git(storeDir, "rev-list", "main").ok().stdoutLines();
        assertThat(revs).hasSize(commits.size());
        for (String c : revs) {
            GitCli.Result v = GitCli.git(storeDir, env, "verify-commit", "--raw", c);
            assertThat(v.exitCode()).as(v.describe()).isZero();
            assertThat(v.stderr()).as(v.describe()).contains("[GNUPG:] GOODSIG ")
                    .contains("[GNUPG:] VALIDSIG " + fingerprint + " ");
        }
    }

    @Test
    void trailersListTheOperationsInOrder() {
        List<String> ops = GitCli.git(storeDir, "log", "--reverse",
                "--format=%(trailers:key=Palimpsest-Op,valueonly,separator=%x2C)", "main").ok().stdoutLines();
        assertThat(ops).containsExactly("init", "assert", "assert", "revise", "assert", "retract",
                "assert,assert,revise");
        List<String> actors = GitCli.git(storeDir, "log",
                "--format=%(trailers:key=Palimpsest-Actor,valueonly,separator=%x2C)", "main").ok().stdoutLines();
        assertThat(actors).hasSize(commits.size()).allMatch("alice"::equals);
        String facts = GitCli.git(storeDir, "log", "-1",
                "--format=%(trailers:key=Palimpsest-Fact,valueonly,separator=%x2C)", commits.get(1)).ok().stdout().strip();
        assertThat(facts).isEqualTo(source.value());
    }

    @Test
    void gitShowPrintsTheFactYaml() throws Exception {
        String sourcePath = pathOf(source);
        assertThat(sourcePath).startsWith("sources/").endsWith("/" + source.value() + ".yaml");
        String yaml = GitCli.git(storeDir, "show", "main:" + sourcePath).ok().stdout();
        assertThat(yaml.lines()).anyMatch(yamlField("id", source.value())).anyMatch(yamlField("kind", "source"))
                .anyMatch(yamlField("body", SOURCE_BODY));

        String claimPath = pathOf(claim);
        assertThat(claimPath).startsWith("facts/");
        String claimYaml = GitCli.git(storeDir, "show", "main:" + claimPath).ok().stdout();
        String sourceBlob = GitCli.git(storeDir, "rev-parse", commits.get(1) + ":" + sourcePath).ok().stdout().strip();
        assertThat(claimYaml.lines()).anyMatch(yamlField("id", claim.value())).anyMatch(yamlField("kind", "claim"));
        assertThat(claimYaml).contains("7-2 vote").contains(source.value()).contains(commits.get(1)).contains(sourceBlob).contains(QUOTE);

        try (Store store = Store.open(storeDir, new KeyHome(homeDir), StoreOptions.defaults())) {
            FactRead read = store.read(claim, store.head());
            assertThat(read).isInstanceOf(FactRead.Found.class);
            String blob = ((FactRead.Found) read).version().blob().hex();
            assertThat(GitCli.git(storeDir, "rev-parse", "main:" + claimPath).ok().stdout().strip()).isEqualTo(blob);
        }
    }

    @Test
    void retractedFactLeavesTheTreeAndARetractionRecordAppears() {
        List<String> files = GitCli.git(storeDir, "ls-tree", "-r", "--name-only", "main").ok().stdoutLines();
        String name = "/" + retracted.value() + ".yaml";
        assertThat(files).filteredOn(f -> f.endsWith(name)).singleElement().asString().startsWith("retractions/");
        String record = GitCli.git(storeDir, "show", "main:" + files.stream().filter(f -> f.endsWith(name))
                .findFirst().orElseThrow()).ok().stdout();
        assertThat(record).contains("two votes against").contains("alice").contains(commits.get(4));
        GitCli.Result before = GitCli.git(storeDir, "ls-tree", "-r", "--name-only", commits.get(4));
        assertThat(before.ok().stdoutLines()).anyMatch(f -> f.startsWith("facts/") && f.endsWith(name));
    }

    @Test
    void commitObjectsCarryGpgsigAndActorAsAuthorAndCommitter() {
        Pattern ident = Pattern.compile("(.*) <(.*)> (\\d+) ([+-]\\d{4})");
        for (String c : commits) {
            String raw = GitCli.git(storeDir, "cat-file", "-p", c).ok().stdout();
            List<String> header = raw.substring(0, raw.indexOf("\n\n")).lines().toList();
            assertThat(header).as(raw).anyMatch(l -> l.startsWith("gpgsig -----BEGIN PGP SIGNATURE-----"));
            String author = header.stream().filter(l -> l.startsWith("author ")).findFirst().orElseThrow();
            String committer = header.stream().filter(l -> l.startsWith("committer ")).findFirst().orElseThrow();
            assertThat(author.substring("author ".length())).isEqualTo(committer.substring("committer ".length()));
            Matcher m = ident.matcher(author.substring("author ".length()));
            assertThat(m.matches()).as(author).isTrue();
            assertThat(m.group(1)).isEqualTo("alice");
            assertThat(m.group(2)).isEqualTo("alice@palimpsest.local");
        }
    }

    @Test
    void secretKeyFileIsOwnerOnly() throws IOException {
        Path secret = homeDir.resolve("keys").resolve("alice.sec.asc");
        assertThat(secret).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret.getParent())))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(homeDir))).isEqualTo("rwx------");
        try (Stream<Path> s = Files.list(secret.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("alice.sec.asc");
        }
    }

    @Test
    void gpgImportsTheSecretKeyFile() throws IOException {
        Path home = newGnupgHome("gnupg-secret");
        Map<String, String> env = Map.of("GNUPGHOME", home.toString());
        Path secret = homeDir.resolve("keys").resolve("alice.sec.asc");
        GitCli.run(env, null, 60, List.of("gpg", "--batch", "--import", secret.toString())).ok();
        String secretFpr = primaryFingerprint(env, "--list-secret-keys");

        byte[] pub = GitCli.git(storeDir, "show", "main:keys/alice.asc").ok().stdoutBytes();
        Path pubHome = newGnupgHome("gnupg-public");
        Map<String, String> pubEnv = Map.of("GNUPGHOME", pubHome.toString());
        GitCli.run(pubEnv, pub, 60, List.of("gpg", "--batch", "--import")).ok();
        assertThat(primaryFingerprint(pubEnv, "--list-keys")).isEqualTo(secretFpr);
    }

    @Test
    void secretKeyNeverEntersTheRepository() throws Exception {
        String armored = Files.readString(homeDir.resolve("keys").resolve("alice.sec.asc"), StandardCharsets.US_ASCII);
        String publicArmored = GitCli.git(storeDir, "show", "main:keys/alice.asc").ok().stdout();
        List<byte[]> needles = new ArrayList<>();
        needles.add("PRIVATE KEY".getBytes(StandardCharsets.US_ASCII));
        needles.add(armored.strip().getBytes(StandardCharsets.US_ASCII));
        List<String> secretOnlyLines = armored.lines().filter(l -> l.length() >= 32 && !l.startsWith("-----"))
                .filter(l -> !publicArmored.contains(l)).toList();
        assertThat(secretOnlyLines).isNotEmpty();
        for (String l : secretOnlyLines) {
            needles.add(l.getBytes(StandardCharsets.US_ASCII));
        }
        byte[] scalar = secretScalar(armored);
        assertThat(scalar.length).isGreaterThanOrEqualTo(30);
        needles.add(scalar);
        needles.add(java.util.HexFormat.of().formatHex(scalar).getBytes(StandardCharsets.US_ASCII));

        // every object, decompressed
        byte[] all = GitCli.git(storeDir, "cat-file", "--batch-all-objects", "--batch").ok().stdoutBytes();
        int objects = countObjects(all);
        assertThat(objects).isGreaterThan(commits.size() * 3);
        for (byte[] n : needles) {
            assertThat(indexOf(all, n)).as("secret material found in an object of the repository").isEqualTo(-1);
        }
        // and every plain file of the git directory (config, refs, hooks, lock files...)
        try (Stream<Path> files = Files.walk(storeDir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                for (byte[] n : needles) {
                    assertThat(indexOf(bytes, n)).as("secret material found in " + f).isEqualTo(-1);
                }
            }
        }
    }

    /** A top-level {@code key: value} line, the value plain or double-quoted. */
    private static java.util.function.Predicate<String> yamlField(String key, String value) {
        return line -> line.equals(key + ": " + value) || line.equals(key + ": \"" + value + "\"");
    }

    @Test
    void bulkTransactionAndGitGcLeaveTheStoreValidAndWritable() throws Exception {
        Path dir = tmp.resolve("bulk.git");
        List<FactId> ids = new ArrayList<>();
        try (Store s = Store.initializer(dir).home(new KeyHome(homeDir)).actor(ALICE).create()) {
            Transaction t = s.begin(ALICE);
            for (int i = 0; i < 600; i++) {
                ids.add(t.assertFact(FactSpec.of(Kind.CLAIM, "bulk fact number " + i)));
            }
            assertThat(t.commit().written()).hasSize(600);
        }
        assertFsckClean(dir);
        assertThat(GitCli.git(dir, "ls-tree", "-r", "--name-only", "main", "facts/").ok().stdoutLines()).hasSize(600);

        GitCli.git(dir, "gc", "--quiet", "--prune=now").ok();
        try (Store s = Store.open(dir, new KeyHome(homeDir), StoreOptions.defaults())) {
            Transaction t = s.begin(ALICE);
            t.retract(ids.get(7), "written after git gc packed objects and refs");
            t.revise(ids.get(8), "bulk fact number 8, revised after gc", List.of());
            CommitResult r = t.commit();
            assertThat(s.head()).isEqualTo(r.id());
            assertThat(s.read(ids.get(7), r.id())).isInstanceOf(FactRead.Retracted.class);
        }
        assertFsckClean(dir);
        Path gpgHome = newGnupgHome("gnupg-bulk");
        Map<String, String> env = Map.of("GNUPGHOME", gpgHome.toString());
        GitCli.run(env, GitCli.git(dir, "show", "main:keys/alice.asc").ok().stdoutBytes(), 60,
                List.of("gpg", "--batch", "--import")).ok();
        List<String> revs = GitCli.git(dir, "rev-list", "main").ok().stdoutLines();
        assertThat(revs).hasSize(3);
        for (String c : revs) {
            GitCli.Result v = GitCli.git(dir, env, "verify-commit", c);
            assertThat(v.exitCode()).as(v.describe()).isZero();
        }
    }

    private static void assertFsckClean(Path dir) {
        GitCli.Result r = GitCli.git(dir, "fsck", "--strict", "--full", "--no-progress");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        String all = r.stdout() + "\n" + r.stderr();
        assertThat(all.lines().filter(l -> l.matches("(?i).*(error|warning|missing|corrupt|broken|bad|invalid).*")))
                .as(r.describe()).isEmpty();
    }

    private String pathOf(FactId id) {
        List<String> files = GitCli.git(storeDir, "ls-tree", "-r", "--name-only", "main").ok().stdoutLines();
        return files.stream().filter(f -> f.endsWith("/" + id.value() + ".yaml")).findFirst()
                .orElseThrow(() -> new AssertionError(id + " not in main's tree: " + files));
    }

    private Path newGnupgHome(String name) throws IOException {
        Path home = Files.createDirectory(tmp.resolve(name),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        gnupgHomes.add(home);
        return home;
    }

    /** The fingerprint of the single primary key gpg lists in this home. */
    private static String primaryFingerprint(Map<String, String> env, String listCommand) {
        List<String> lines = GitCli.run(env, null, 60,
                List.of("gpg", "--batch", "--with-colons", "--fingerprint", listCommand)).ok().stdoutLines();
        List<String> fprs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if ((lines.get(i).startsWith("pub:") || lines.get(i).startsWith("sec:")) && i + 1 < lines.size()
                    && lines.get(i + 1).startsWith("fpr:")) {
                fprs.add(lines.get(i + 1).split(":")[9]);
            }
        }
        assertThat(fprs).as(String.join("\n", lines)).hasSize(1);
        return fprs.get(0);
    }

    private static byte[] secretScalar(String armored) throws Exception {
        try (InputStream in = PGPUtil.getDecoderStream(
                new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            PGPSecretKeyRing ring = new PGPSecretKeyRing(in, new BcKeyFingerprintCalculator());
            BCPGKey key = ring.getSecretKey().extractPrivateKey(null).getPrivateKeyDataPacket();
            byte[] mpi = key.getEncoded();
            // an MPI: two bytes of bit length, then the magnitude
            return Arrays.copyOfRange(mpi, 2, mpi.length);
        }
    }

    private static int countObjects(byte[] batch) {
        int count = 0;
        int pos = 0;
        while (pos < batch.length) {
            int nl = indexOf(batch, new byte[] {'\n'}, pos);
            String[] header = new String(batch, pos, nl - pos, StandardCharsets.US_ASCII).split(" ");
            assertThat(header).hasSize(3);
            pos = nl + 1 + Integer.parseInt(header[2]) + 1;
            count++;
        }
        return count;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        return indexOf(hay, needle, 0);
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
