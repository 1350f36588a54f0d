package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import dev.palimpsest.internal.git.OverlayReader;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.revwalk.ObjectWalk;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.lib.ObjectReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A streamed audit's readers and progress, seen through the readers it is given. */
class AuditStreamTest {
    @TempDir
    Path dir;

    private ForgedCases.Store s;
    private ObjectId head;

    /** The gate's history and a third commit whose claim pins the source at the first one. */
    @BeforeEach
    void writeHistory() throws Exception {
        s = GateHistory.write(dir);
        try (Store st = Store.open(s.gitDir(), s.home(), StoreOptions.defaults().withFsync(false))) {
            var tx = st.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "Cites the source where it was written.").id(FactId.of("claim-2"))
                    .refs(List.of(RefSpec.cites(ForgedCases.SRC).at(s.srcCommit()))));
            head = ObjectId.fromString(tx.commit().id().hex());
        }
    }

    @Test
    void pinsIntoTheAuditedChainAreAnsweredWithoutAWalkSoEachWorkerReadsThroughOneReader() throws Exception {
        Map<String, Integer> opened = new ConcurrentHashMap<>();
        try (GitRepo repo = GitRepo.open(s.gitDir(), false)) {
            Supplier<ObjectReader> readers = () -> {
                opened.merge(Thread.currentThread().getName(), 1, Integer::sum);
                return repo.newReader();
            };
            AuditReport r;
            try (AuditStream st = new AuditEngine(repo, AuditEngine.standardChecks()).stream(AuditObserver.NONE,
                    readers)) {
                r = st.finish(null, head, AuditProgress.none());
            }
            assertThat(r.violations()).isEmpty();
            assertThat(r.refs()).isEqualTo(2);
        }
        assertThat(opened).isNotEmpty().allSatisfy((thread, n) -> assertThat(n).as(thread).isEqualTo(1));
    }

    @Test
    void aChainOfOfferedCommitsIsListedWithoutReadingTheRepositoryAndHandedToTheObserver() throws Exception {
        Map<ObjectId, ObjectLoader> held = new ConcurrentHashMap<>();
        List<ObjectId> chain = new ArrayList<>();
        try (GitRepo source = GitRepo.open(s.gitDir(), false);
                ObjectReader r = source.newReader();
                ObjectWalk walk = new ObjectWalk(r)) {
            walk.sort(RevSort.TOPO);
            walk.sort(RevSort.REVERSE, true);
            walk.markStart(walk.parseCommit(head));
            for (RevCommit c; (c = walk.next()) != null; ) {
                chain.add(c.copy());
            }
            for (RevObject o; (o = walk.nextObject()) != null; ) {
                held.put(o.copy(), new ObjectLoader.SmallObject(o.getType(), r.open(o).getCachedBytes()));
            }
            for (ObjectId c : chain) {
                held.put(c, new ObjectLoader.SmallObject(Constants.OBJ_COMMIT, r.open(c).getCachedBytes()));
            }
        }
        List<ObjectId> offered = Collections.synchronizedList(new ArrayList<>());
        AuditObserver observer = new AuditObserver() {
            @Override
            public void commit(ObjectId commit, List<ObjectId> parents, List<Change> changes) {
            }

            @Override
            public void fact(ObjectId blob, dev.palimpsest.model.Fact fact) {
            }

            @Override
            public void offered(ObjectId commit, byte[] raw) {
                assertThat(raw).isEqualTo(held.get(commit).getCachedBytes());
                offered.add(commit);
            }
        };
        try (GitRepo empty = GitRepo.create(dir.resolve("empty.git"), false)) {
            AuditReport report;
            try (AuditStream st = new AuditEngine(empty, AuditEngine.standardChecks()).stream(observer,
                    () -> new OverlayReader(held::get, empty.newReader()))) {
                for (ObjectId c : chain) {
                    RawCommit raw = RawCommit.parse(held.get(c).getCachedBytes());
                    st.offer(c, raw.tree(), raw.parents(), held.get(c).getCachedBytes());
                }
                report = st.finish(null, head, AuditProgress.none());
            }
            assertThat(report.commits()).isEqualTo(4);
            assertThat(report.violations()).isEmpty();
            assertThat(empty.repository().getObjectDatabase().has(head)).as("never written").isFalse();
        }
        assertThat(offered).containsExactlyElementsOf(chain);
    }

    @Test
    void progressIsReportedWhileTheCommitsAreStillBeingChecked() throws Exception {
        CountDownLatch reported = new CountDownLatch(1);
        List<int[]> updates = Collections.synchronizedList(new ArrayList<>());
        try (GitRepo repo = GitRepo.open(s.gitDir(), false)) {
            Supplier<ObjectReader> readers = () -> {
                try {
                    reported.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return repo.newReader();
            };
            try (AuditStream st = new AuditEngine(repo, AuditEngine.standardChecks()).stream(AuditObserver.NONE,
                    readers)) {
                st.finish(null, head, (done, total) -> {
                    updates.add(new int[] {done, total});
                    reported.countDown();
                });
            }
        }
        assertThat(updates.get(0)).as("before any worker could read").containsExactly(0, 4);
        assertThat(updates.get(updates.size() - 1)).containsExactly(4, 4);
    }
}
