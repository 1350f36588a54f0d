package dev.palimpsest.forget;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ExpireReport;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.ForgetReport;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.UnlearnReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Forget, expire and the unlearning check through the Java API (seed 002's sequence and the refusals). */
class ForgetTest {
    static final String SECRET_A = "Patient Zelda Quixote lives at 12 Harbour Lane";
    static final String QUOTE = "Zelda Quixote lives at 12 Harbour";
    static final String SECRET_B = "Harbour Lane resident needs a wheelchair ramp";
    static final Instant DEADLINE = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    static FactId a = FactId.of("a");
    static FactId b = FactId.of("b");

    /** Writes A (sensitive) and B (citing A with a quote, with a deadline). */
    static void writeAB(Store s) throws Exception {
        var tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_A).id(a).asSensitive());
        tx.commit();
        tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_B).id(b).retainedUntil(DEADLINE)
                .refs(RefSpec.cites(a).withQuote(QUOTE)));
        tx.commit();
    }

    @Test
    void seed002SequenceKeepsTheClosureAcrossForgetAndExpiry() throws Exception {
        try (Store s = TestStores.init(dir)) {
            writeAB(s);
            CommitId beforeForget = s.head();
            assertThat(((FactRead.Found) s.read(b, s.head())).fact().refs().get(0).quote()).isEqualTo(QUOTE);
            UnlearnReport before = s.erasure().unlearnCheck(a);
            assertThat(before.derivations()).containsExactly(b);
            assertThat(before.readable()).containsExactly(b);

            ForgetReport r = s.erasure().forget(ALICE, List.of(a), "erasure request 7", false);
            assertThat(r.forgotten()).containsExactly(a);
            assertThat(r.closure()).containsExactly(b);
            assertThat(r.review()).containsExactly(b);
            NotFoundException gone = catchThrowableOfType(() -> s.read(a, s.head()), NotFoundException.class);
            assertThat(gone).hasMessageContaining("forgotten at " + r.commit().hex());
            assertThat(catchThrowableOfType(() -> s.read(a, beforeForget), NotFoundException.class))
                    .hasMessageContaining("forgotten at " + r.commit().hex());
            assertThat(s.gitDir().resolve("palimpsest-vault")).exists();
            assertThat(s.history(a).get(0).change()).isEqualTo(dev.palimpsest.model.HistoryEntry.Change.FORGOTTEN);
            assertThat(s.history(a).get(0).commit()).isEqualTo(r.commit());
            FactRead.Found bRead = (FactRead.Found) s.read(b, s.head());
            assertThat(bRead.fact().body()).isEqualTo(SECRET_B);
            assertThat(bRead.fact().refs().get(0).quote()).as("the quote is shredded with A's key").isNull();
            assertThat(s.erasure().unlearnCheck(a).readable()).containsExactly(b);

            ExpireReport early = s.erasure().expire(ALICE, DEADLINE.minusSeconds(1), false);
            assertThat(early.forgotten()).isEmpty();
            ExpireReport ex = s.erasure().expire(ALICE, DEADLINE.plusSeconds(1), false);
            assertThat(ex.forgotten()).containsExactly(new ExpireReport.Expired(b, DEADLINE));
            assertThat(s.erasure().expire(ALICE, DEADLINE.plusSeconds(5), false).forgotten()).as("once").isEmpty();

            UnlearnReport after = s.erasure().unlearnCheck(a);
            assertThat(after.derivations()).containsExactly(b);
            assertThat(after.readable()).isEmpty();
            assertThat(after.clean()).isTrue();
            assertThat(s.recall().search(SearchQuery.builder("Harbour Lane").build())).isEmpty();
        }
    }

    @Test
    void forgetCascadesToSealedDerivedArtifactsAndQueuesPlainCitersForReview() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId sx = FactId.of("sx");
            FactId sy = FactId.of("sy");
            FactId m = FactId.of("m");
            FactId n = FactId.of("n");
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_A).id(sx).asSensitive());
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_B).id(sy).asSensitive());
            tx.commit();
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "a plain note citing sx").id(n).refs(RefSpec.cites(sx)).asPlaintext());
            tx.commit();
            tx = s.begin(ALICE);
            var receipt = new dev.palimpsest.model.Receipt(List.of(List.of(dev.palimpsest.model.Pin.of(sx),
                    dev.palimpsest.model.Pin.of(sy))));
            tx.merge(List.of(sx, sy), FactSpec.of(Kind.of("merge"), "Both merged: Zelda at the harbour.").id(m)
                    .grounding(new dev.palimpsest.model.Grounding(null, null, null, receipt, List.of(), false)));
            tx.commit();
            assertThat(((FactRead.Found) s.read(m, s.head())).fact().seal()).as("a merge of sealed facts is sealed")
                    .isNotNull();

            ForgetReport r = s.erasure().forget(ALICE, List.of(sx), "erasure", false);
            assertThat(r.forgotten()).containsExactly(sx, m);
            assertThat(r.closure()).containsExactly(m, n);
            assertThat(r.review()).containsExactly(n);
            assertThat(tombstone(s, r.commit(), m).reason()).as("the cascaded tombstone names the fact forgotten")
                    .isEqualTo("cascade of forget sx (erasure)");
            assertThat(catchThrowableOfType(() -> s.read(m, s.head()), NotFoundException.class))
                    .hasMessageContaining("forgotten at " + r.commit().hex());
            assertThat(s.receipts().review(s.head())).extracting(i -> i.id()).contains(n);
            assertThat(s.gitDir().resolve("palimpsest-vault").resolve(
                    dev.palimpsest.internal.layout.StorePaths.shard(m)).resolve("m.key")).doesNotExist();
            assertThat(((FactRead.Retracted) s.read(sy, s.head())).lastFact().body()).as("sy keeps its key")
                    .isEqualTo(SECRET_B);
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "a later note").id(FactId.of("later")));
            tx.commit();
            assertThat(catchThrowableOfType(() -> s.read(sx, s.head()), NotFoundException.class))
                    .as("named by the commit that forgot it, not a later one")
                    .hasMessageContaining("forgotten at " + r.commit().hex());
        }
        try (dev.palimpsest.api.Auditor a = dev.palimpsest.api.Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(dev.palimpsest.model.AuditProgress.none()).violations())
                    .as("the cascade is forgotten in the forget's commit").isEmpty();
        }
    }

    /** The tombstone of {@code id} in the tree of {@code at}, read from git. */
    static dev.palimpsest.internal.yaml.TombstoneRecord tombstone(Store s, dev.palimpsest.model.CommitId at, FactId id)
            throws Exception {
        try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder()
                .setGitDir(s.gitDir().toFile()).build();
                org.eclipse.jgit.revwalk.RevWalk walk = new org.eclipse.jgit.revwalk.RevWalk(repo);
                org.eclipse.jgit.treewalk.TreeWalk tw = org.eclipse.jgit.treewalk.TreeWalk.forPath(repo,
                        dev.palimpsest.internal.layout.StorePaths.tombstonePath(id),
                        walk.parseCommit(org.eclipse.jgit.lib.ObjectId.fromString(at.hex())).getTree())) {
            assertThat(tw).as("tombstone of " + id).isNotNull();
            return dev.palimpsest.internal.yaml.TombstoneRecord.decode(repo.open(tw.getObjectId(0)).getBytes(),
                    "tombstone of " + id);
        }
    }

    @Test
    void aSentenceSummaryOfASealedFactIsForgottenInTheSameCommitAndItsSentencesAreUnreadable() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId sx = FactId.of("sx");
            FactId other = FactId.of("other");
            FactId sum = FactId.of("sum");
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_A).id(sx).asSensitive());
            tx.assertFact(FactSpec.of(Kind.of("note"), "the harbour has a lighthouse").id(other));
            tx.commit();
            var sentences = List.of(
                    new dev.palimpsest.model.Sentence("Zelda Quixote lives on Harbour Lane.", receipt(sx)),
                    new dev.palimpsest.model.Sentence("The harbour has a lighthouse.", receipt(other)));
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.SUMMARY, "Zelda Quixote lives on Harbour Lane. The harbour has a lighthouse.")
                    .id(sum).grounding(new dev.palimpsest.model.Grounding(null, null, null, null, sentences, false)));
            tx.commit();
            var written = ((FactRead.Found) s.read(sum, s.head())).fact();
            assertThat(written.seal()).as("a summary with a sealed member is sealed").isNotNull();
            assertThat(written.grounding().sentences()).extracting(dev.palimpsest.model.Sentence::text)
                    .containsExactly("Zelda Quixote lives on Harbour Lane.", "The harbour has a lighthouse.");
            CommitId before = s.head();

            ForgetReport r = s.erasure().forget(ALICE, List.of(sx), "erasure", false);
            assertThat(r.forgotten()).containsExactly(sx, sum);
            assertThat(r.closure()).containsExactly(sum);
            assertThat(r.review()).isEmpty();
            for (CommitId c : List.of(before, s.head())) {
                assertThat(catchThrowableOfType(() -> s.read(sum, c), NotFoundException.class))
                        .hasMessageContaining("forgotten at " + r.commit().hex());
            }
            assertThat(s.recall().search(SearchQuery.builder("lighthouse").build())).noneMatch(h -> h.id().equals(sum));
            assertThat(s.erasure().unlearnCheck(sx).readable()).isEmpty();
            assertThat(((FactRead.Found) s.read(other, s.head())).fact().body()).isEqualTo("the harbour has a lighthouse");
        }
    }

    private static dev.palimpsest.model.Receipt receipt(FactId member) {
        return new dev.palimpsest.model.Receipt(List.of(List.of(dev.palimpsest.model.Pin.of(member))));
    }

    @Test
    void historyOfARetractedFactThatIsThenForgottenEndsWithTheForget() throws Exception {
        try (Store s = TestStores.init(dir)) {
            writeAB(s);
            var tx = s.begin(ALICE);
            tx.retract(a, "wrong");
            CommitId retracted = tx.commit().id();
            ForgetReport r = s.erasure().forget(ALICE, List.of(a), "erasure", false);
            assertThat(s.history(a)).extracting(h -> h.change().value(), h -> h.commit())
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("forgotten", r.commit()),
                            org.assertj.core.groups.Tuple.tuple("retracted", retracted),
                            org.assertj.core.groups.Tuple.tuple("added", s.history(a).get(2).commit()));
            assertThat(s.history(a).get(0).blob()).isNull();
            assertThat(s.history(b)).as("a citer's history is its own").extracting(h -> h.change().value())
                    .containsExactly("added");
        }
    }

    @Test
    void forgettingAPlaintextFactIsRefusedWithAnExplanation() throws Exception {
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "plain words here").id(a));
            CommitId c = tx.commit().id();
            RejectedException e = catchThrowableOfType(() -> s.erasure().forget(ALICE, List.of(a), "gdpr", false),
                    RejectedException.class);
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.FORGET_PLAINTEXT);
            assertThat(e.getMessage()).contains("a was written in plaintext at " + c.hex()).contains("retract it instead");
            assertThat(s.head()).isEqualTo(c);
        }
    }

    @Test
    void aSecondForgetIsRejectedNamingTheFirstTombstoneAndWritesNothing() throws Exception {
        try (Store s = TestStores.init(dir)) {
            writeAB(s);
            ForgetReport first = s.erasure().forget(ALICE, List.of(a), "first", false);
            RejectedException e = catchThrowableOfType(() -> s.erasure().forget(ALICE, List.of(a), "again", false),
                    RejectedException.class);
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.ALREADY_FORGOTTEN);
            assertThat(e.getMessage()).contains(first.commit().hex());
            assertThat(s.head()).isEqualTo(first.commit());
            RejectedException dry = catchThrowableOfType(() -> s.erasure().forget(ALICE, List.of(a), "again", true),
                    RejectedException.class);
            assertThat(dry.getMessage()).contains(first.commit().hex());
        }
    }

    @Test
    void aForgottenIdIsNeverWrittenAgain() throws Exception {
        try (Store s = TestStores.init(dir)) {
            writeAB(s);
            ForgetReport first = s.erasure().forget(ALICE, List.of(a), "first", false);
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "new words").id(a).asSensitive());
            RejectedException e = catchThrowableOfType(tx::commit, RejectedException.class);
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.FORGOTTEN);
            assertThat(e.getMessage()).contains(first.commit().hex());
        }
    }

    @Test
    void aStoreWithEncryptNoneRefusesSensitiveFactsAndDeadlines() throws Exception {
        try (Store s = Store.initializer(dir.resolve("s.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .encrypt("none").options(StoreOptions.defaults().withFsync(false)).create()) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "words").id(a).asSensitive());
            RejectedException e = catchThrowableOfType(tx::commit, RejectedException.class);
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.SEALING_OFF);
            var tx2 = s.begin(ALICE);
            tx2.assertFact(FactSpec.of(Kind.of("note"), "words").id(b).retainedUntil(DEADLINE));
            assertThat(catchThrowableOfType(tx2::commit, RejectedException.class).violations())
                    .extracting(v -> v.rule()).containsExactly(Rule.SEALING_OFF);
        }
    }

    @Test
    void encryptAllSealsEveryFactAndTheFileHoldsOnlyCiphertext() throws Exception {
        try (Store s = Store.initializer(dir.resolve("s.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .encrypt("all").options(StoreOptions.defaults().withFsync(false)).create()) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET_A).id(a));
            tx.commit();
            FactRead.Found f = (FactRead.Found) s.read(a, s.head());
            assertThat(f.fact().body()).isEqualTo(SECRET_A);
            assertThat(f.fact().seal()).isNotNull();
        }
    }
}
