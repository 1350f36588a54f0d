package dev.palimpsest.api;

import dev.palimpsest.model.HistoryEntry.Change;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.StoreOptions;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Trailer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
    @TempDir
    Path dir;

    private static final FactId SRC = FactId.of("src-1");
    private static final String SRC_BODY = "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.";

    @Test
    void readsEveryVersionAtTheCommitThatWroteIt() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId c1 = assertSource(s);
            CommitId c2 = s.begin(ALICE).revise(SRC, "revised body text", List.of()).commit().id();
            assertThat(body(s, SRC, c1)).isEqualTo(SRC_BODY);
            assertThat(body(s, SRC, c2)).isEqualTo("revised body text");
            FactRead.Found f = (FactRead.Found) s.read(SRC, c2);
            assertThat(f.version().commit()).isEqualTo(c2);
            assertThat(((FactRead.Found) s.read(SRC, c1)).version().commit()).isEqualTo(c1);
            assertThatThrownBy(() -> s.read(SRC, s.resolve("main~2"))).isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    void refsPinTheTargetVersionTheWriterRead() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId c1 = assertSource(s);
            s.begin(ALICE).revise(SRC, SRC_BODY + " Revised later.", List.of()).commit();
            Transaction tx = s.begin(ALICE);
            FactId claim = tx.assertFact(FactSpec.of(Kind.CLAIM, "ERK regulates apoptosis").confidence(0.7)
                    .refs(List.of(RefSpec.cites(SRC).at(c1).withQuote("regulates   apoptosis in oral"))));
            CommitId c3 = tx.commit().id();
            Ref ref = ((FactRead.Found) s.read(claim, c3)).fact().refs().get(0);
            assertThat(ref.commit()).isEqualTo(c1);
            assertThat(ref.blob()).isEqualTo(s.factExistsAt(SRC, c1).version().blob());
            assertThat(ref.quote()).isEqualTo("regulates   apoptosis in oral");
        }
    }

    @Test
    void sameTransactionRefsCarryNoPin() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            FactId src = tx.assertFact(FactSpec.of(Kind.SOURCE, "A source stating something specific.")
                    .id(FactId.of("s")));
            FactId claim = tx.assertFact(FactSpec.of(Kind.CLAIM, "claim")
                    .refs(List.of(RefSpec.cites(src).withQuote("stating something specific"))));
            CommitResult r = tx.commit();
            assertThat(r.written()).containsExactly(src, claim);
            Ref ref = ((FactRead.Found) s.read(claim, r.id())).fact().refs().get(0);
            assertThat(ref.sameTransaction()).isTrue();
            assertThat(s.log(1).get(0).trailers()).containsExactly(new Trailer("Palimpsest-Actor", "alice"),
                    new Trailer("Palimpsest-Op", "assert"), new Trailer("Palimpsest-Fact", "s"),
                    new Trailer("Palimpsest-Op", "assert"), new Trailer("Palimpsest-Fact", claim.value()));
        }
    }

    @Test
    void retractionRemovesTheFileAndKeepsTheLastValidVersionNavigable() throws Exception {
        try (Store s = TestStores.init(dir)) {
            CommitId c1 = assertSource(s);
            CommitResult r = s.begin(ALICE).retract(SRC, "journal retraction").commit();
            assertThat(r.retracted()).containsExactly(SRC);
            assertThat(s.factLiveAtCommit(SRC, r.id())).isFalse();
            assertThat(s.factLiveAtCommit(SRC, c1)).isTrue();
            FactRead read = s.read(SRC, r.id());
            assertThat(read).isInstanceOf(FactRead.Retracted.class);
            FactRead.Retracted ret = (FactRead.Retracted) read;
            assertThat(ret.retractedAt()).isEqualTo(r.id());
            assertThat(ret.reason()).isEqualTo("journal retraction");
            assertThat(ret.lastVersion().commit()).isEqualTo(c1);
            assertThat(ret.lastFact().body()).isEqualTo(SRC_BODY);
            FactVersion v = s.factExistsAt(SRC, r.id()).version();
            assertThat(v.commit()).isEqualTo(c1);
            List<HistoryEntry> h = s.history(SRC);
            assertThat(h).extracting(HistoryEntry::change).containsExactly(Change.RETRACTED, Change.ADDED);
        }
    }

    @Test
    void retractingTwiceIsRejectedNamingTheFirstRetraction() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            CommitId first = s.begin(ALICE).retract(SRC, "wrong").commit().id();
            assertThatThrownBy(() -> s.begin(ALICE).retract(SRC, "again").commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("already retracted at " + first.hex());
        }
    }

    @Test
    void reAddingARetractedIdMakesItLiveAgain() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            CommitId gone = s.begin(ALICE).retract(SRC, "wrong").commit().id();
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "a corrected source").id(SRC));
            CommitId back = tx.commit().id();
            assertThat(s.factLiveAtCommit(SRC, gone)).isFalse();
            assertThat(s.factLiveAtCommit(SRC, back)).isTrue();
            assertThat(s.history(SRC)).extracting(HistoryEntry::change).containsExactly(Change.ADDED, Change.RETRACTED, Change.ADDED);
        }
    }

    @Test
    void everyGateViolationIsReportedAtOnceAndNothingIsWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            var before = TestStores.durableState(s.gitDir());
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "duplicate id").id(SRC));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "cites a ghost").id(FactId.of("c1"))
                    .refs(List.of(RefSpec.cites(FactId.of("ghost")))));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "short quote").id(FactId.of("c2"))
                    .refs(List.of(RefSpec.cites(SRC).withQuote("MAPK"))));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "fabricated quote").id(FactId.of("c3"))
                    .refs(List.of(RefSpec.cites(SRC).withQuote("this sentence is not in the source"))));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "self").id(FactId.of("c4"))
                    .refs(List.of(RefSpec.cites(FactId.of("c4")))));
            tx.assertFact(FactSpec.of(Kind.CLAIM, "  ").id(FactId.of("c5")));
            tx.revise(FactId.of("nope"), "x", List.of());
            tx.retract(FactId.of("c6"), " ");
            assertThatThrownBy(tx::commit).isInstanceOfSatisfying(RejectedException.class, e ->
                    assertThat(e.violations()).extracting(v -> v.rule().id()).containsExactly("already-exists",
                            "ref-target-missing", "quote-too-short", "quote-not-found", "self-reference",
                            "invalid-fact", "not-found", "reason-required"));
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
        }
    }

    @Test
    void aPinThatIsNotAnAncestorIsRejected() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            var before = TestStores.durableState(s.gitDir());
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "pinned to nowhere")
                    .refs(List.of(RefSpec.cites(SRC).at(CommitId.of("0123456789abcdef0123456789abcdef01234567")))));
            assertThatThrownBy(tx::commit).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("does not exist in this store");
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
        }
    }

    @Test
    void aRevisionThatChangesNothingIsRejected() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            assertThatThrownBy(() -> s.begin(ALICE).revise(SRC, SRC_BODY, List.of()).commit())
                    .isInstanceOf(RejectedException.class).hasMessageContaining("changes nothing");
        }
    }

    @Test
    void anActorWithoutAKeyCannotWrite() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertThatThrownBy(() -> s.begin(dev.palimpsest.model.ActorName.of("mallory")))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("has no secret key");
        }
    }

    @Test
    void initRefusesANonEmptyFolderAndOpenRefusesANonStore() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("file.txt"), "x");
        assertThatThrownBy(() -> Store.initializer(dir).home(new KeyHome(dir.resolve("h"))).actor(ALICE).create())
                .isInstanceOf(RejectedException.class).hasMessageContaining("not an empty folder");
        assertThatThrownBy(() -> Store.open(dir, new KeyHome(dir.resolve("h")), StoreOptions.defaults()))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("no store at");
    }

    @Test
    void logListsCommitsNewestFirstWithActorAndTrailers() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertSource(s);
            List<LogEntry> log = s.log(0);
            assertThat(log).hasSize(2);
            assertThat(log.get(0).subject()).startsWith("assert src-1: The MAPK/ERK");
            assertThat(log.get(0).actor()).isEqualTo("alice");
            assertThat(log.get(1).trailers()).contains(new Trailer("Palimpsest-Op", "init"),
                    new Trailer("Palimpsest-Key", "alice"));
            assertThat(log.get(1).parents()).isEmpty();
        }
    }

    private static CommitId assertSource(Store s) throws PalimpsestException {
        Transaction tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.SOURCE, SRC_BODY).id(SRC));
        return tx.commit().id();
    }

    private static String body(Store s, FactId id, CommitId at) throws PalimpsestException {
        return ((FactRead.Found) s.read(id, at)).fact().body();
    }
}
