package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Trailer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fact written with a {@code supersedes} ref lands as {@code Palimpsest-Op: supersede}, whichever
 * write path wrote it, the timeline counts it so, and the audit accepts it; a supersession recorded as
 * {@code assert} (as stores written before the verb hold them) still audits clean.
 */
class SupersedeVerbTest {
    private static final FactId OLD = FactId.of("old");

    @TempDir
    Path dir;

    private Store store;

    @BeforeEach
    void open() throws Exception {
        store = TestStores.init(dir);
        Transaction tx = store.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "The bridge opens in May.").id(OLD));
        tx.commit();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void transactionSupersedeLandsAsSupersedeAndTheTimelineCountsIt() throws Exception {
        Transaction tx = store.begin(ALICE);
        tx.supersede(OLD, FactSpec.of(Kind.CLAIM, "The bridge opens in June.").id(FactId.of("new")));
        CommitId c = tx.commit().id();

        LogEntry e = store.log(1).get(0);
        assertThat(e.subject()).isEqualTo("supersede new: The bridge opens in June.");
        assertThat(e.trailers()).containsSubsequence(new Trailer("Palimpsest-Op", "supersede"),
                new Trailer("Palimpsest-Fact", "new"));
        assertThat(store.timelineEntry(c).operations()).containsExactly(Map.entry("supersede", 1));
        assertThat(audit().violations()).isEmpty();
    }

    @Test
    void anAssertWithASupersedesRefAndAClaimCorrectionLandAsSupersedeBesideAPlainAssert() throws Exception {
        Transaction tx = store.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "The bridge opens in July.").id(FactId.of("july"))
                .refs(List.of(RefSpec.of(OLD, RefRole.SUPERSEDES))));
        tx.assertFact(FactSpec.of(Kind.SOURCE, "The council minutes of 3 March.").id(FactId.of("minutes")));
        CommitId both = tx.commit().id();
        assertThat(store.timelineEntry(both).operations())
                .containsExactly(Map.entry("assert", 1), Map.entry("supersede", 1));
        assertThat(store.log(1).get(0).subject()).isEqualTo("transaction of 2 operations: 1 assert, 1 supersede");

        FactId claim = store.claims().claim(ALICE, ClaimSpec.of("bridge", "opens in", "May", FactId.of("minutes"))).id();
        store.claims().supersede(ALICE, claim, ClaimSpec.of("bridge", "opens in", "August", FactId.of("minutes")));
        assertThat(store.timelineEntry(store.head()).operations()).containsExactly(Map.entry("supersede", 1));
        assertThat(audit().violations()).isEmpty();
    }

    @Test
    void aSupersessionRecordedAsAssertBeforeTheVerbExistedStillAuditsClean() throws Exception {
        Transaction tx = store.begin(ALICE);
        tx.supersede(OLD, FactSpec.of(Kind.CLAIM, "The bridge opens in June.").id(FactId.of("new")));
        CommitId written = tx.commit().id();
        String path = StorePaths.factPath(Kind.CLAIM, FactId.of("new"));
        byte[] file;
        ObjectId parent;
        try (Repository r = new FileRepositoryBuilder().setGitDir(store.gitDir().toFile()).setMustExist(true).build();
                RevWalk w = new RevWalk(r)) {
            RevCommit c = w.parseCommit(ObjectId.fromString(written.hex()));
            parent = c.getParent(0).copy();
            try (TreeWalk t = TreeWalk.forPath(r, path, c.getTree())) {
                file = r.open(t.getObjectId(0)).getBytes();
            }
            RefUpdate u = r.updateRef(Constants.R_HEADS + "main");
            u.setNewObjectId(parent);
            u.setForceUpdate(true);
            u.disableRefLog();
            assertThat(u.update()).isEqualTo(RefUpdate.Result.FORCED);
        }
        store.close();
        ObjectId oldStyle = Forge.by(store.gitDir(), new KeyHome(dir.resolve("home")), "alice")
                .put(path, new String(file, StandardCharsets.UTF_8)).trailers("alice", "assert", "Palimpsest-Fact", "new")
                .commit();
        store = Store.open(store.gitDir(), new KeyHome(dir.resolve("home")));

        assertThat(((FactRead.Found) store.find(FactId.of("new"), CommitId.of(oldStyle.name())).orElseThrow()).fact().refs())
                .as("the forged commit holds the gate's superseding fact").hasSize(1)
                .allSatisfy(ref -> assertThat(ref.role()).isEqualTo(RefRole.SUPERSEDES));
        assertThat(store.timelineEntry(CommitId.of(oldStyle.name())).operations())
                .containsExactly(Map.entry("assert", 1));
        assertThat(audit().violations()).isEmpty();
    }

    private AuditReport audit() throws Exception {
        try (Auditor a = Auditor.open(store.gitDir())) {
            return a.audit(AuditProgress.none());
        }
    }
}
