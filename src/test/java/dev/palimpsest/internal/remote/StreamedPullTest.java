package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.testing.Forgery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit of a pull runs while the objects are copied: with packs written every few objects,
 * each commit is checked reading some objects from packs written during the copy and some not yet
 * written, and what it finds is what an audit after the copy finds.
 */
class StreamedPullTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);

    @TempDir
    Path dir;

    private KeyHome home;
    private Path origin;
    private Path behind;

    @BeforeEach
    void stores() throws Exception {
        ObjectCopy.packBytes = 2048;
        home = new KeyHome(dir.resolve("home"));
        origin = dir.resolve("origin.git");
        behind = dir.resolve("behind.git");
        try (Store s = Store.initializer(origin).home(home).actor(ALICE).options(OPTIONS).create()) {
            assertThat(Replication.cloneStore(origin.toString(), behind, OPTIONS, TransferProgress.none()))
                    .isInstanceOf(PullResult.FastForward.class);
        }
    }

    @AfterEach
    void restore() {
        ObjectCopy.packBytes = ObjectCopy.PACK_BYTES;
    }

    @Test
    void aPullThatWritesManyPacksWhileAuditingAdoptsEveryCommitAndAuditsClean() throws Exception {
        write(origin, 0, 48);
        long packsBefore = packs(behind);
        try (Store s = Store.open(behind, home, OPTIONS)) {
            PullResult r = s.replication().pullAs("origin", ALICE, TransferProgress.none());
            assertThat(r).isInstanceOf(PullResult.FastForward.class);
            assertThat(((PullResult.FastForward) r).audited()).isEqualTo(48);
        }
        assertThat(packs(behind) - packsBefore).as("packs written by the copy").isGreaterThan(10);
        assertThat(audit(behind)).isEmpty();
        assertThat(head(behind)).isEqualTo(head(origin));
    }

    @Test
    void aForgedCommitAmongManyIsReportedAloneAndNothingIsAdopted() throws Exception {
        write(origin, 0, 20);
        ObjectId forged = Forgery.unsignedCommitOnMain(origin, "alice");
        write(origin, 20, 20);
        try (Store s = Store.open(behind, home, OPTIONS)) {
            CommitId before = s.head();
            PullResult r = s.replication().pullAs("origin", ALICE, TransferProgress.none());
            assertThat(r).isInstanceOf(PullResult.Refused.class);
            List<AuditViolation> found = ((PullResult.Refused) r).report().violations();
            assertThat(found).extracting(AuditViolation::rule).contains(Rule.UNSIGNED);
            assertThat(found).allMatch(v -> v.commit().hex().equals(forged.name()));
            assertThat(((PullResult.Refused) r).report().commits()).isEqualTo(41);
            assertThat(s.head()).isEqualTo(before);

            // Its objects are held now (quarantine): the next pull copies nothing and audits them anyway.
            PullResult again = s.replication().pullAs("origin", ALICE, TransferProgress.none());
            assertThat(again).isInstanceOf(PullResult.Refused.class);
            assertThat(((PullResult.Refused) again).report().violations()).isEqualTo(found);
            assertThat(s.head()).isEqualTo(before);
        }
    }

    @Test
    void eachCopiedCommitIsAuditedBeforeTheCopyEndsAndNothingStaysInMemory() throws Exception {
        write(origin, 0, 30);
        java.util.concurrent.atomic.AtomicInteger checked = new java.util.concurrent.atomic.AtomicInteger();
        dev.palimpsest.internal.audit.AuditObserver counting = new dev.palimpsest.internal.audit.AuditObserver() {
            @Override
            public void commit(ObjectId commit, List<ObjectId> parents, List<dev.palimpsest.internal.audit.Change> changes) {
                checked.incrementAndGet();
            }

            @Override
            public void fact(ObjectId blob, dev.palimpsest.model.Fact fact) {
            }
        };
        try (dev.palimpsest.internal.git.GitRepo repo = dev.palimpsest.internal.git.GitRepo.open(behind, false)) {
            ObjectId base = repo.head();
            Unflushed unflushed = new Unflushed();
            try (dev.palimpsest.internal.audit.AuditStream audit = new dev.palimpsest.internal.audit.AuditEngine(repo,
                    dev.palimpsest.internal.audit.AuditEngine.standardChecks(repo, false))
                    .stream(counting, () -> unflushed.wrap(repo.newReader()))) {
                Transport.Fetched got = LocalFetch.fetch(repo, origin.toFile(),
                        org.eclipse.jgit.lib.NullProgressMonitor.INSTANCE, audit, unflushed);
                assertThat(got.arrived()).isTrue();
                assertThat(unflushed.size()).as("objects held after the last pack").isZero();
                long until = System.nanoTime() + 20_000_000_000L;
                while (checked.get() < 30 && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                assertThat(checked.get()).as("commits checked before finish").isEqualTo(30);
                List<int[]> progress = new ArrayList<>();
                var report = audit.finish(base, got.tip(), (done, total) -> progress.add(new int[] {done, total}));
                assertThat(report.commits()).isEqualTo(30);
                assertThat(report.violations()).isEmpty();
                assertThat(progress.get(progress.size() - 1)).containsExactly(30, 30);
                assertThat(checked.get()).as("no commit checked twice").isEqualTo(30);
            }
        }
    }

    @Test
    void aRangeHoldingAMergeIsAuditedWholeCommitByCommit() throws Exception {
        Path side = dir.resolve("side.git");
        Path third = dir.resolve("third.git");
        Replication.cloneStore(origin.toString(), side, OPTIONS, TransferProgress.none());
        Replication.cloneStore(origin.toString(), third, OPTIONS, TransferProgress.none());
        write(origin, 0, 3);
        write(side, 100, 2);
        try (Store s = Store.open(side, home, OPTIONS)) {
            assertThat(s.replication().pullAs("origin", ALICE, TransferProgress.none())).isInstanceOf(PullResult.Merged.class);
            s.replication().push("origin", TransferProgress.none());
        }
        try (Store s = Store.open(third, home, OPTIONS)) {
            PullResult r = s.replication().pullAs("origin", ALICE, TransferProgress.none());
            assertThat(r).isInstanceOf(PullResult.FastForward.class);
            assertThat(((PullResult.FastForward) r).audited()).as("3 + 2 commits and the merge").isEqualTo(6);
        }
        assertThat(audit(third)).isEmpty();
    }

    @Test
    void aStreamClosedBeforeItsFinishStopsItsWorkers() throws Exception {
        long before = auditThreads();
        try (dev.palimpsest.internal.git.GitRepo repo = dev.palimpsest.internal.git.GitRepo.open(behind, false)) {
            dev.palimpsest.internal.audit.AuditStream audit = new dev.palimpsest.internal.audit.AuditEngine(repo,
                    dev.palimpsest.internal.audit.AuditEngine.standardChecks(repo, false))
                    .stream(dev.palimpsest.internal.audit.AuditObserver.NONE, repo::newReader);
            assertThat(auditThreads()).isGreaterThan(before);
            audit.close();
            long until = System.nanoTime() + 10_000_000_000L;
            while (auditThreads() > before && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(auditThreads()).isEqualTo(before);
        }
    }

    private static long auditThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("palimpsest-audit-")).count();
    }

    /** {@code n} commits: sources, claims pinned to the latest source, revisions and retractions. */
    private void write(Path store, int from, int n) throws Exception {
        try (Store s = Store.open(store, home, OPTIONS)) {
            List<FactId> claims = new ArrayList<>();
            FactId source = null;
            CommitId sourceAt = null;
            for (int i = from; i < from + n; i++) {
                Transaction t = s.begin(ALICE);
                if (source == null || i % 7 == 0) {
                    source = FactId.of("src-" + i);
                    t.assertFact(FactSpec.of(Kind.SOURCE, "Source " + i + ": the harbour board approved the"
                            + " breakwater by seven votes to two.").id(source));
                    sourceAt = t.commit().id();
                    continue;
                }
                if (i % 9 == 4 && !claims.isEmpty()) {
                    t.revise(claims.get(0), "revised at commit " + i, List.of());
                } else if (i % 11 == 5 && claims.size() > 1) {
                    t.retract(claims.remove(1), "superseded at commit " + i);
                } else {
                    FactId id = FactId.of("claim-" + i);
                    t.assertFact(FactSpec.of(Kind.CLAIM, "Claim " + i + " about the vote.").id(id).refs(List.of(
                            RefSpec.cites(source).at(sourceAt).withQuote("approved the breakwater by seven"))));
                    claims.add(id);
                }
                t.commit();
            }
        }
    }

    private static List<AuditViolation> audit(Path store) throws Exception {
        try (Auditor a = Auditor.open(store)) {
            return a.audit(AuditProgress.none()).violations();
        }
    }

    private static ObjectId head(Path store) throws IOException {
        try (Repository r = repo(store)) {
            return r.resolve("refs/heads/main");
        }
    }

    private static long packs(Path store) throws IOException {
        try (Stream<Path> s = Files.list(store.resolve("objects/pack"))) {
            return s.filter(p -> p.toString().endsWith(".pack")).count();
        }
    }

    private static Repository repo(Path store) throws IOException {
        return new FileRepositoryBuilder().setGitDir(store.toFile()).setMustExist(true).build();
    }
}
