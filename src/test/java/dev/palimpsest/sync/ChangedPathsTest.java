package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.git.ChangedPaths;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit-graph file's changed-path filters ({@link ChangedPaths}) speed up a fact's history
 * without changing it: on replicas that revise, retract and merge concurrently, every fact's history
 * is the same with the file, without it, with a file older than main and with a corrupt one; the
 * file passes git's own checks; a walk that meets many commits the file lacks rewrites it.
 */
class ChangedPathsTest {
    private static final TransferProgress NONE = TransferProgress.none();
    private static final int FACTS = 12;

    @TempDir
    Path dir;

    private Replicas rs;

    @BeforeEach
    void hub() throws Exception {
        rs = Replicas.create(dir);
    }

    @Test
    void historyIsTheSameWithAndWithoutTheFileOnConcurrentlyMergedReplicas() throws Exception {
        Random random = new Random(20261204L);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            s.replication().addRemote(new Remote("peer", b.toString()));
        }
        try (Store s = rs.open(b)) {
            s.replication().addRemote(new Remote("peer", a.toString()));
        }
        for (int round = 0; round < 3; round++) {
            writeRandomly(a, BOB, random, 6);
            writeRandomly(b, CAROL, random, 6);
            try (Store s = rs.open(a)) {
                s.replication().pullAs("peer", ALICE, NONE);
            }
            try (Store s = rs.open(b)) {
                s.replication().pullAs("peer", ALICE, NONE);
            }
        }
        Map<FactId, List<HistoryEntry>> without = histories(a);
        assertThat(without.values().stream().mapToInt(List::size).sum()).as("facts were written").isGreaterThan(FACTS);

        try (GitRepo repo = GitRepo.open(a, false)) {
            assertThat(repo.changedPaths().write()).isTrue();
            assertThat(repo.changedPaths().write()).as("nothing new to hold").isFalse();
        }
        assertThat(histories(a)).isEqualTo(without);
        try (GitRepo repo = GitRepo.open(a, false)) {
            int walked = 0;
            int diffed = 0;
            for (FactId f : without.keySet()) {
                List<String> paths = new ArrayList<>(StorePaths.candidatePaths(f));
                paths.add(StorePaths.tombstonePath(f));
                History.WalkStats st = History.changes(repo, repo.head(), paths, c -> { });
                walked += st.walked();
                diffed += st.diffed();
            }
            assertThat(diffed).as("diffs skipped by the filters, of %d walked", walked).isLessThan(walked / 3);
        }

        writeRandomly(a, BOB, random, 5); // newer than the file: walked with diffs
        Map<FactId, List<HistoryEntry>> later = histories(a);
        try (GitRepo repo = GitRepo.open(a, false)) {
            repo.changedPaths().view(); // loads the file, as a walk would
        }
        assertThat(later.values().stream().mapToInt(List::size).sum())
                .isGreaterThan(without.values().stream().mapToInt(List::size).sum());
        try (GitRepo repo = GitRepo.open(a, false)) {
            assertThat(repo.changedPaths().write()).isTrue();
        }
        assertThat(histories(a)).isEqualTo(later);

