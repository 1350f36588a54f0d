package dev.palimpsest.it;

import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.LogEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers racing on one store, as threads sharing a {@link Store} and as separate processes, all
 * land: no lost commit, no failed writer, a linear history that git accepts.
 */
class ConcurrencyTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final StoreOptions OPTS = StoreOptions.defaults().withFsync(false);

    @TempDir
    Path tmp;

    @Test
    void fourThreadsSharingOneStoreLandEveryCommitOnALinearHistory() throws Exception {
        Path dir = tmp.resolve("store.git");
        int threads = 4;
        int perThread = 25;
        try (Store store = Store.initializer(dir)
                .home(new KeyHome(tmp.resolve("home"))).actor(ALICE).options(OPTS).create()) {
            CommitId genesis = store.head();
            Set<String> landed = ConcurrentHashMap.newKeySet();
            Set<FactId> facts = ConcurrentHashMap.newKeySet();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            try {
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            Transaction tx = store.begin(ALICE);
                            facts.add(tx.assertFact(FactSpec.of(Kind.CLAIM, "thread " + thread + " fact " + i)));
                            assertThat(landed.add(tx.commit().id().hex())).isTrue();
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : futures) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(landed).hasSize(threads * perThread);
            assertThat(facts).hasSize(threads * perThread);
            List<LogEntry> log = store.log(0);
            assertThat(log).hasSize(1 + threads * perThread);
            assertLinear(log, genesis);
            Set<String> onMain = new HashSet<>();
            log.forEach(e -> onMain.add(e.commit().hex()));
            assertThat(onMain).containsAll(landed);
            for (FactId f : facts) {
                assertThat(store.factLiveAtCommit(f, store.head())).as("fact %s live at head", f).isTrue();
            }
        }
        assertThat(GitCli.git(dir, "rev-list", "--count", "main").ok().stdout().strip())
                .isEqualTo(String.valueOf(1 + threads * perThread));
    }

    @Test
    void twoChildProcessesAndTheParentWritingAtOnceAllLand() throws Exception {
        Path dir = tmp.resolve("store.git");
        Path home = tmp.resolve("home");
        int count = 30;
        CommitId genesis;
        try (Store s = Store.initializer(dir).home(new KeyHome(home)).actor(ALICE).options(OPTS).create()) {
            genesis = s.head();
        }
        List<ChildJvm> children = new ArrayList<>();
        for (String label : List.of("child-a", "child-b")) {
            children.add(ChildJvm.start(WriterMain.class, dir.toString(), home.toString(), String.valueOf(count), label));
        }
        List<String> parentIds = new ArrayList<>();
        List<Integer> exitCodes = new ArrayList<>();
        try (Store store = Store.open(dir, new KeyHome(home), OPTS)) {
            store.begin(ALICE); // load the key before the race starts
            for (ChildJvm c : children) {
                assertThat(c.awaitLine("ready", 60_000)).as("child never got ready; stderr:%n%s", c.stderr()).isTrue();
            }
            children.forEach(c -> c.send("go"));
            for (int i = 0; i < count; i++) {
                Transaction tx = store.begin(ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + i + " written by the parent"));
                parentIds.add(tx.commit().id().hex());
            }
            for (ChildJvm c : children) {
                exitCodes.add(c.waitFor(120));
            }
        } finally {
            for (ChildJvm c : children) {
                if (c.process().isAlive()) {
                    c.kill();
                }
            }
        }

        Set<String> acknowledged = new HashSet<>(parentIds);
        for (int i = 0; i < children.size(); i++) {
            ChildJvm c = children.get(i);
            assertThat(exitCodes.get(i)).as("writer exit code; stderr:%n%s", c.stderr()).isZero();
            List<String> ids = c.lines().subList(1, c.lines().size());
            assertThat(ids).hasSize(count).allMatch(l -> l.matches("[0-9a-f]{40}"));
            acknowledged.addAll(ids);
        }
        assertThat(acknowledged).hasSize(3 * count);

        List<String> main = GitCli.git(dir, "rev-list", "main").ok().stdoutLines();
        assertThat(main).hasSize(3 * count + 1).containsAll(acknowledged).endsWith(genesis.hex());
        assertThat(GitCli.git(dir, "rev-list", "--min-parents=2", "main").ok().stdoutLines()).isEmpty();
        List<String> writers = GitCli.git(dir, "log", "--reverse", "--format=%s", "main").ok().stdoutLines().stream()
                .skip(1).map(subject -> subject.substring(subject.lastIndexOf(' ') + 1)).toList();
        assertThat(writers).containsOnly("parent", "child-a", "child-b");
        long switches = java.util.stream.IntStream.range(1, writers.size())
                .filter(i -> !writers.get(i).equals(writers.get(i - 1))).count();
        System.out.println("ConcurrencyTest: the writer changed " + switches + " times along main");
        List<String> factFiles = GitCli.git(dir, "ls-tree", "-r", "--name-only", "main", "facts/").ok().stdoutLines();
        assertThat(factFiles).hasSize(3 * count);

        GitCli.Result fsck = GitCli.git(dir, "fsck", "--strict", "--full", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
        assertThat((fsck.stdout() + "\n" + fsck.stderr()).lines()
                .filter(l -> l.matches("(?i).*(error|warning|missing|corrupt|broken|bad ).*"))).as(fsck.describe())
                .isEmpty();

        try (Store store = Store.open(dir, new KeyHome(home), OPTS)) {
            assertLinear(store.log(0), genesis);
        }
    }

    /** Newest first: each entry's only parent is the next entry, ending at genesis. */
    private static void assertLinear(List<LogEntry> log, CommitId genesis) {
        for (int i = 0; i < log.size() - 1; i++) {
            assertThat(log.get(i).parents()).as("parents of %s", log.get(i).commit())
                    .containsExactly(log.get(i + 1).commit());
        }
        LogEntry last = log.get(log.size() - 1);
        assertThat(last.commit()).isEqualTo(genesis);
        assertThat(last.parents()).isEmpty();
    }
}
