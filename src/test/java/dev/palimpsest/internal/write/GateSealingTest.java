package dev.palimpsest.internal.write;

import static dev.palimpsest.api.TestStores.ALICE;
import static dev.palimpsest.internal.write.GateRuleCasesTest.SRC;
import static dev.palimpsest.internal.write.GateRuleCasesTest.receipt;
import static dev.palimpsest.internal.write.GateRuleCasesTest.receiptOnly;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.Violation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which facts the gate seals: sensitive facts and facts with a deadline (refused when the store
 * cannot seal), every fact under {@code encrypt: all}, kinds with a retention default (which also
 * sets the deadline), derived artifacts naming a sealed fact by ref or receipt, and new versions of
 * sealed facts; a quote of a sealed target is sealed too. Sealed files hold no plaintext.
 */
class GateSealingTest {
    static final Kind NOTE = Kind.of("note");
    static final String SECRET = "Zelda Quixote lives at 12 Harbour Lane.";
    static final FactId A = FactId.of("secret-a");

    @TempDir
    Path dir;

    private Store store(String encrypt, Map<String, String> retention) throws Exception {
        return Store.initializer(dir.resolve("s.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .encrypt(encrypt).retention(retention).options(StoreOptions.defaults().withFsync(false)).create();
    }

    private static Fact fact(Store s, FactId id) throws Exception {
        return ((FactRead.Found) s.read(id, s.head())).fact();
    }

    /** The fact's file at main's tip, as stored. */
    private static String raw(Store s, FactId id) throws Exception {
        return TestStores.blob(s.gitDir(), s.factExistsAt(id, s.head()).version().blob());
    }

    private static void assertSealed(Store s, FactId id, String plaintext) throws Exception {
        assertThat(fact(s, id).seal()).as("%s sealed", id).isNotNull();
        assertThat(fact(s, id).body()).isEqualTo(plaintext);
        assertThat(raw(s, id)).as("%s's file", id).doesNotContain(plaintext);
    }

    private static void assertPlain(Store s, FactId id, String body) throws Exception {
        assertThat(fact(s, id).seal()).as("%s sealed", id).isNull();
        assertThat(raw(s, id)).as("%s's file", id).contains(body);
    }

    private static RejectedException rejected(Transaction t) {
        return catchThrowableOfType(t::commit, RejectedException.class);
    }

    @Test
    void aSensitiveFactIsSealedAndAPlainOneIsNot() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.assertFact(FactSpec.of(NOTE, "The ferry leaves at nine.").id(FactId.of("plain-b")));
            t.commit();
            assertSealed(s, A, SECRET);
            assertPlain(s, FactId.of("plain-b"), "The ferry leaves at nine.");
            assertPlain(s, SRC, GateRuleCasesTest.SRC_BODY);
        }
    }

