package dev.palimpsest.internal.claims;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.testing.Forgery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The claims index read directly: what its log records, when it rebuilds, and what a rebuild keeps. */
class ClaimsIndexTest {
    private static final FactId DOC = FactId.of("doc");

    @TempDir
    Path dir;

    private Path git() {
        return dir.resolve("store.git");
    }

    private Path log() {
        return git().resolve("palimpsest-index").resolve(ClaimsIndex.FILE);
    }

    private static CommitId write(Store s, FactSpec spec) throws Exception {
        var tx = s.begin(ALICE);
        tx.assertFact(spec);
        return tx.commit().id();
    }

    private static FactSpec claim(String id, String subject, String object) {
        return ClaimSpec.of(subject, "is", object, DOC).id(FactId.of(id)).toFactSpec();
    }

    private static ObjectId oid(CommitId c) {
        return ObjectId.fromString(c.hex());
    }

    private record Run<T>(T value, String err) {}

    private static <T> Run<T> stderr(Callable<T> action) throws Exception {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            T v = action.call();
            return new Run<>(v, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(old);
        }
    }

    private static List<String> objects(ClaimQueries q, String subject, int seq) {
        return q.current(subject, null, seq).stream().map(ClaimView::object).toList();
    }

    @Test
    void aCommitNumberPastWhatIsIndexedCatchesUpToMainFirstAndOnePastMainIsRefused() throws Exception {
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            try (GitRepo repo = GitRepo.open(git(), false)) {
                ClaimsIndex idx = ClaimsIndex.open(repo);
                int before = idx.commitCount();
                // another writer lands two commits this index has not read
                CommitId first = write(s, claim("a1", "x", "one"));
                CommitId second = write(s, claim("a2", "x", "two"));
                assertThat(idx.commitCount()).isEqualTo(before);
                assertThat(idx.commitAt(before + 1)).isEqualTo(oid(second));
                assertThat(idx.commitAt(before)).isEqualTo(oid(first));
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> idx.commitAt(before + 2))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("commit number " + (before + 2))
                        .hasMessageContaining("past main's first-parent history (" + (before + 2) + " commits)");
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> idx.commitAt(-1))
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void onlyClaimsAndTheirRemovalsAreRecorded() throws Exception {
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            write(s, claim("a1", "x", "one"));
            write(s, FactSpec.of(Kind.of("note"), "a plain note").id(FactId.of("n1")));
            s.begin(ALICE).retract(FactId.of("n1"), "wrong").commit();
            s.begin(ALICE).retract(FactId.of("a1"), "wrong").commit();
        }
        try (GitRepo repo = GitRepo.open(git(), false)) {
            ClaimsIndex idx = ClaimsIndex.open(repo);
            List<CacheLog.Framed<CommitRecord>> records = ClaimsLog.records(Files.readAllBytes(log()));
            assertThat(records).hasSize(idx.commitCount());
            List<List<String>> events = records.stream()
                    .map(r -> r.record().events().stream().map(e -> e.getClass().getSimpleName() + " " + e.id()).toList())
                    .toList();
            // the source, the note and the note's retraction record nothing
            assertThat(events.subList(events.size() - 5, events.size()))
                    .containsExactly(List.of(), List.of("Written a1"), List.of(), List.of(), List.of("Removed a1"));
            assertThat(events.subList(0, events.size() - 5)).allMatch(List::isEmpty);
        }
    }

    @Test
    void aLogThatGitContradictsAtItsLastRecordIsRebuilt() throws Exception {
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            write(s, claim("a1", "x", "one"));
        }
        ObjectId head;
        ObjectId genesis;
        try (GitRepo repo = GitRepo.open(git(), false); RevWalk walk = new RevWalk(repo.repository())) {
            head = repo.head();
            RevCommit c = walk.parseCommit(head);
            while (c.getParentCount() > 0) {
                c = walk.parseCommit(c.getParent(0));
            }
            genesis = c.copy();
        }
        ObjectId unknown = ObjectId.fromString("0123456789012345678901234567890123456789");
        byte[] first = ClaimsLog.frame(new CommitRecord(genesis, null, "alice", null, List.of()));
        record Second(ObjectId commit, ObjectId parent, String why) {}
        // a commit this store lacks; main's head named as the genesis's child (its first parent is another
        // commit); a record whose parent is not the record before
        for (Second c : List.of(new Second(unknown, genesis, "which this store does not have"),
                new Second(head, genesis, "another first parent"),
                new Second(head, unknown, "its records do not form one first-parent chain from the genesis"))) {
            byte[] second = ClaimsLog.frame(new CommitRecord(c.commit(), c.parent(), "alice", null, List.of()));
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            file.writeBytes(ClaimsLog.header(genesis));
            file.writeBytes(first);
            file.writeBytes(second);
            Files.write(log(), file.toByteArray());
            try (GitRepo repo = GitRepo.open(git(), false)) {
                Run<ClaimsIndex> open = stderr(() -> ClaimsIndex.open(repo));
                ClaimsIndex idx = open.value();
                assertThat(open.err().lines()).singleElement().asString()
                        .contains("discarded the claims index", c.why());
                assertThat(idx.rebuilds()).isEqualTo(1);
                assertThat(objects(new ClaimQueries(idx), "x", idx.seq(head))).containsExactly("one");
                assertThat(idx.commitCount()).isEqualTo(idx.seq(head) + 1);
            }
        }
    }

    @Test
    void aLogOfTheGenesisAloneIsReused() throws Exception {
        TestStores.init(dir).close();
        try (GitRepo repo = GitRepo.open(git(), false)) {
            assertThat(ClaimsIndex.open(repo).commitCount()).isEqualTo(1);
            Run<ClaimsIndex> again = stderr(() -> ClaimsIndex.open(repo));
            assertThat(again.err()).isEmpty();
            assertThat(again.value().rebuilds()).isZero();
            assertThat(again.value().commitCount()).isEqualTo(1);
        }
    }

    @Test
    void mainRewoundAndMovedOnIsRebuiltOnceWithNothingOfTheDiscardedHistory() throws Exception {
        CommitId kept;
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            write(s, claim("a1", "x", "one"));
            var tx = s.begin(ALICE);
            tx.supersede(FactId.of("a1"), ClaimSpec.of("x", "is", "two", DOC).id(FactId.of("a2")).toFactSpec());
            kept = tx.commit().id();
            // discarded below: "is" declared multi-valued, then commits by another author
            s.receipts().ingest(ALICE, "multi_valued: [is]\n".getBytes(StandardCharsets.UTF_8), false);
        }
        Forgery.unsignedCommitOnMain(git(), "mallory");
        try (GitRepo repo = GitRepo.open(git(), false)) {
            assertThat(ClaimsIndex.open(repo).rebuilds()).isEqualTo(1); // built: there was no log
            ClaimsIndex idx = ClaimsIndex.open(repo);
            assertThat(idx.rebuilds()).isZero();
            ClaimQueries q = new ClaimQueries(idx);
            // another process's commit on top of what is indexed is caught up without a rebuild
            ObjectId forged = Forgery.unsignedCommitOnMain(git(), "mallory");
            Run<Integer> caughtUp = stderr(() -> idx.seq(forged));
            assertThat(caughtUp.value()).isEqualTo(idx.commitCount() - 1);
            assertThat(caughtUp.err()).isEmpty();
            assertThat(idx.rebuilds()).isZero();
            assertThat(q.contradictions("x", caughtUp.value())).isEmpty();

            Files.writeString(git().resolve("refs/heads/main"), kept.hex() + "\n");
            CommitId head;
            try (Store s = Store.open(git(), new KeyHome(dir.resolve("home")))) {
                write(s, claim("a3", "x", "three"));
                head = write(s, claim("a4", "x", "four"));
            }
            Run<Integer> rebuilt = stderr(() -> idx.seq(oid(head)));
            assertThat(rebuilt.err()).contains("main no longer extends the indexed history");
            assertThat(idx.rebuilds()).isEqualTo(1);
            int seq = rebuilt.value();
            assertThat(q.current("x", null, seq)).extracting(ClaimView::object).containsExactly("two", "three", "four");
            assertThat(q.current("x", null, seq)).extracting(c -> c.actor().value()).containsOnly("alice");
            assertThat(q.deadEnds("x", 5, seq).kept()).extracting(c -> c.id().value()).containsExactly("a1");
            assertThat(q.contradictions("x", seq)).singleElement()
                    .satisfies(c -> assertThat(c.claims()).extracting(v -> v.id().value()).containsExactly("a2", "a3", "a4"));
        }
    }

    @Test
    void aClaimFileGitCannotReadStatesNoClaimAndAFileNamedLikeAFolderIsIgnored() throws Exception {
        CommitId before;
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            write(s, claim("a1", "x", "one"));
            before = write(s, claim("b1", "y", "one"));
        }
        try (GitRepo repo = GitRepo.open(git(), false)) {
            ClaimsIndex idx = ClaimsIndex.open(repo);
            ClaimQueries q = new ClaimQueries(idx);
            ObjectId forged = Forgery.unsignedCommitOnMain(git(), "mallory", Map.of(
                    StorePaths.factPath(Kind.ENTITY_CLAIM, FactId.of("a1")), "id: [not yaml".getBytes(StandardCharsets.UTF_8),
                    StorePaths.ASSERTIONS, "a file where a folder goes".getBytes(StandardCharsets.UTF_8)));
            int seq = idx.seq(forged);
            assertThat(objects(q, "x", seq)).isEmpty();
            assertThat(objects(q, "y", seq)).containsExactly("one");
            assertThat(objects(q, "x", idx.seq(oid(before)))).containsExactly("one");
        }
    }

    @Test
    void aClaimWhoseFileMovesToAnotherSubjectIsNoDeadEndOfTheFirst() throws Exception {
        try (Store s = TestStores.init(dir)) {
            write(s, FactSpec.of(Kind.SOURCE, "the doc").id(DOC));
            write(s, claim("a1", "x", "one"));
        }
        String path = StorePaths.factPath(Kind.ENTITY_CLAIM, FactId.of("a1"));
        try (GitRepo repo = GitRepo.open(git(), false)) {
            ClaimsIndex idx = ClaimsIndex.open(repo);
            ClaimQueries q = new ClaimQueries(idx);
            String yaml = new String(repo.repository().open(repo.repository().resolve("refs/heads/main:" + path)).getBytes(),
                    StandardCharsets.UTF_8);
            assertThat(yaml).contains("subject: \"x\"");
            ObjectId forged = Forgery.unsignedCommitOnMain(git(), "mallory",
                    Map.of(path, yaml.replace("subject: \"x\"", "subject: \"y\"").getBytes(StandardCharsets.UTF_8)));
            int seq = idx.seq(forged);
            assertThat(objects(q, "y", seq)).containsExactly("one");
            assertThat(q.deadEnds("x", 5, seq).kept()).isEmpty();
            assertThat(q.chain("x", "is", seq)).isEmpty();
            assertThat(q.chain("x", "is", seq - 1)).extracting(ClaimView::object).containsExactly("one");
        }
    }
}
