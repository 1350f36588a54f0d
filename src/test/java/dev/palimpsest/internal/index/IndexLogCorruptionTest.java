package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each field of the predicate index log, corrupted deterministically: a bad header or a log that
 * git does not vouch for is discarded and rebuilt; a bad record cuts the tail there and the index
 * catches up from git; a clean log is reused as it stands. Every case ends with the log byte for
 * byte as a clean write leaves it.
 */
class IndexLogCorruptionTest {
    private static final int FACTS = 5;

    @TempDir
    static Path built;
    private static Path builtGitDir;

    @TempDir
    Path dir;
    private Path gitDir;
    private Path logFile;
    private byte[] clean;
    /** Offsets of the records in the clean log, and its length at the end. */
    private final List<Integer> starts = new ArrayList<>();

    @BeforeAll
    static void writeAStore() throws Exception {
        try (Store s = TestStores.init(built)) {
            for (int i = 0; i < FACTS; i++) {
                Transaction tx = s.begin(TestStores.ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + i).id(FactId.of("f" + i)));
                tx.commit();
            }
            builtGitDir = s.gitDir();
        }
    }

    @BeforeEach
    void copyTheStore() throws Exception {
        try (Stream<Path> files = Files.walk(built)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Path to = dir.resolve(built.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
                } else {
                    Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        gitDir = dir.resolve(built.relativize(builtGitDir).toString());
        logFile = gitDir.resolve(IndexLog.DIR).resolve(IndexLog.FILE);
        clean = Files.readAllBytes(logFile);
        ByteBuffer b = ByteBuffer.wrap(clean);
        int p = IndexLog.HEADER;
        while (p < clean.length) {
            starts.add(p);
            p += 8 + b.getInt(p);
        }
        assertThat(p).isEqualTo(clean.length);
        starts.add(p);
    }

    private int commits() {
        return starts.size() - 1;
    }

    private record Opened(int discarded, boolean unpersisted, int commits, int chains, byte[] afterPersist) {}

    private Opened reopen(byte[] log) throws Exception {
        Files.write(logFile, log);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            Opened o = new Opened(idx.discardedLogs(), idx.hasUnpersisted(), idx.commitCount(), idx.chains(), null);
            idx.persist();
            assertThat(idx.hasUnpersisted()).isFalse();
            assertThat(idx.state(FactId.of("f" + (FACTS - 1)), repo.head()).live()).isTrue();
            return new Opened(o.discarded, o.unpersisted, o.commits, o.chains, Files.readAllBytes(logFile));
        }
    }

    private void assertRebuilt(byte[] log) throws Exception {
        Opened o = reopen(log);
        assertThat(o.discarded()).as("discarded").isEqualTo(1);
        assertThat(o.unpersisted()).isTrue();
        assertThat(o.commits()).isEqualTo(commits());
        assertThat(o.afterPersist()).isEqualTo(clean);
    }

    private void assertTailCut(byte[] log) throws Exception {
        Opened o = reopen(log);
        assertThat(o.discarded()).as("discarded").isZero();
        assertThat(o.unpersisted()).isTrue();
        assertThat(o.commits()).isEqualTo(commits());
        assertThat(o.afterPersist()).isEqualTo(clean);
    }

    private byte[] copy() {
        return clean.clone();
    }

    private byte[] cut(int length) {
        return Arrays.copyOf(clean, length);
    }

    private byte[] withRecord(int i, byte[] framed) {
        byte[] out = new byte[clean.length - (starts.get(i + 1) - starts.get(i)) + framed.length];
        System.arraycopy(clean, 0, out, 0, starts.get(i));
        System.arraycopy(framed, 0, out, starts.get(i), framed.length);
        System.arraycopy(clean, starts.get(i + 1), out, starts.get(i) + framed.length, clean.length - starts.get(i + 1));
        return out;
    }

    private byte[] payload(int i) {
        return Arrays.copyOfRange(clean, starts.get(i) + 4, starts.get(i + 1) - 4);
    }

    @Test
    void aCleanLogIsReusedNotRebuiltAndLeftUnchanged() throws Exception {
        assertThat(commits()).isEqualTo(FACTS + 1);
        Opened o = reopen(clean);
        assertThat(o.discarded()).isZero();
        assertThat(o.unpersisted()).isFalse();
        assertThat(o.commits()).isEqualTo(commits());
        assertThat(o.afterPersist()).isEqualTo(clean);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PersistedIndex.Contents p = PersistedIndex.read(repo);
            assertThat(p.corrupt()).isFalse();
            assertThat(p.byCommit()).hasSize(commits());
        }
    }

    @Test
    void linearHistoryIsOneChainSoALookupIsOneSearch() throws Exception {
        Opened o = reopen(clean);
        assertThat(o.chains()).isEqualTo(1);
        Files.delete(logFile);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.chains()).isEqualTo(1);
            assertThat(idx.commitCount()).isEqualTo(commits());
        }
        try (Store s = Store.open(gitDir, new dev.palimpsest.api.KeyHome(dir.resolve("home")),
                dev.palimpsest.model.StoreOptions.defaults())) {
            for (int i = 0; i < 3; i++) {
                Transaction tx = s.begin(TestStores.ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "more " + i).id(FactId.of("g" + i)));
                tx.commit();
            }
        }
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.discardedLogs()).isZero();
            assertThat(idx.hasUnpersisted()).isFalse();
            assertThat(idx.commitCount()).isEqualTo(commits() + 3);
            assertThat(idx.chains()).isEqualTo(1);
        }
    }

    @Test
    void aMissingLogIsBuiltWithoutCountingADiscard() throws Exception {
        Files.delete(logFile);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.discardedLogs()).isZero();
            assertThat(idx.hasUnpersisted()).isTrue();
            idx.persist();
        }
        assertThat(Files.readAllBytes(logFile)).isEqualTo(clean);
    }

    @Test
    void aBadMagicIsDiscardedAndRebuilt() throws Exception {
        for (int i = 0; i < 4; i++) {
            byte[] b = copy();
            b[i] ^= 0x01;
            assertRebuilt(b);
        }
    }

    @Test
    void anotherVersionIsDiscardedAndRebuiltAndReadsAsAbsentForAudits() throws Exception {
        for (int v : new int[] {2, 4}) {
            byte[] b = copy();
            ByteBuffer.wrap(b).putInt(4, v);
            Files.write(logFile, b);
            try (GitRepo repo = GitRepo.open(gitDir, false)) {
                PersistedIndex.Contents p = PersistedIndex.read(repo);
                assertThat(p.corrupt()).isFalse();
                assertThat(p.byCommit()).isEmpty();
            }
            assertRebuilt(b);
        }
    }

    @Test
    void aLogShorterThanItsHeaderIsDiscarded() throws Exception {
        assertRebuilt(cut(IndexLog.HEADER - 1));
        assertRebuilt(cut(7));
    }

    @Test
    void aHeaderOnlyLogIsCaughtUpFromGitNotDiscarded() throws Exception {
        assertTailCut(cut(IndexLog.HEADER));
    }

    @Test
    void anotherGenesisIsDiscardedAndRebuilt() throws Exception {
        for (int at : new int[] {8, 27}) {
            byte[] b = copy();
            b[at] ^= 0x40;
            assertRebuilt(b);
        }
    }

    @Test
    void aLengthRunningPastTheEndCutsTheTail() throws Exception {
        int last = commits() - 1;
        byte[] b = copy();
        ByteBuffer.wrap(b).putInt(starts.get(last), starts.get(last + 1) - starts.get(last) - 8 + 1);
        assertTailCut(b);
        b = copy();
        ByteBuffer.wrap(b).putInt(starts.get(2), Integer.MAX_VALUE);
        assertTailCut(b);
    }

    @Test
    void aZeroOrNegativeLengthCutsTheTail() throws Exception {
        for (int len : new int[] {0, -1, Integer.MIN_VALUE}) {
            byte[] b = copy();
            ByteBuffer.wrap(b).putInt(starts.get(3), len);
            assertTailCut(b);
        }
    }

    @Test
    void aRecordTornInItsLengthBodyOrCrcCutsTheTail() throws Exception {
        int last = commits() - 1;
        int s = starts.get(last);
        int e = starts.get(last + 1);
        for (int length : new int[] {s + 1, s + 4, s + 8, s + (e - s) / 2, e - 4, e - 2, e - 1}) {
            assertTailCut(cut(length));
        }
    }

    @Test
    void aCrcMismatchInTheBodyOrTheCrcCutsTheTail() throws Exception {
        int mid = 2;
        byte[] b = copy();
        b[starts.get(mid + 1) - 1] ^= 0x01;
        assertTailCut(b);
        b = copy();
        b[starts.get(mid) + 4 + 20] ^= 0x01;
        assertTailCut(b);
        b = copy();
        b[starts.get(mid + 1) - 5] ^= 0x01;
        assertTailCut(b);
    }

    @Test
    void aWellFramedRecordThatDoesNotDecodeCutsTheTail() throws Exception {
        int last = commits() - 1;
        byte[] p = payload(last);
        // commit, first parent, event count, then the fact id (modified UTF-8) and its state byte
        int state = 20 + 20 + 4 + 2 + ByteBuffer.wrap(p).getShort(44);
        assertThat(p[state]).isEqualTo((byte) 1);
        p[state] = 3;
        assertTailCut(withRecord(last, CacheLog.frame(p)));
        p = payload(last);
        assertTailCut(withRecord(last, CacheLog.frame(Arrays.copyOf(p, p.length - 1))));
    }

    @Test
    void aDroppedMiddleRecordIsAGapAndTheLogIsRewrittenInOrder() throws Exception {
        byte[] b = new byte[clean.length - (starts.get(3) - starts.get(2))];
        System.arraycopy(clean, 0, b, 0, starts.get(2));
        System.arraycopy(clean, starts.get(3), b, starts.get(2), clean.length - starts.get(3));
        assertTailCut(b);
    }

    @Test
    void aRecordOfACommitThisStoreDoesNotHaveIsDiscarded() throws Exception {
        int last = commits() - 1;
        byte[] p = payload(last);
        ObjectId.fromString("0123456789abcdef0123456789abcdef01234567").copyRawTo(p, 0);
        assertRebuilt(withRecord(last, CacheLog.frame(p)));
    }

    @Test
    void aRecordLoggingAnotherFirstParentIsDiscarded() throws Exception {
        int last = commits() - 1;
        byte[] p = payload(last);
        byte[] prev = payload(last - 2);
        System.arraycopy(prev, 0, p, 20, 20);
        assertRebuilt(withRecord(last, CacheLog.frame(p)));
    }

    @Test
    void aHeaderNamingAnotherCommitOfTheStoreAsGenesisIsDiscarded() throws Exception {
        byte[] b = copy();
        System.arraycopy(payload(1), 0, b, 8, 20);
        assertRebuilt(b);
    }

    @Test
    void aFirstRecordWithAFirstParentIsAGapAndTheLogIsRewritten() throws Exception {
        byte[] p = payload(0);
        System.arraycopy(payload(1), 0, p, 20, 20);
        assertTailCut(withRecord(0, CacheLog.frame(p)));
    }

    @Test
    void auditsReadATornLogAsCorruptAndKeepItsGoodRecords() throws Exception {
        Files.write(logFile, cut(clean.length - 1));
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PersistedIndex.Contents p = PersistedIndex.read(repo);
            assertThat(p.corrupt()).isTrue();
            assertThat(p.byCommit()).hasSize(commits() - 1);
        }
        byte[] b = copy();
        b[0] ^= 1;
        Files.write(logFile, b);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PersistedIndex.Contents p = PersistedIndex.read(repo);
            assertThat(p.corrupt()).isTrue();
            assertThat(p.byCommit()).isEmpty();
        }
    }

    @Test
    void aFolderInPlaceOfTheLogKeepsTheIndexInMemory() throws Exception {
        Files.delete(logFile);
        Files.createDirectory(logFile);
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.commitCount()).isEqualTo(commits());
            assertThat(idx.hasUnpersisted()).isFalse();
            idx.persist();
            assertThat(PersistedIndex.read(repo).byCommit()).isEmpty();
            PersistedIndex.discard(repo);
        }
        assertThat(logFile).isDirectory();
    }

    @Test
    void discardingDeletesTheLogSoTheNextOpenRebuildsIt() throws Exception {
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PersistedIndex.discard(repo);
            assertThat(logFile).doesNotExist();
            PersistedIndex.discard(repo);
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.hasUnpersisted()).isTrue();
            idx.persist();
        }
        assertThat(Files.readAllBytes(logFile)).isEqualTo(clean);
    }

    @Test
    void questionsAreAnsweredByFirstParentPosition() throws Exception {
        ObjectId unknown = ObjectId.fromString("0123456789abcdef0123456789abcdef01234567");
        ObjectId c1 = ObjectId.fromRaw(payload(1));
        ObjectId c3 = ObjectId.fromRaw(payload(3));
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex idx = PredicateIndex.open(repo);
            assertThat(idx.onFirstParentChain(c1, c3)).isTrue();
            assertThat(idx.onFirstParentChain(c3, c3)).isTrue();
            assertThat(idx.onFirstParentChain(c3, c1)).isFalse();
            assertThat(idx.onFirstParentChain(unknown, c3)).isFalse();
            assertThat(idx.onFirstParentChain(c1, unknown)).isFalse();
            assertThat(idx.indexed(c3)).isTrue();
            assertThat(idx.indexed(unknown)).isFalse();
            assertThat(idx.genesis()).isEqualTo(ObjectId.fromRaw(payload(0)));
            FactId f2 = FactId.of("f2");
            assertThat(idx.events(f2)).extracting(FactState::changedAt).containsExactly(c3);
            assertThat(idx.events(FactId.of("nope"))).isEmpty();
            assertThat(idx.state(f2, c1)).isNull();
            assertThat(idx.state(f2, c3).live()).isTrue();
            assertThat(idx.existing(f2, c3).versionCommit()).isEqualTo(c3);
            assertThat(idx.existing(f2, c1)).isNull();
            assertThat(idx.eventsAt(f2, c3)).hasSize(1);
            assertThat(idx.eventsAt(f2, c1)).isEmpty();
            List<String> ids = new ArrayList<>();
            assertThat(idx.eventsSince(2, (id, st) -> ids.add(id))).isEqualTo(commits());
            assertThat(ids).containsExactly("f1", "f2", "f3", "f4");
        }
    }

    @Test
    void recordsAnotherProcessAppendedAreReadNotWrittenTwice() throws Exception {
        try (GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex early = PredicateIndex.open(repo);
            try (Store s = Store.open(gitDir, new dev.palimpsest.api.KeyHome(dir.resolve("home")),
                    dev.palimpsest.model.StoreOptions.defaults())) {
                for (int i = 0; i < 2; i++) {
                    Transaction tx = s.begin(TestStores.ALICE);
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "later " + i).id(FactId.of("h" + i)));
                    tx.commit();
                }
            }
            byte[] written = Files.readAllBytes(logFile);
            assertThat(written.length).isGreaterThan(clean.length);
            early.catchUp(repo.head());
            assertThat(early.hasUnpersisted()).isTrue();
            early.persist();
            assertThat(Files.readAllBytes(logFile)).isEqualTo(written);
            assertThat(early.hasUnpersisted()).isFalse();
            assertThat(early.commitCount()).isEqualTo(commits() + 2);
        }
    }
}
