package dev.palimpsest.internal.index;

import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The persisted index is bound to its store and to history git can vouch for; anything else is rebuilt. */
class ForeignIndexTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream saved;

    @BeforeEach
    void captureStandardError() {
        saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStandardError() {
        System.setErr(saved);
    }

    @Test
    void anotherStoresIndexCopiedInIsDiscardedAndRebuiltAndReadsAndWritesWork() throws Exception {
        Path a = build(dir.resolve("a"), "a", 3);
        Path b = build(dir.resolve("b"), "b", 5);
        Files.copy(log(b), log(a), StandardCopyOption.REPLACE_EXISTING);
        try (Store s = open(a)) {
            assertThat(s.factLiveAtCommit(FactId.of("a2"), s.head())).isTrue();
            assertThatThrownBy(() -> s.factExistsAt(FactId.of("b2"), s.head())).isInstanceOf(NotFoundException.class);
            write(s, "a-after", ALICE);
        }
        assertThat(stderr()).containsOnlyOnce("discarded the predicate index " + log(a)).contains("rebuilding");
        assertThat(new IndexLog(a).read(0).genesis().name()).isEqualTo(genesis(a));
        err.reset();
        try (Store s = open(a)) {
            assertThat(s.factLiveAtCommit(FactId.of("a-after"), s.head())).isTrue();
        }
        assertThat(stderr()).isEmpty();
    }

    @Test
    void anIndexOfCommitsThatWereRewoundAndGarbageCollectedIsDiscardedAndRebuilt() throws Exception {
        Path a = build(dir.resolve("a"), "f", 5);
        Path stale = dir.resolve("stale.log");
        Files.copy(log(a), stale);
        CommitId rewound;
        try (Store s = open(a)) {
            rewound = s.resolve("main~3");
        }
        assertThat(git(a, "update-ref", "refs/heads/main", rewound.hex())).isZero();
        assertThat(git(a, "gc", "-q", "--prune=now")).isZero();
        Files.delete(log(a));
        try (Store s = open(a)) {
            write(s, "g1", ALICE);
            write(s, "g2", ALICE);
        }
        Files.copy(stale, log(a), StandardCopyOption.REPLACE_EXISTING);
        err.reset();
        try (Store s = open(a)) {
            assertThat(s.factLiveAtCommit(FactId.of("g2"), s.head())).isTrue();
            assertThatThrownBy(() -> s.factExistsAt(FactId.of("f4"), s.head())).isInstanceOf(NotFoundException.class);
            write(s, "g3", ALICE);
        }
        assertThat(stderr()).containsOnlyOnce("discarded the predicate index").contains("does not have");
    }

    @Test
    void aFolderInPlaceOfTheLogLeavesWritesWorkingAndIsNeverClaimedDiscarded() throws Exception {
        Path a = build(dir.resolve("a"), "f", 2);
        Files.delete(log(a));
        Files.createDirectories(log(a).resolve("inside"));
        try (Store s = open(a)) {
            write(s, "f-more", ALICE);
            assertThat(s.factLiveAtCommit(FactId.of("f-more"), s.head())).isTrue();
        }
        assertThat(stderr()).contains("is not a regular file").doesNotContain("discarded");
        try (Auditor au = Auditor.open(a)) {
            AuditReport r = au.audit(AuditProgress.none());
            assertThat(r.violations()).isEmpty();
        }
        assertThat(log(a)).isDirectory();
        assertThat(log(a).resolve("inside")).isDirectory();
    }

    @Test
    void aLogOfTheOlderFormatIsNoAuditViolationAndIsDiscardedAndRebuiltOnOpen() throws Exception {
        Path a = build(dir.resolve("a"), "f", 2);
        byte[] v1 = {0x50, 0x49, 0x44, 0x58, 0, 0, 0, 1};
        Files.write(log(a), v1);
        try (Auditor au = Auditor.open(a)) {
            assertThat(au.audit(AuditProgress.none()).violations()).isEmpty();
        }
        try (Store s = open(a)) {
            assertThat(s.factLiveAtCommit(FactId.of("f1"), s.head())).isTrue();
        }
        assertThat(stderr()).containsOnlyOnce("discarded the predicate index");
        assertThat(new IndexLog(a).read(0).headerBad()).isFalse();
    }

    private static final ActorName ALICE = TestStores.ALICE;

    private Path build(Path where, String prefix, int facts) throws Exception {
        try (Store s = Store.initializer(where.resolve("store.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE).options(StoreOptions.defaults().withFsync(false)).create()) {
            for (int i = 0; i < facts; i++) {
                write(s, prefix + i, ALICE);
            }
            return s.gitDir();
        }
    }

    private Store open(Path gitDir) throws Exception {
        return Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false));
    }

    private static void write(Store s, String id, ActorName who) throws Exception {
        Transaction tx = s.begin(who);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + id).id(FactId.of(id)));
        tx.commit();
    }

    private static Path log(Path gitDir) {
        return gitDir.resolve(IndexLog.DIR).resolve(IndexLog.FILE);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static String genesis(Path gitDir) throws Exception {
        Process p = new ProcessBuilder("git", "--git-dir=" + gitDir, "rev-list", "--max-parents=0", "main").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static int git(Path gitDir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "--git-dir=" + gitDir));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
