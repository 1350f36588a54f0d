package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntailmentTest {
    private static final String BATCH = """
            ontology: {transitive: [part_of]}
            sources: [{id: d1, body: "a paper"}]
            assertions:
              - {id: b1, source: d1, subject: x, predicate: part_of, object: y}
              - {id: b2, source: d1, subject: y, predicate: part_of, object: z}
            """;

    @TempDir
    Path dir;

    private Store open(Path gitDir) throws Exception {
        return Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false));
    }

    @Test
    void aRunWhoseCommitLandedOnAnotherWritersCommitKeepsTheOlderSavedState() throws Exception {
        Path gitDir = dir.resolve("store.git");
        ObjectId saved;
        try (Store store = TestStores.init(dir)) {
            store.receipts().ingest(TestStores.ALICE, BATCH.getBytes(StandardCharsets.UTF_8), false);
            saved = ObjectId.fromString(store.receipts().entail(TestStores.ALICE).commit().id().hex());
            store.receipts().ingest(TestStores.ALICE, ("assertions: [{id: b3, source: d1, subject: z, predicate: part_of,"
                    + " object: w}]").getBytes(StandardCharsets.UTF_8), false);
        }
        try (Store store = open(gitDir); GitRepo repo = GitRepo.open(gitDir, false)) {
            PredicateIndex index = PredicateIndex.open(repo);
            FactCache cache = new FactCache();
            Entailment entailment = new Entailment(repo, index, cache);
            ObjectId tip = repo.head();
            Entailment.Run run = entailment.prepare(tip, c -> ReceiptGraph.load(repo, index, c, cache));
            assertThat(run.incremental()).isTrue();
            assertThat(run.changes().isEmpty()).isFalse();

            Transaction other = store.begin(TestStores.ALICE);
            other.assertFact(FactSpec.of(Kind.CLAIM, "another writer got in first").id(FactId.of("note")));
            other.commit();
            Transaction tx = store.begin(TestStores.ALICE);
            run.changes().retracted().forEach(id -> tx.retract(id, "entail: no derivation remains"));
            run.changes().added().forEach(f -> tx.assertFact(FactSpec.of(Kind.EDGE, f.body())
                    .id(f.id()).grounding(f.grounding())));
            run.changes().revised().forEach(f -> tx.reground(f.id(), f.grounding()));
            CommitResult landed = tx.commit();
            entailment.landed(run, ObjectId.fromString(landed.id().hex()));

            assertThat(EntailStateFile.read(gitDir).commit()).as("the state of the older commit stays").isEqualTo(saved);
        }
        try (Store store = open(gitDir)) {
            EntailResult next = store.receipts().entail(TestStores.ALICE);
            assertThat(next.incremental()).isTrue();
            assertThat(next.basis()).contains("saved state at " + saved.abbreviate(7).name());
            assertThat(next.commit()).as("the landed edges already match").isNull();
        }
    }
}
