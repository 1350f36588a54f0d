package dev.palimpsest.forget;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.ForgetReport;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sensitivity follows provenance: citers of sealed content are sealed by default and forgotten with it. */
class SealFollowsProvenanceTest {
    static final String SECRET = "Patient Zelda Quixote lives at 12 Harbour Lane";
    static final FactId A = FactId.of("a");
    static final FactId B = FactId.of("b");
    static final FactId C = FactId.of("c");
    static final FactId P = FactId.of("p");

    @TempDir
    Path dir;

    private static void sealedSource(Store s) throws Exception {
        var tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.of("note"), SECRET).id(A).asSensitive());
        tx.commit();
    }

    private static void write(Store s, FactSpec spec) throws Exception {
        var tx = s.begin(ALICE);
        tx.assertFact(spec);
        tx.commit();
    }

    private static Fact read(Store s, FactId id) throws Exception {
        return ((FactRead.Found) s.read(id, s.head())).fact();
    }

    @Test
    void aFactThatCitesASealedFactIsSealedUnderTheDefaultEncryptMode() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "needs a ramp at the door").id(B).refs(RefSpec.cites(A)));
            write(s, FactSpec.of(Kind.CLAIM, "the ramp was built").id(C).refs(RefSpec.cites(B)));
            write(s, FactSpec.of(Kind.CLAIM, "an unrelated plain claim").id(P));
            assertThat(read(s, B).seal()).as("cites a sealed fact").isNotNull();
            assertThat(read(s, C).seal()).as("cites a fact sealed by provenance").isNotNull();
            assertThat(read(s, P).seal()).as("cites nothing sealed").isNull();
            assertThat(read(s, B).plaintext()).isFalse();
            assertThat(TestStores.message(s.gitDir(), s.log(10).get(2).commit())).doesNotContain("ramp");
        }
    }

    @Test
    void aFactThatQuotesASealedFactIsSealed() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "needs a ramp").id(B).refs(RefSpec.cites(A)
                    .withQuote("Zelda Quixote lives at 12 Harbour")));
            Fact b = read(s, B);
            assertThat(b.seal()).isNotNull();
            assertThat(b.refs().get(0).quoteSealed()).isNotNull();
        }
    }

    @Test
    void plaintextIsKeptOnlyWhenTheWriterAsksAndTheFactRecordsTheChoice() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "a public summary of the visit").id(B).refs(RefSpec.cites(A)).asPlaintext());
            Fact b = read(s, B);
            assertThat(b.seal()).isNull();
            assertThat(b.plaintext()).isTrue();
            FactRead.Found found = (FactRead.Found) s.read(B, s.head());
            assertThat(TestStores.blob(s.gitDir(), found.version().blob())).contains("plaintext: true");
        }
    }

    @Test
    void anEntityClaimFromASealedSourceIsSealedUnlessWrittenPlaintext() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            FactId sealed = s.claims().claim(ALICE, dev.palimpsest.model.ClaimSpec.of("Zelda", "lives on",
                    "Harbour Lane", A).id(B)).id();
            FactId plain = s.claims().claim(ALICE, dev.palimpsest.model.ClaimSpec.of("Zelda", "needs", "a ramp", A)
                    .id(C).asPlaintext()).id();
            assertThat(read(s, sealed).seal()).isNotNull();
            assertThat(read(s, plain).seal()).isNull();
            assertThat(read(s, plain).plaintext()).isTrue();
        }
    }

    @Test
    void plaintextOnAFactSealedForAnotherReasonIsRefusedAndNothingIsWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            CommitId before = s.head();
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "both at once").id(B).refs(RefSpec.cites(A)).asSensitive().asPlaintext());
            RejectedException e = catchThrowableOfType(tx::commit, RejectedException.class);
            assertThat(e).isNotNull();
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.INVALID_FACT);
            assertThat(e.getMessage()).contains("plaintext");
            assertThat(s.head()).isEqualTo(before);
        }
    }

    @Test
    void aRevisionCannotMakeAPlainFactCiteSealedContentUnlessItIsMarkedPlaintext() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "a plain claim").id(P));
            write(s, FactSpec.of(Kind.CLAIM, "a deliberate plain claim").id(C).asPlaintext());
            CommitId before = s.head();
            var tx = s.begin(ALICE).revise(P, "a plain claim, now citing", List.of(RefSpec.cites(A)));
            RejectedException e = catchThrowableOfType(tx::commit, RejectedException.class);
            assertThat(e).isNotNull();
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.PLAINTEXT_CITER);
            assertThat(e.getMessage()).contains("fact p").contains("[a]");
            assertThat(s.head()).isEqualTo(before);
            s.begin(ALICE).revise(C, "a deliberate plain claim, citing", List.of(RefSpec.cites(A))).commit();
            assertThat(read(s, C).seal()).isNull();
            assertThat(read(s, C).plaintext()).as("the choice is carried into the revision").isTrue();
        }
    }

    @Test
    void forgetWithDerivedForgetsEverySealedMemberOfTheClosureInOneCommit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "needs a ramp at the door").id(B).refs(RefSpec.cites(A)));
            write(s, FactSpec.of(Kind.CLAIM, "the ramp was built").id(C).refs(RefSpec.cites(B)));
            write(s, FactSpec.of(Kind.CLAIM, "a public note").id(P).refs(RefSpec.cites(A)).asPlaintext());

            assertThat(s.erasure().unlearnCheck(A).readable()).as("nothing is unlearned before the forget")
                    .containsExactly(A, B, C, P);
            assertThat(s.erasure().unlearnCheck(A).clean()).isFalse();
            ForgetReport dry = s.erasure().forgetWithDerived(ALICE, List.of(A), "erasure request", true);
            assertThat(dry.commit()).isNull();
            assertThat(dry.forgotten()).containsExactly(A, B, C);
            CommitId before = s.head();
            ForgetReport r = s.erasure().forgetWithDerived(ALICE, List.of(A), "erasure request", false);
            assertThat(s.log(10).get(1).commit()).as("one commit").isEqualTo(before);
            assertThat(r.forgotten()).containsExactly(A, B, C);
            assertThat(r.closure()).containsExactly(B, C, P);
            assertThat(r.review()).as("the deliberate plaintext citer is left for review").containsExactly(P);
            assertThat(ForgetTest.tombstone(s, r.commit(), C).reason()).isEqualTo("cascade of forget a (erasure request)");
            for (FactId id : List.of(B, C)) {
                assertThat(catchThrowableOfType(() -> s.read(id, s.head()), dev.palimpsest.model.NotFoundException.class))
                        .hasMessageContaining("forgotten at " + r.commit().hex());
            }
            assertThat(s.erasure().unlearnCheck(A).readable()).containsExactly(P);
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    @Test
    void forgetWithoutWithDerivedLeavesSealedCitersForReviewAndTheyCanBeForgottenLater() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "needs a ramp at the door").id(B).refs(RefSpec.cites(A)));
            ForgetReport r = s.erasure().forget(ALICE, List.of(A), "erasure request", false);
            assertThat(r.forgotten()).containsExactly(A);
            assertThat(r.review()).containsExactly(B);
            assertThat(s.erasure().unlearnCheck(A).clean()).isFalse();
            s.erasure().forget(ALICE, List.of(B), "erasure request, derived", false);
            assertThat(s.erasure().unlearnCheck(A).clean()).isTrue();
        }
    }

    @Test
    void explainAndStaleShowAForgottenSourceAsForgottenWithItsTombstonesCommit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "a public note").id(P).refs(RefSpec.cites(A)).asPlaintext());
            FactId r2 = FactId.of("r2");
            write(s, FactSpec.of(Kind.CLAIM, "a retracted plain source").id(r2));
            s.begin(ALICE).addRefs(P, List.of(RefSpec.cites(r2))).commit();
            s.begin(ALICE).retract(r2, "wrong").commit();
            ForgetReport f = s.erasure().forget(ALICE, List.of(A), "erasure request", false);

            List<RefStatus> stale = s.stale(P, s.head());
            assertThat(stale).extracting(RefStatus::target, RefStatus::status).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(A, RefStatus.Status.FORGOTTEN),
                    org.assertj.core.groups.Tuple.tuple(r2, RefStatus.Status.RETRACTED));
            assertThat(stale.get(0).current()).isEqualTo(f.commit());

            ProvenanceNode root = s.derivations().explain(P, s.head());
            ProvenanceNode a = root.children().stream().filter(n -> n.id().equals(A)).findFirst().orElseThrow();
            assertThat(a.status()).isEqualTo(ProvenanceNode.Status.FORGOTTEN);
            assertThat(a.forgottenAt()).isEqualTo(f.commit());
            ProvenanceNode r = root.children().stream().filter(n -> n.id().equals(r2)).findFirst().orElseThrow();
            assertThat(r.status()).isEqualTo(ProvenanceNode.Status.RETRACTED);
            assertThat(r.forgottenAt()).isNull();
        }
    }

    @Test
    void aMergeOnASealedMemberIsSealedByItsVersionInGitEvenWhereTheVaultLacksTheKeyAndTheAuditAgrees()
            throws Exception {
        FactId m = FactId.of("m");
        FactId plain = FactId.of("m-plain");
        try (Store s = TestStores.init(dir)) {
            sealedSource(s);
            write(s, FactSpec.of(Kind.CLAIM, "a plain member").id(P));
        }
        // a replica that never held a's key: the vault is not replicated
        java.nio.file.Files.delete(dir.resolve("store.git").resolve("palimpsest-vault")
                .resolve(dev.palimpsest.internal.layout.StorePaths.shard(A)).resolve("a.key"));
        try (Store s = Store.open(dir.resolve("store.git"), new dev.palimpsest.api.KeyHome(dir.resolve("home")))) {
            var receipt = new dev.palimpsest.model.Receipt(List.of(List.of(dev.palimpsest.model.Pin.of(A)),
                    List.of(dev.palimpsest.model.Pin.of(P))));
            write(s, FactSpec.of(Kind.MERGE, "Zelda == the patient at the harbour").id(m).grounding(
                    new dev.palimpsest.model.Grounding(null, null, null, receipt, List.of(), false)));
            write(s, FactSpec.of(Kind.MERGE, "kept in the clear on purpose").id(plain).grounding(
                    new dev.palimpsest.model.Grounding(null, null, null, receipt, List.of(), false)).asPlaintext());
            assertThat(read(s, m).seal()).as("rests on a sealed version").isNotNull();
            assertThat(read(s, plain).plaintext()).isTrue();
            assertThat(TestStores.message(s.gitDir(), s.log(2).get(1).commit())).doesNotContain("Zelda");
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }
}