    @Test
    void aDeadlineSealsTheFactAndIsKeptToTheSecond() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Instant deadline = Instant.parse("2031-05-06T07:08:09.987654321Z");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).retainedUntil(deadline));
            t.commit();
            assertSealed(s, A, SECRET);
            assertThat(fact(s, A).retainUntil()).isEqualTo(Instant.parse("2031-05-06T07:08:09Z"));
            assertThat(fact(s, SRC).retainUntil()).isNull();
        }
    }

    @Test
    void aStoreThatDoesNotSealRefusesSensitiveFactsAndDeadlines() throws Exception {
        try (Store s = store("none", Map.of())) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.assertFact(FactSpec.of(NOTE, "Due for deletion.").id(FactId.of("b")).retainedUntil(Instant.parse(
                    "2031-01-01T00:00:00Z")));
            t.assertFact(FactSpec.of(NOTE, "Plain words.").id(FactId.of("c")));
            assertThat(rejected(t).violations()).containsExactly(
                    new Violation(Rule.SEALING_OFF, "fact secret-a", "this store's config says encrypt: none; a "
                            + "sensitive fact or a retention deadline needs sealed content"),
                    new Violation(Rule.SEALING_OFF, "fact b", "this store's config says encrypt: none; a "
                            + "sensitive fact or a retention deadline needs sealed content"));
            Transaction plain = s.begin(ALICE);
            plain.assertFact(FactSpec.of(NOTE, "Plain words.").id(FactId.of("c")));
            plain.commit();
            assertPlain(s, FactId.of("c"), "Plain words.");
        }
    }

    @Test
    void aProducedFileRecordIsNeverSealed() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.of("file"), "name: a.txt").id(FactId.of("file-a")).asSensitive());
            assertThat(rejected(t).violations()).containsExactly(new Violation(Rule.SEALING_OFF, "fact file-a",
                    "produced file records are never sealed; a sensitive fact or a retention deadline needs sealed "
                            + "content"));
        }
    }

    @Test
    void encryptAllSealsEveryFact() throws Exception {
        try (Store s = store("all", Map.of())) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A));
            t.commit();
            assertSealed(s, A, SECRET);
            assertThat(fact(s, A).retainUntil()).isNull();
        }
    }

    @Test
    void aRetentionDefaultSealsItsKindAndSetsTheDeadline() throws Exception {
        try (Store s = store("sensitive", Map.of("note", "P30D"))) {
            Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A));
            t.assertFact(FactSpec.of(Kind.CLAIM, "The ferry leaves at nine.").id(FactId.of("claim-b")));
            t.commit();
            Instant after = Instant.now();
            assertSealed(s, A, SECRET);
            Instant deadline = fact(s, A).retainUntil();
            assertThat(deadline).isBetween(before.plus(Duration.ofDays(30)), after.plus(Duration.ofDays(30)));
            assertThat(deadline.getNano()).isZero();
            assertPlain(s, FactId.of("claim-b"), "The ferry leaves at nine.");
            assertThat(fact(s, FactId.of("claim-b")).retainUntil()).isNull();
        }
    }

    @Test
    void aDerivedArtifactNamingASealedFactIsSealed() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.assertFact(FactSpec.of(Kind.MERGE, "Same-transaction member.").id(FactId.of("m-same"))
                    .grounding(receiptOnly(receipt(A))));
            t.commit();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.MERGE, "Cites the secret.").id(FactId.of("m-ref")).refs(RefSpec.cites(A))
                    .grounding(receiptOnly(receipt(SRC))));
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the secret.").id(FactId.of("m-receipt"))
                    .grounding(receiptOnly(receipt(SRC, A))));
            t.assertFact(FactSpec.of(Kind.SUMMARY, "One. Two.").id(FactId.of("s-sentence")).grounding(new Grounding(
                    null, null, null, null, List.of(new Sentence("One.", receipt(SRC)), new Sentence("Two.",
                            receipt(A))), false)));
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the source only.").id(FactId.of("m-plain"))
                    .grounding(receiptOnly(receipt(SRC))));
            t.assertFact(FactSpec.of(Kind.CLAIM, "A claim citing the secret.").id(FactId.of("c-ref"))
                    .refs(RefSpec.cites(A)));
            t.assertFact(FactSpec.of(Kind.CLAIM, "A claim kept plain on purpose.").id(FactId.of("c-plain"))
                    .refs(RefSpec.cites(A)).asPlaintext());
            t.commit();
            assertSealed(s, FactId.of("m-same"), "Same-transaction member.");
            assertSealed(s, FactId.of("m-ref"), "Cites the secret.");
            assertSealed(s, FactId.of("m-receipt"), "Rests on the secret.");
            assertSealed(s, FactId.of("s-sentence"), "One. Two.");
            assertPlain(s, FactId.of("m-plain"), "Rests on the source only.");
            assertSealed(s, FactId.of("c-ref"), "A claim citing the secret.");
            assertPlain(s, FactId.of("c-plain"), "A claim kept plain on purpose.");
        }
    }

    @Test
    void newVersionsOfASealedFactStaySealed() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            FactId art = FactId.of("m-s");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the secret.").id(art).grounding(receiptOnly(receipt(A))));
            t.commit();
            s.begin(ALICE).revise(A, "Zelda moved to 3 Quay Street.", List.of()).commit();
            assertSealed(s, A, "Zelda moved to 3 Quay Street.");
            s.begin(ALICE).reground(art, receiptOnly(receipt(SRC))).commit();
            assertSealed(s, art, "Rests on the secret.");
        }
    }

    @Test
    void revisingASealedFactToItsOwnBodyChangesNothing() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.commit();
            assertThat(rejected(s.begin(ALICE).revise(A, SECRET, List.of())).violations()).containsExactly(
                    new Violation(Rule.NO_CHANGE, "fact secret-a", "the revision changes nothing"));
        }
    }

    @Test
    void aQuoteOfASealedTargetIsSealedAndAQuoteOfAPlainOneIsNot() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            FactId same = FactId.of("secret-same");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, SECRET).id(A).asSensitive());
            t.commit();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(NOTE, "Quay Street is closed for works.").id(same).asSensitive());
            t.assertFact(FactSpec.of(NOTE, "Quotes the earlier secret.").id(FactId.of("q-parent"))
                    .refs(RefSpec.cites(A).withQuote("lives at 12 Harbour")));
            t.assertFact(FactSpec.of(NOTE, "Quotes the same-transaction secret.").id(FactId.of("q-same"))
                    .refs(RefSpec.cites(same).withQuote("closed for works")));
            t.assertFact(FactSpec.of(NOTE, "Quotes the source.").id(FactId.of("q-plain"))
                    .refs(RefSpec.cites(SRC).withQuote("seven votes to two")));
            CommitId c = t.commit().id();
            for (String[] q : new String[][] {{"q-parent", "lives at 12 Harbour"}, {"q-same", "closed for works"}}) {
                var ref = fact(s, FactId.of(q[0])).refs().get(0);
                assertThat(ref.quote()).isEqualTo(q[1]);
                assertThat(ref.quoteSealed()).as(q[0]).isNotNull();
                assertThat(raw(s, FactId.of(q[0]))).as(q[0]).doesNotContain(q[1]);
            }
            var plain = fact(s, FactId.of("q-plain")).refs().get(0);
            assertThat(plain.quote()).isEqualTo("seven votes to two");
            assertThat(plain.quoteSealed()).isNull();
            assertThat(raw(s, FactId.of("q-plain"))).contains("seven votes to two");
            assertThat(c).isEqualTo(s.head());
        }
    }
}
