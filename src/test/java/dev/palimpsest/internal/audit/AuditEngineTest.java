package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine around the checks: what its observer learns and on which thread, the progress it
 * reports, the order it reports commits in, the ancestry of pins outside an audited range, and
 * what it counts.
 */
class AuditEngineTest {
    private static final FactId SX = FactId.of("sx");

    @TempDir
    Path dir;

    private ForgedCases.Store s;

    @BeforeEach
    void writeHistory() throws Exception {
        s = GateHistory.write(dir);
    }

    @Test
    void theObserverLearnsEveryFactFileAndEveryPinnedVersionTheAuditDecodes() throws Exception {
        ObjectId src = ObjectId.fromString(s.srcBlob().hex());
        ObjectId claim = ObjectId.fromString(s.claimBlob().hex());
        try (GitRepo repo = GitRepo.open(s.gitDir(), false)) {
            AuditEngine engine = new AuditEngine(repo, AuditEngine.standardChecks(repo, true));
            Recorder whole = new Recorder();
            engine.run(null, s.main(), AuditProgress.none(), whole);
            assertThat(whole.facts).containsOnlyKeys(src, claim);
            assertThat(whole.facts.get(claim).id()).isEqualTo(ForgedCases.CLAIM);
            Recorder range = new Recorder();
            engine.run(ObjectId.fromString(s.srcCommit().hex()), s.main(), AuditProgress.none(), range);
            assertThat(range.facts).as("the cited source, decoded for its quote").containsOnlyKeys(src, claim);
            assertThat(range.facts.get(src).id()).isEqualTo(ForgedCases.SRC);
        }
    }

    @Test
    void aForgetIsCheckedAfterTheOtherCommitsByTheThreadThatFinishesTheAudit() throws Exception {
        ObjectId forget = forgetSealed();
        Recorder r = new Recorder();
        try (GitRepo repo = GitRepo.open(s.gitDir(), false)) {
            AuditReport report = new AuditEngine(repo, AuditEngine.standardChecks(repo, true))
                    .run(null, forget, AuditProgress.none(), r);
            assertThat(report.violations()).isEmpty();
        }
        assertThat(r.threads.remove(forget)).isEqualTo(Thread.currentThread().getName());
        assertThat(r.threads).hasSize(4).allSatisfy((c, t) -> assertThat(t).startsWith("palimpsest-audit-"));
    }

    @Test
    void aMergeThatBringsInATombstoneIsStillCheckedWhileStreaming() throws Exception {
        String tombstone = dev.palimpsest.internal.layout.StorePaths.tombstonePath(SX);
        ObjectId side = s.forge().put(tombstone, "a tombstone on a side line").commit(false);
        ObjectId merge = s.forge().put(tombstone, "a tombstone on a side line").parents(s.main(), side).commit();
        Recorder r = new Recorder();
        try (GitRepo repo = GitRepo.open(s.gitDir(), false)) {
            new AuditEngine(repo, AuditEngine.standardChecks(repo, true)).run(null, merge, AuditProgress.none(), r);
        }
        assertThat(r.threads.get(side)).as("the side's forget waits").isEqualTo(Thread.currentThread().getName());
        assertThat(r.threads.get(merge)).as("the forget rules skip a merge").startsWith("palimpsest-audit-");
    }

    @Test
    void theLastProgressCountsEveryCommitThoseCheckedAfterTheOthersToo() throws Exception {
        forgetSealed();
        List<int[]> updates = new ArrayList<>();
        try (Auditor a = Auditor.open(s.gitDir())) {
            a.audit((done, total) -> updates.add(new int[] {done, total}));
        }
        assertThat(updates.get(updates.size() - 1)).containsExactly(5, 5);
    }

