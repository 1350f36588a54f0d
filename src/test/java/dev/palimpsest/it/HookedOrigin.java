package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.cli.Main;
import dev.palimpsest.cli.Run;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A store served as the bare {@code origin} of hand-made clones, with the pre-receive hook
 * installed, and a scratch {@code GNUPGHOME} holding the store actor's (alice's) secret key,
 * imported with the real gpg so that git can sign as a trusted key.
 */
final class HookedOrigin implements AutoCloseable {
    static final ActorName ACTOR = ActorName.of("alice");

    private final Path tmp;
    private final Path dir;
    private final KeyHome home;
    private final Path gnupg;
    private final String actorKey;
    private int clones;

    private HookedOrigin(Path tmp, Path dir, KeyHome home, Path gnupg, String actorKey) {
        this.tmp = tmp;
        this.dir = dir;
        this.home = home;
        this.gnupg = gnupg;
        this.actorKey = actorKey;
    }

    /**
     * Creates the store {@code tmp/origin.git} (keys in {@code tmp/home}) whose first commit asserts
     * {@code first} as alice, installs the pre-receive hook and imports alice's secret key into
     * {@code tmp/gnupg}.
     */
    static HookedOrigin serve(Path tmp, FactSpec first) throws Exception {
        Path dir = tmp.resolve("origin.git");
        KeyHome home = new KeyHome(tmp.resolve("home"));
        try (Store s = Store.initializer(dir).home(home).actor(ACTOR)
                .options(StoreOptions.defaults().withFsync(false)).create()) {
            var tx = s.begin(ACTOR);
            tx.assertFact(first);
            tx.commit();
        }
        assertThat(Run.of("hooks", "install", "--store", dir.toString()).code()).isZero();
        Path gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        gpg(gnupg, "--quiet", "--import", home.dir().resolve("keys").resolve(ACTOR.value() + ".sec.asc").toString());
        String key = gpg(gnupg, "--with-colons", "--fingerprint", "--list-keys", ACTOR.value()).stdoutLines().stream()
                .filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
        return new HookedOrigin(tmp, dir, home, gnupg, key);
    }

    /** The served bare repository. */
    Path dir() {
        return dir;
    }

    /** The key home the store was created with. */
    KeyHome home() {
        return home;
    }

    /** The scratch {@code GNUPGHOME} holding alice's secret key. */
    Path gnupg() {
        return gnupg;
    }

    /** The fingerprint of alice's key in {@link #gnupg()}, for {@code user.signingkey} or {@code gpg -u}. */
    String actorKey() {
        return actorKey;
    }

    /** {@code gpg --batch args...} in {@link #gnupg()}; throws unless it exits 0. */
    GitCli.Result gpg(String... args) {
        return gpg(gnupg, args);
    }

    private static GitCli.Result gpg(Path gnupg, String... args) {
        List<String> cmd = new ArrayList<>(List.of("gpg", "--batch"));
        cmd.addAll(List.of(args));
        return GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), null, 60, cmd).ok();
    }

    /** A new bare clone of the origin, whose {@code origin} remote is the served store. */
    Path cloneBare() {
        return clone(tmp.resolve("bare-" + (++clones) + ".git"), "--bare");
    }

    /** A new working clone of the origin, whose {@code origin} remote is the served store. */
    Path cloneWork() {
        return clone(tmp.resolve("work-" + (++clones)));
    }

    private Path clone(Path to, String... options) {
        List<String> cmd = new ArrayList<>(List.of("git", "clone", "-q"));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of(dir.toString(), to.toString()));
        GitCli.run(GitCli.gitEnv(Map.of()), null, 60, cmd).ok();
        return to;
    }

    /** {@code git -C repo args...} with {@link #gnupg()} as {@code GNUPGHOME}, outside the user's git config. */
    GitCli.Result git(Path repo, String... args) {
        return git(repo, Map.of(), args);
    }

    /** {@link #git(Path, String...)} with {@code extra} added to the environment. */
    GitCli.Result git(Path repo, Map<String, String> extra, String... args) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("GNUPGHOME", gnupg.toString());
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        return GitCli.run(GitCli.gitEnv(env), null, 120, cmd);
    }

    /**
     * The whole history of {@code store} audits with exactly {@code rules} (exit 3), and pushing its
     * main to the origin is declined by the hook naming each rule, leaving the origin unchanged.
     *
     * @return the first violation of the audit's JSON report
     */
    JsonNode flaggedAndRefused(Path store, String... rules) {
        return assertFlaggedAndRefused(store, List.of(), rules);
    }

    /** {@link #flaggedAndRefused(Path, String...)} auditing only {@code base..main} of {@code store}. */
    JsonNode flaggedAndRefusedSince(Path store, String base, String... rules) {
        return assertFlaggedAndRefused(store, List.of("--range", base + "..main"), rules);
    }

    private JsonNode assertFlaggedAndRefused(Path store, List<String> scope, String... rules) {
        List<String> args = new ArrayList<>(List.of("audit", "--store", store.toString()));
        args.addAll(scope);
        args.add("--json");
        Run audit = Run.of(args.toArray(String[]::new));
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.AUDIT_VIOLATIONS);
        JsonNode report;
        try {
            report = new ObjectMapper().readTree(audit.out());
        } catch (IOException e) {
            throw new AssertionError(audit.out(), e);
        }
        Set<String> found = new TreeSet<>();
        report.get("violations").forEach(v -> found.add(v.get("rule").asText()));
        assertThat(found).as(audit.out()).containsExactlyInAnyOrder(rules);

        Set<String> before = TestStores.durableState(dir);
        GitCli.Result push = git(store, "push", "origin", "main");
        assertThat(push.exitCode()).as(push.describe()).isNotZero();
        assertThat(push.stderr()).contains("pre-receive hook declined");
        for (String rule : rules) {
            assertThat(push.stderr()).contains("[" + rule + "]");
        }
        assertThat(TestStores.durableState(dir)).isEqualTo(before);
        return report.get("violations").get(0);
    }

    /** The message of a hand-made commit whose trailers say alice did {@code op} to {@code fact}. */
    static String trailers(String op, String fact) {
        return "hand-made commit\n\nPalimpsest-Actor: " + ACTOR.value() + "\nPalimpsest-Op: " + op
                + "\nPalimpsest-Fact: " + fact + "\n";
    }

    /** Stops the gpg agent of {@link #gnupg()}. */
    @Override
    public void close() {
        GitCli.run(Map.of("GNUPGHOME", gnupg.toString()), "gpgconf", "--kill", "all");
    }
}
