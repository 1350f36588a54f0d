package dev.palimpsest.sync;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Test fixture: a hub store created by alice (who trusts bob and carol), and replicas cloned from
 * it, each signing as its own actor from one shared key home.
 */
final class Replicas {
    static final ActorName ALICE = ActorName.of("alice");
    static final ActorName BOB = ActorName.of("bob");
    static final ActorName CAROL = ActorName.of("carol");
    static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);

    final Path dir;
    final KeyHome home;
    final Path hub;

    /** The replicas of an existing fixture at {@code dir}. */
    Replicas(Path dir) {
        this(dir, new KeyHome(dir.resolve("home")), dir.resolve("hub.git"));
    }

    private Replicas(Path dir, KeyHome home, Path hub) {
        this.dir = dir;
        this.home = home;
        this.hub = hub;
    }

    /** A hub at {@code dir/hub.git} whose history trusts alice, bob and carol. */
    static Replicas create(Path dir) throws Exception {
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path hub = dir.resolve("hub.git");
        try (Store s = Store.initializer(hub).home(home).actor(ALICE).options(OPTIONS).create()) {
            String bob = home.generateKey(BOB, "bob@example.org");
            String carol = home.generateKey(CAROL, "carol@example.org");
            s.begin(ALICE).addKey(BOB, bob, KeyRole.HUMAN).addKey(CAROL, carol, KeyRole.HUMAN).commit();
        }
        return new Replicas(dir, home, hub);
    }

    /** Clones the hub to {@code dir/<name>.git}. */
    Path cloneHub(String name) throws Exception {
        Path to = dir.resolve(name + ".git");
        PullResult r = Replication.cloneStore(hub.toString(), to, OPTIONS, TransferProgress.none());
        if (!(r instanceof PullResult.FastForward)) {
            throw new AssertionError("clone did not fast-forward: " + r);
        }
        return to;
    }

    Store open(Path store) throws Exception {
        return Store.open(store, home, OPTIONS);
    }

    static AuditReport audit(Path gitDir) throws Exception {
        try (Auditor a = Auditor.open(gitDir)) {
            return a.audit(AuditProgress.none());
        }
    }

    static ObjectId tree(Path gitDir) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.resolve("refs/heads/main^{tree}");
        }
    }

    static dev.palimpsest.model.CommitId headId(Path gitDir) throws IOException {
        return dev.palimpsest.model.CommitId.of(head(gitDir).name());
    }

    static ObjectId head(Path gitDir) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.resolve("refs/heads/main");
        }
    }

    /** A plain copy of a store's folder (a replica frozen in its current state). */
    static Path copy(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().endsWith(".lock")) {
                    Files.copy(p, t);
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code git} with arguments in {@code dir}; returns stdout+stderr and the exit code. */
    static Result git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("git " + args[0] + " timed out");
        }
        return new Result(p.exitValue(), out);
    }

    record Result(int code, String output) {}
}