    @Test
    void theWorkersOfAStreamDoNotKeepTheVirtualMachineAlive() throws Exception {
        try (GitRepo repo = GitRepo.open(s.gitDir(), false);
                AuditStream stream = new AuditEngine(repo, AuditEngine.standardChecks()).stream(AuditObserver.NONE,
                        repo::newReader)) {
            List<Thread> workers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("palimpsest-audit-") && t.isAlive()).toList();
            assertThat(workers).isNotEmpty().allMatch(Thread::isDaemon);
        }
    }

    @Test
    void commitsAreReportedParentsFirstWhateverTheirDates() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant later = now.plus(Duration.ofDays(400));
        ObjectId parent = claimX(s.forge(), "dated next year").dated(later, later).commit();
        ObjectId child = s.forge().put(ForgedCases.path(FactId.of("fact-y"), Kind.CLAIM), FactCodec.encode(new Fact(
                FactId.of("fact-y"), Kind.CLAIM, "dated before its parent", null, List.of())))
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-y").dated(now, now).commit();
        ObjectId merge = s.forge().parents(parent, child).commit();
        List<String> order = GateHistory.audit(s.gitDir()).violations().stream().map(v -> v.commit().hex())
                .distinct().toList();
        assertThat(order).containsExactly(parent.name(), child.name(), merge.name());
    }

    @Test
    void aPinInARangeToAnEarlierCommitThatDidNotWriteTheVersionIsAMismatch() throws Exception {
        ObjectId c = claimX(s.forge(), "pins the source where the claim was written", new Ref(ForgedCases.SRC,
                RefRole.of("cites"), s.claimCommit(), s.srcBlob(), null)).commit();
        try (Auditor a = Auditor.open(s.gitDir())) {
            List<AuditViolation> vs = a.auditRange(s.claimCommit(), CommitId.of(c.name()), AuditProgress.none())
                    .violations();
            assertThat(vs).extracting(AuditViolation::rule).containsExactly(Rule.PIN_MISMATCH);
            assertThat(vs.get(0).message()).contains("did not write this version");
        }
    }

    @Test
    void aProducedFileIsCountedOnceBesideItsRecord() throws Exception {
        Path f = dir.resolve("a.txt");
        Files.writeString(f, "produced bytes");
        try (Store st = open()) {
            st.files().put(ALICE, ProducedFiles.Put.of("a.txt", f, ForgedCases.SRC));
        }
        try (Auditor a = Auditor.open(s.gitDir())) {
            AuditReport r = a.auditRange(s.claimCommit(), a.resolve("main"), AuditProgress.none());
            assertThat(r.violations()).isEmpty();
            assertThat(r.commits()).isEqualTo(1);
            assertThat(r.files()).as("the record and the content").isEqualTo(2);
        }
    }

    /** Writes a sealed fact and forgets it, through the gate; returns the forget commit. */
    private ObjectId forgetSealed() throws Exception {
        try (Store st = open()) {
            var tx = st.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "Sealed words of sx here.").id(SX).asSensitive());
            tx.commit();
            return ObjectId.fromString(st.erasure().forget(ALICE, List.of(SX), "gone", false).commit().hex());
        }
    }

    private Store open() throws Exception {
        return Store.open(s.gitDir(), s.home(), StoreOptions.defaults().withFsync(false));
    }

    private static Forge claimX(Forge f, String body, Ref... refs) {
        FactId x = FactId.of("fact-x");
        return f.put(ForgedCases.path(x, Kind.CLAIM), FactCodec.encode(new Fact(x, Kind.CLAIM, body, null,
                List.of(refs)))).trailers("alice", "assert", "Palimpsest-Fact", x.value());
    }

    /** Records each fact the audit reports decoding and the thread each commit was checked on. */
    private static final class Recorder implements AuditObserver {
        final Map<ObjectId, Fact> facts = new ConcurrentHashMap<>();
        final Map<ObjectId, String> threads = new ConcurrentHashMap<>();

        @Override
        public void commit(ObjectId commit, List<ObjectId> parents, List<Change> changes) {
            threads.put(commit.copy(), Thread.currentThread().getName());
        }

        @Override
        public void fact(ObjectId blob, Fact fact) {
            facts.put(blob.copy(), fact);
        }
    }
}
