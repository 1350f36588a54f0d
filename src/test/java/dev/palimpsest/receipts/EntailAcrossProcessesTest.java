package dev.palimpsest.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.EntailResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.receipts.EntailStateFile;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entailment across processes: each step opens its own {@link Store} (as each CLI run does), so the
 * only state carried between them is the saved entailer state. Every incremental result is checked
 * against a from-scratch run on a copy of the store without the state file: same counts, same tree.
 */
class EntailAcrossProcessesTest {
    /** x part_of w is derived at depth 1 from d1's assertions and at depth 2 from d2's. */
    private static final String TWO_ROUTES = """
            ontology: {transitive: [part_of]}
            sources:
              - {id: d1, body: "first paper"}
              - {id: d2, body: "second paper"}
            assertions:
              - {id: b1, source: d1, subject: x, predicate: part_of, object: y}
              - {id: b2, source: d1, subject: y, predicate: part_of, object: w}
              - {id: b3, source: d2, subject: x, predicate: part_of, object: z}
              - {id: b4, source: d2, subject: z, predicate: part_of, object: v}
              - {id: b5, source: d2, subject: v, predicate: part_of, object: w}
            """;
    private static final FactId X_PART_OF_W = EntailSync.edgeId(new Entailer.Triple("x", "part_of", "w"));

    @TempDir
    Path dir;

    private Path gitDir;
    private int copies;

    /** A from-scratch run's outcome on a copy. */
    private record Scratch(EntailResult result, ObjectId tree) {}

    @BeforeEach
    void init() throws Exception {
        TestStores.init(dir).close();
        gitDir = dir.resolve("store.git");
    }