        Replicas.Result verify = Replicas.git(a, "commit-graph", "verify");
        assertThat(verify.code()).as(verify.output()).isZero();
        Replicas.Result fsck = Replicas.git(a, "fsck", "--strict");
        assertThat(fsck.code()).as(fsck.output()).isZero();
        Replicas.Result log = Replicas.git(a, "log", "--format=%H", "main", "--", StorePaths.candidatePaths(FactId.of("f0")).get(0));
        assertThat(log.code()).as(log.output()).isZero();
    }

    @Test
    void aCorruptFileIsIgnoredAndReplaced() throws Exception {
        Path a = rs.cloneHub("a");
        writeRandomly(a, BOB, new Random(7), 8);
        Map<FactId, List<HistoryEntry>> without = histories(a);
        Path file = a.resolve("objects/info/commit-graph");
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {'C', 'G', 'P', 'H', 1, 1, 9, 0, 0, 0, 0});
        assertThat(histories(a)).isEqualTo(without);
        try (GitRepo repo = GitRepo.open(a, false)) {
            assertThat(repo.changedPaths().commits()).isZero();
            assertThat(repo.changedPaths().write()).isTrue();
            assertThat(repo.changedPaths().commits()).isGreaterThan(8);
        }
        assertThat(histories(a)).isEqualTo(without);
        assertThat(Replicas.git(a, "commit-graph", "verify").code()).isZero();
    }

    @Test
    void aWalkThatMeetsManyCommitsTheFileLacksRewritesItInTheBackground() throws Exception {
        Path a = cloneWithClaims(ChangedPaths.STALE_AFTER + 2, false);
        Path file = a.resolve("objects/info/commit-graph");
        try (GitRepo repo = GitRepo.open(a, false)) {
            History.WalkStats st = History.changes(repo, repo.head(), StorePaths.candidatePaths(FactId.of("c0")), c -> { });
            assertThat(st.diffed()).isEqualTo(st.walked());
            long deadline = System.currentTimeMillis() + 30_000;
            while (!Files.exists(file) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(file).exists();
            assertThat(repo.changedPaths().commits()).isGreaterThanOrEqualTo(ChangedPaths.STALE_AFTER + 2);
            History.WalkStats after = History.changes(repo, repo.head(), StorePaths.candidatePaths(FactId.of("c0")), c -> { });
            assertThat(after.walked()).isEqualTo(st.walked());
            assertThat(after.diffed()).isLessThan(5);
        }
        try (GitRepo repo = GitRepo.openForReading(a, Map.of())) {
            Files.delete(file);
            assertThat(repo.changedPaths().write()).as("never written through a hook's view").isFalse();
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void aRepositoryClosedRightAfterTheWalkThatStartedARewriteLeavesTheFileBehind() throws Exception {
        Path a = cloneWithClaims(ChangedPaths.STALE_AFTER + 2, false);
        try (Store s = rs.open(a)) {
            s.history(FactId.of("c0")); // what a one-shot `palimpsest history` does before it exits
        }
        try (GitRepo repo = GitRepo.open(a, false)) {
            assertThat(repo.changedPaths().commits()).isGreaterThanOrEqualTo(ChangedPaths.STALE_AFTER + 2);
        }
    }

    @Test
    void concurrentHistoryProcessesWriteOneValidFileAndAnswerAlike() throws Exception {
        Path a = cloneWithClaims(ChangedPaths.STALE_AFTER + 6, true);
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> running = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            running.add(new ProcessBuilder(jvm, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    dev.palimpsest.cli.Main.class.getName(), "history", "c2", "--json", "--embedder", "none",
                    "--store", a.toString(), "--home", dir.resolve("home").toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start());
        }
        List<String> outputs = new ArrayList<>();
        for (Process p : running) {
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            outputs.add(out);
        }
        assertThat(outputs).allSatisfy(o -> assertThat(o).isEqualTo(outputs.get(0)).contains("revised"));
        try (GitRepo repo = GitRepo.open(a, false)) {
            assertThat(repo.changedPaths().commits()).isGreaterThanOrEqualTo(ChangedPaths.STALE_AFTER + 6);
        }
        try (var left = Files.list(a.resolve("objects/info"))) {
            assertThat(left.map(f -> f.getFileName().toString())).containsExactly("commit-graph");
        }
        Replicas.Result verify = Replicas.git(a, "commit-graph", "verify");
        assertThat(verify.code()).as(verify.output()).isZero();
        try (Store s = rs.open(a)) {
            assertThat(s.history(FactId.of("c2"))).hasSize(2);
        }
    }

    @Test
    void historiesReadWhileAnotherRepositoryRewritesTheFileAreUnchanged() throws Exception {
        Path a = rs.cloneHub("a");
        writeRandomly(a, BOB, new Random(11), 30);
        Map<FactId, List<HistoryEntry>> expected = histories(a);
        Path file = a.resolve("objects/info/commit-graph");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger rewrites = new java.util.concurrent.atomic.AtomicInteger();
        Thread writer = new Thread(() -> {
            try (GitRepo repo = GitRepo.open(a, false)) {
                while (!stop.get()) {
                    Files.deleteIfExists(file);
                    if (repo.changedPaths().write()) {
                        rewrites.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        writer.start();
        try {
            for (int i = 0; i < 15; i++) {
                assertThat(histories(a)).isEqualTo(expected);
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertThat(rewrites.get()).as("the file was rewritten meanwhile").isGreaterThan(1);
    }

    /**
     * A clone of the hub with {@code commits} one-claim commits by bob ({@code c0}, {@code c1}, ...),
     * every fifth also revising the claim two before it when {@code revise}.
     */
    private Path cloneWithClaims(int commits, boolean revise) throws Exception {
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(a)) {
            for (int i = 0; i < commits; i++) {
                var tx = s.begin(BOB);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "claim " + i).id(FactId.of("c" + i)));
                if (revise && i % 5 == 4) {
                    tx.revise(FactId.of("c" + (i - 2)), "claim " + (i - 2) + ", revised", List.of());
                }
                tx.commit();
            }
        }
        return a;
    }

    private void writeRandomly(Path store, ActorName who, Random random, int commits) throws Exception {
        try (Store s = rs.open(store)) {
            for (int i = 0; i < commits; i++) {
                FactId f = FactId.of("f" + random.nextInt(FACTS));
                FactRead now = read(s, f);
                if (now instanceof FactRead.Retracted) {
                    f = FactId.of("f" + random.nextInt(FACTS));
                    now = read(s, f);
                    if (now instanceof FactRead.Retracted) {
                        continue;
                    }
                }
                var tx = s.begin(who);
                if (!(now instanceof FactRead.Found)) {
                    tx.assertFact(FactSpec.of(Kind.CLAIM, who + " says " + random.nextInt(1000)).id(f));
                } else if (random.nextInt(3) == 0) {
                    tx.retract(f, "wrong, says " + who);
                } else {
                    tx.revise(f, who + " revises to " + random.nextInt(1000), List.of());
                }
                tx.commit();
            }
        }
    }

    /** The fact at main's tip, or null when it was never written. */
    private static FactRead read(Store s, FactId f) throws Exception {
        try {
            return s.read(f, s.head());
        } catch (dev.palimpsest.model.NotFoundException never) {
            return null;
        }
    }

    private Map<FactId, List<HistoryEntry>> histories(Path store) throws Exception {
        Map<FactId, List<HistoryEntry>> out = new LinkedHashMap<>();
        try (Store s = rs.open(store)) {
            for (int i = 0; i < FACTS; i++) {
                FactId f = FactId.of("f" + i);
                try {
                    out.put(f, s.history(f));
                } catch (dev.palimpsest.model.NotFoundException never) {
                    out.put(f, List.of());
                }
            }
        }
        return out;
    }
}
