package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.cli.Run;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.testing.Forgery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The floor {@code bench pull} prints: every signature of the range verified, every object hashed. */
class PullFloorTest {
    private static final ActorName ACTOR = ActorName.of("bench");
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);

    @TempDir
    Path dir;

    private Path origin;
    private ObjectId behind;

    @BeforeEach
    void originAheadOfAReplica() throws Exception {
        origin = dir.resolve("origin.git");
        Path replica = dir.resolve("behind.git");
        try (Store s = Store.initializer(origin).home(new KeyHome(dir.resolve("home"))).actor(ACTOR).options(OPTIONS)
                .create()) {
            Replication.cloneStore(origin.toString(), replica, OPTIONS, TransferProgress.none());
            for (int i = 0; i < 12; i++) {
                Transaction t = s.begin(ACTOR);
                t.assertFact(FactSpec.of(Kind.SOURCE, "source number " + i));
                t.commit();
            }
        }
        try (GitRepo g = GitRepo.open(replica, false)) {
            behind = g.head();
        }
    }

    @Test
    void theFloorVerifiesEverySignatureAndHashesEveryObjectOfTheRange() throws Exception {
        PullFloor.Result r = new PullFloor(origin, behind, "keys/bench.asc").measure(2);
        String[] objects = git(null, "rev-list", "--objects", behind.name() + "..main").split("\n");
        String ids = Arrays.stream(objects).map(l -> l.split(" ")[0]).collect(Collectors.joining("\n", "", "\n"));
        String sizes = git(ids, "cat-file", "--batch-check=%(objectsize)").strip();
        assertThat(r.signatures()).isEqualTo(12);
        assertThat(r.objects()).isEqualTo(objects.length);
        assertThat(r.bytes()).isEqualTo(sizes.lines().mapToLong(Long::parseLong).sum());
        assertThat(r.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(r.wallSeconds()).isPositive();
        assertThat(r.signatureCpuSeconds()).isPositive();
        assertThat(PullFloor.describe(r)).startsWith("12 signatures verified and " + objects.length + " objects");
    }

    @Test
    void aRangeWithACommitThatDoesNotVerifyHasNoFloor() throws Exception {
        Forgery.unsignedCommitOnMain(origin, "bench");
        PullFloor f = new PullFloor(origin, behind, "keys/bench.asc");
        assertThatThrownBy(() -> f.measure(1)).isInstanceOf(IOException.class).hasMessageContaining("does not verify");
    }

    @Test
    void benchPullPrintsTheFloorBesideThePulls() throws Exception {
        Run r = Run.of("bench", "pull", "--commits", "20", "--warmup", "0", "--runs", "1", "--no-git", "--dir", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("pull 1: 20 commits fetched, audited and adopted")
                .containsPattern("floor \\(the work no audited pull can skip, best of 3, this JVM\\): 20 signatures"
                        + " verified and \\d+ objects")
                .containsPattern("floor \\d+\\.\\d\\d s: the pull p50 is \\d+\\.\\dx its floor");
        Run j = Run.of("bench", "pull", "--commits", "20", "--warmup", "0", "--runs", "1", "--no-git", "--dir", dir.toString(), "--json");
        assertThat(j.code()).as(j.err()).isZero();
        assertThat(j.json().get("floorSeconds").asDouble()).isPositive();
    }

    @Test
    void warmUpPullsArePrintedAndLeftOutOfTheTimedOnes() throws Exception {
        Run r = Run.of("bench", "pull", "--commits", "20", "--warmup", "2", "--runs", "1", "--no-git", "--json",
                "--dir", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("warm-up pull 1: 20 commits", "warm-up pull 2: 20 commits", "  pull 1: 20 commits")
                .doesNotContain("warm-up pull 3", "  pull 2:");
        assertThat(r.json().get("warmup").asInt()).isEqualTo(2);
        assertThat(r.json().get("backToBack").asBoolean()).isFalse();
        assertThat(r.json().get("runs").asInt()).isEqualTo(1);
        assertThat(r.json().get("medianPullSeconds").asDouble()).isPositive();
        Run b2b = Run.of("bench", "pull", "--commits", "20", "--warmup", "0", "--runs", "2", "--no-git", "--back-to-back",
                "--dir", dir.toString());
        assertThat(b2b.code()).as(b2b.err()).isZero();
        assertThat(b2b.out()).contains("2 runs after 0 warm-up, back to back: p50");
        Path untouched = Files.createDirectory(dir.resolve("untouched"));
        Run bad = Run.of("bench", "pull", "--warmup", "-1", "--dir", untouched.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--warmup must be 0 or more");
        try (var left = Files.list(untouched)) {
            assertThat(left).as("nothing built for a refused command line").isEmpty();
        }
    }

    /** Runs git in the origin with {@code input} (null: none) on its standard input; its standard output. */
    private String git(String input, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "--git-dir=" + origin));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        if (input != null) {
            p.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", cmd)).isZero();
        return out;
    }
}