    private Store open(Path git) throws Exception {
        return Store.open(git, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false));
    }

    private EntailResult entail() throws Exception {
        try (Store s = open(gitDir)) {
            return s.receipts().entail(TestStores.ALICE);
        }
    }

    private void ingest(String yaml) throws Exception {
        try (Store s = open(gitDir)) {
            s.receipts().ingest(TestStores.ALICE, yaml.getBytes(StandardCharsets.UTF_8), false);
        }
    }

    /** Entails from scratch on a copy of the store as it is now (state file removed). */
    private Scratch fromScratchOnACopy() throws Exception {
        Path copy = dir.resolve("copy" + (++copies)).resolve("store.git");
        copyTree(gitDir, copy);
        Files.deleteIfExists(EntailStateFile.path(copy));
        try (Store s = open(copy)) {
            EntailResult r = s.receipts().entail(TestStores.ALICE);
            assertThat(r.incremental()).isFalse();
            return new Scratch(r, tree(copy));
        }
    }

    private static void assertSameOutcome(EntailResult r, ObjectId tree, Scratch scratch) {
        assertThat(List.of(r.added(), r.revised(), r.retracted(), r.edges())).as("added, revised, retracted, edges")
                .isEqualTo(List.of(scratch.result().added(), scratch.result().revised(), scratch.result().retracted(),
                        scratch.result().edges()));
        assertThat(tree).as("main's tree after entailment").isEqualTo(scratch.tree());
    }

    @Test
    void aNewProcessContinuesFromTheSavedStateAndAgreesWithAFromScratchRun() throws Exception {
        ingest(Files.readString(ReceiptsTest.CORPUS));
        EntailResult first = entail();
        assertThat(first.incremental()).isFalse();
        assertThat(first.basis()).contains("no saved state");
        assertThat(EntailStateFile.path(gitDir)).exists();
        ingest("assertions: [{id: a7, source: pmid-38800001, subject: programmed cell death, predicate: part_of,"
                + " object: cell fate}]");
        Scratch scratch = fromScratchOnACopy();

        EntailResult next = entail();
        assertThat(next.incremental()).isTrue();
        assertThat(next.basis()).contains("saved state").contains("1 assertion file(s)");
        assertThat(next.added()).as("the new assertion entails new edges").isPositive();
        assertSameOutcome(next, tree(gitDir), scratch);

        EntailResult again = entail();
        assertThat(again.incremental()).isTrue();
        assertThat(again.commit()).as("nothing changed").isNull();
    }

    @Test
    void anEdgeACascadeOverDeletedIsRederivedByTheNextProcess() throws Exception {
        ingest(TWO_ROUTES);
        assertThat(entail().edges()).isPositive();
        try (Store s = open(gitDir)) {
            CleanupPlan plan = s.receipts().planRetractSource(List.of(FactId.of("d1")), "retracted");
            assertThat(plan.removals()).extracting(CleanupPlan.Removal::id).contains(X_PART_OF_W);
            s.receipts().apply(TestStores.ALICE, plan);
            assertThat(s.factLiveAtCommit(X_PART_OF_W, s.head())).isFalse();
        }
        Scratch scratch = fromScratchOnACopy();

        EntailResult r = entail();
        assertThat(r.incremental()).isTrue();
        assertThat(r.added()).isPositive();
        assertSameOutcome(r, tree(gitDir), scratch);
        try (Store s = open(gitDir)) {
            assertThat(s.factLiveAtCommit(X_PART_OF_W, s.head())).as("x part_of z part_of w still holds").isTrue();
        }
    }

    @Test
    void anEntailedEdgeRetractedByAnotherWriterIsRederivedThoughNoAssertionChanged() throws Exception {
        ingest(TWO_ROUTES);
        entail();
        try (Store s = open(gitDir)) {
            s.begin(TestStores.ALICE).retract(X_PART_OF_W, "removed by hand").commit();
        }
        Scratch scratch = fromScratchOnACopy();

        EntailResult r = entail();
        assertThat(r.incremental()).isTrue();
        assertThat(r.basis()).contains("0 assertion file(s) and 1 entailed-edge file(s)");
        assertThat(r.added()).isEqualTo(1);
        assertSameOutcome(r, tree(gitDir), scratch);
    }

    @Test
    void aCorruptStateFileFallsBackToFromScratchAndStillGetsItRight() throws Exception {
        ingest(Files.readString(ReceiptsTest.CORPUS));
        entail();
        ingest("assertions: [{id: a7, source: pmid-38800001, subject: programmed cell death, predicate: part_of,"
                + " object: cell fate}]");
        Path state = EntailStateFile.path(gitDir);
        byte[] bytes = Files.readAllBytes(state);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(state, bytes);
        Scratch scratch = fromScratchOnACopy();

        EntailResult r = entail();
        assertThat(r.incremental()).isFalse();
        assertThat(r.basis()).contains("unreadable").contains("checksum");
        assertSameOutcome(r, tree(gitDir), scratch);
        EntailResult after = entail();
        assertThat(after.incremental()).as("the state was saved again").isTrue();
        assertThat(after.commit()).isNull();
    }

    @Test
    void aChangedOntologyFallsBackToFromScratch() throws Exception {
        ingest(Files.readString(ReceiptsTest.CORPUS));
        entail();
        ingest("ontology: {inverse: {part_of: has_part}}");
        Scratch scratch = fromScratchOnACopy();

        EntailResult r = entail();
        assertThat(r.incremental()).isFalse();
        assertThat(r.basis()).contains("another ontology");
        assertThat(r.added()).as("has_part edges").isPositive();
        assertSameOutcome(r, tree(gitDir), scratch);
    }

    @Test
    void aStateForACommitOutsideMainsHistoryIsNotUsed() throws Exception {
        ingest(TWO_ROUTES);
        entail();
        Path state = EntailStateFile.path(gitDir);
        Path elsewhere = dir.resolve("other");
        TestStores.init(elsewhere).close();
        try (Store other = Store.open(elsewhere.resolve("store.git"), new KeyHome(elsewhere.resolve("home")),
                StoreOptions.defaults().withFsync(false))) {
            other.receipts().ingest(TestStores.ALICE, TWO_ROUTES.getBytes(StandardCharsets.UTF_8), false);
            other.receipts().entail(TestStores.ALICE);
        }
        Files.copy(EntailStateFile.path(elsewhere.resolve("store.git")), state,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ingest("assertions: [{id: b6, source: d2, subject: w, predicate: part_of, object: u}]");
        Scratch scratch = fromScratchOnACopy();

        EntailResult r = entail();
        assertThat(r.incremental()).isFalse();
        assertThat(r.basis()).contains("not an ancestor of main");
        assertSameOutcome(r, tree(gitDir), scratch);
    }

    @Test
    void aFolderInPlaceOfTheStateFileFallsBackToFromScratchAndIsLeftAlone() throws Exception {
        ingest(TWO_ROUTES);
        Scratch scratch = fromScratchOnACopy();
        Path state = EntailStateFile.path(gitDir);
        Files.createDirectories(state.resolve("inside"));

        EntailResult r = entail();
        assertThat(r.incremental()).isFalse();
        assertThat(r.basis()).contains("unreadable");
        assertSameOutcome(r, tree(gitDir), scratch);
        assertThat(entail().commit()).as("nothing left to entail").isNull();
        assertThat(state.resolve("inside")).isDirectory();
    }

    private static ObjectId tree(Path git) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(git.toFile()).setMustExist(true).build()) {
            return repo.resolve("refs/heads/main^{tree}");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            s.forEach(p -> {
                try {
                    Path t = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(t);
                    } else if (!p.getFileName().toString().endsWith(".lock")) {
                        Files.copy(p, t);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
