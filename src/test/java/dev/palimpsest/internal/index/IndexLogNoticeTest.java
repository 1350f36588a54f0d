package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A discarded index log is named on standard error with the exact reason; a log that is reused,
 * whole or with records another process appended, is read as it stands and not rewritten.
 */
class IndexLogNoticeTest {
    @TempDir
    Path dir;
    private Path gitDir;
    private Path logFile;
    private byte[] clean;
    /** Offsets of the records in the clean log, and its length at the end. */
    private final List<Integer> starts = new ArrayList<>();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream saved;

    @BeforeEach
    void writeAStoreAndCaptureStandardError() throws Exception {
        try (Store s = TestStores.init(dir)) {
            write(s, "f0");
            write(s, "f1");
            gitDir = s.gitDir();
        }
        logFile = gitDir.resolve(IndexLog.DIR).resolve(IndexLog.FILE);
        clean = Files.readAllBytes(logFile);
        for (int p = IndexLog.HEADER; p < clean.length; p += 8 + ByteBuffer.wrap(clean).getInt(p)) {
            starts.add(p);
        }
        starts.add(clean.length);
        saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStandardError() {
        System.setErr(saved);
    }

    private static void write(Store s, String id) throws Exception {
        Transaction tx = s.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + id).id(FactId.of(id)));
        tx.commit();
    }

    private byte[] payload(int i) {
        return Arrays.copyOfRange(clean, starts.get(i) + 4, starts.get(i + 1) - 4);
    }

    private String discardNotice(byte[] log) throws Exception {
        Files.write(logFile, log);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.discardedLogs()).isEqualTo(1);
            idx.persist();
        }
        assertThat(Files.readAllBytes(logFile)).isEqualTo(clean);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBadMagicIsDiscardedNamingTheHeader() throws Exception {
        byte[] b = clean.clone();
        b[0] ^= 0x01;
        assertThat(discardNotice(b)).isEqualTo("INFO PredicateIndex - discarded the predicate index " + logFile
                + " (its header is not a version-2 index header); rebuilding it from git" + System.lineSeparator());
    }

    @Test
    void aHeaderNamingALaterCommitAsGenesisIsDiscardedNamingTheFirstRecord() throws Exception {
        byte[] b = clean.clone();
        System.arraycopy(payload(1), 0, b, 8, 20);
        assertThat(discardNotice(b))
                .contains(" (its first record is not the genesis commit its header names); rebuilding it from git");
    }

    @Test
    void aRecordLoggingAnotherFirstParentIsDiscardedNamingTheCommit() throws Exception {
        byte[] p = payload(2);
        System.arraycopy(payload(0), 0, p, 20, 20);
        byte[] framed = CacheLog.frame(p);
        byte[] b = Arrays.copyOf(clean, starts.get(2) + framed.length);
        System.arraycopy(framed, 0, b, starts.get(2), framed.length);
        assertThat(discardNotice(b)).contains(" (it logs another first parent for commit "
                + ObjectId.fromRaw(p).name() + "); rebuilding it from git");
    }

    @Test
    void aLogEndingInARecordWithoutEventsReadsWhole() throws Exception {
        assertThat(payload(0)).as("the genesis changes no fact").hasSize(IndexLog.MIN_RECORD - 8);
        Files.write(logFile, Arrays.copyOf(clean, starts.get(1)));
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PersistedIndex.Contents p = PersistedIndex.read(repo);
            assertThat(p.corrupt()).isFalse();
            assertThat(p.byCommit()).containsOnlyKeys(ObjectId.fromRaw(payload(0)));
        }
    }

    @Test
    void aRepeatedRecordIsSkippedAndTheLogReusedAsItStands() throws Exception {
        byte[] b = Arrays.copyOf(clean, clean.length + starts.get(3) - starts.get(2));
        System.arraycopy(clean, starts.get(2), b, clean.length, starts.get(3) - starts.get(2));
        Files.write(logFile, b);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.discardedLogs()).isZero();
            assertThat(idx.hasUnpersisted()).isFalse();
            assertThat(idx.commitCount()).isEqualTo(3);
            idx.persist();
        }
        assertThat(Files.readAllBytes(logFile)).isEqualTo(b);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void recordsAnotherProcessAppendedToThisProcesssLogAreTakenOnPersistAndItsTornTailCut() throws Exception {
        Files.delete(logFile);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex early = PredicateIndex.open(repo);
            early.persist();
            assertThat(Files.readAllBytes(logFile)).isEqualTo(clean);
            try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
                write(s, "g0");
                write(s, "g1");
            }
            byte[] written = Files.readAllBytes(logFile);
            Files.write(logFile, new byte[] {0, 0, 0}, StandardOpenOption.APPEND);
            assertThat(early.hasUnpersisted()).isFalse();
            early.persist();
            assertThat(Files.readAllBytes(logFile)).isEqualTo(written);
            assertThat(early.indexed(repo.head())).isTrue();
            assertThat(early.commitCount()).isEqualTo(5);
            assertThat(early.hasUnpersisted()).isFalse();
        }
    }

    @Test
    void anEmptyRepositoryHasNothingToPersistAndWritesNoLog() throws Exception {
        try (GitRepo repo = GitRepo.create(dir.resolve("empty.git"), false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.commitCount()).isZero();
            assertThat(idx.hasUnpersisted()).isFalse();
            idx.persist();
            assertThat(repo.gitDir().resolve(IndexLog.DIR)).doesNotExist();
        }
    }
}
