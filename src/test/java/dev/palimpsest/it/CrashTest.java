package dev.palimpsest.it;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers killed with SIGKILL at random points never lose an acknowledged commit, never corrupt
 * the repository, and never wedge the store for the next writer.
 */
@ExtendWith(Seeds.class)
class CrashTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final int ROUNDS = 25;

    @TempDir
    Path tmp;

    @Test
    void killedWritersLoseNoAcknowledgedCommitAndLeaveTheStoreUsable(Seed seed) throws Exception {
        Random random = seed.random();
        Path store = tmp.resolve("store.git");
        Path home = tmp.resolve("home");
        Store.initializer(store).home(new KeyHome(home)).actor(ALICE).create().close();
        Path refLock = store.resolve("refs/heads/main.lock");

        long started = System.nanoTime();
        Set<String> acknowledged = new LinkedHashSet<>();
        int roundsLeavingRefLock = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ChildJvm child = ChildJvm.start(CrashWriterMain.class, store.toString(), home.toString(), "alice");
            try {
                assertThat(child.awaitLine("ready", 60_000))
                        .as("round %d: child never opened the store; stderr:%n%s", round, child.stderr()).isTrue();
                // the first commit of a JVM loads the signing classes: on a loaded machine it can take
                // longer than the whole kill window, so the window opens once the writer is committing
                assertThat(child.awaitLines(2, 60_000))
                        .as("round %d: the writer never committed; stderr:%n%s", round, child.stderr()).isTrue();
                Thread.sleep(random.nextInt(1401));
                assertThat(child.process().isAlive())
                        .as("round %d: the writer died on its own; stderr:%n%s", round, child.stderr()).isTrue();
            } finally {
                child.kill();
            }
            List<String> lines = child.lines();
            assertThat(lines.get(0)).isEqualTo("ready");
            for (String line : lines.subList(1, lines.size())) {
                assertThat(line).as("round %d: unexpected output", round).matches("[0-9a-f]{40}");
                assertThat(acknowledged.add(line)).as("commit %s acknowledged twice", line).isTrue();
            }
            if (Files.exists(refLock)) {
                roundsLeavingRefLock++;
            }
            System.out.printf("CrashTest round %d at %d ms: %d commits acknowledged%s%n", round,
                    (System.nanoTime() - started) / 1_000_000, lines.size() - 1,
                    Files.exists(refLock) ? ", killed holding refs/heads/main.lock" : "");
        }
        System.out.printf("CrashTest: %d acknowledged commits, %d rounds ended with a ref lock present%n", acknowledged.size(),
                roundsLeavingRefLock);
        assertThat(acknowledged).as("no child ever committed: the test exercised nothing").isNotEmpty();

        GitCli.Result fsck = GitCli.git(store, "fsck", "--strict", "--full", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
        assertThat((fsck.stdout() + "\n" + fsck.stderr()).lines()
                .filter(l -> l.matches("(?i).*(error|missing|corrupt|broken|bad ).*"))).as(fsck.describe()).isEmpty();

        try (Store s = Store.open(store, new KeyHome(home), StoreOptions.defaults())) {
            String before = s.head().hex();
            Transaction tx = s.begin(ALICE);
            FactId fact = tx.assertFact(FactSpec.of(Kind.CLAIM, "written after " + ROUNDS + " crashed writers"));
            CommitResult after = tx.commit();
            assertThat(s.log(1).get(0).parents()).extracting(c -> c.hex()).containsExactly(before);
            assertThat(s.read(fact, after.id())).isInstanceOf(FactRead.Found.class);
            assertThat(refLock).doesNotExist();
        }

        List<String> mainHistory = GitCli.git(store, "rev-list", "main").ok().stdoutLines();
        Set<String> reachable = new HashSet<>(mainHistory);
        for (String c : acknowledged) {
            assertThat(reachable).as("acknowledged commit %s is not on main", c).contains(c);
        }
        String lastAcknowledged = List.copyOf(acknowledged).get(acknowledged.size() - 1);
        GitCli.git(store, "merge-base", "--is-ancestor", lastAcknowledged, "main").ok();
        assertThat(mainHistory).hasSizeGreaterThanOrEqualTo(acknowledged.size() + 2);
        assertThat(GitCli.git(store, "rev-list", "--min-parents=2", "main").ok().stdoutLines()).isEmpty();
    }

    @Test
    void refLockLeftByADeadWriterIsClearedByTheNextWrite() throws Exception {
        Path store = tmp.resolve("store.git");
        Path home = tmp.resolve("home");
        try (Store s = Store.initializer(store).home(new KeyHome(home)).actor(ALICE).create()) {
            String genesis = s.head().hex();
            // what a writer killed between creating and renaming the lock file leaves behind
            Path refLock = store.resolve("refs/heads/main.lock");
            Files.writeString(refLock, "0123456789abcdef0123456789abcdef01234567\n");
            Files.setLastModifiedTime(refLock, FileTime.from(Instant.now().minusSeconds(600)));

            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "the store is not wedged by a dead writer's lock"));
            CommitResult r = tx.commit();

            assertThat(refLock).doesNotExist();
            assertThat(s.head()).isEqualTo(r.id());
            assertThat(s.log(0)).hasSize(2);
            assertThat(s.log(1).get(0).parents()).extracting(c -> c.hex()).containsExactly(genesis);
        }
        GitCli.Result fsck = GitCli.git(store, "fsck", "--strict", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
    }
}
