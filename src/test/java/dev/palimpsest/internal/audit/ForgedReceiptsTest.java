package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts forged past the gate: every member pin new in a version is checked, the sentences' too,
 * and a re-added artifact's receipts are followed through the tree for cycles; an assertion's
 * unpinned source is read where the same commit writes it; a forgotten id's retraction record is
 * no rewrite of the fact.
 */
class ForgedReceiptsTest {
    private static final FactId MX = FactId.of("m-x");
    private static final FactId MY = FactId.of("m-y");
    private static final CommitId NO_COMMIT = CommitId.of("1234567890123456789012345678901234567890");

    @TempDir
    Path dir;

    private ForgedCases.Store s;

    @BeforeEach
    void writeHistory() throws Exception {
        s = GateHistory.write(dir);
    }

    @Test
    void aReceiptMemberPinnedToNoCommitIsUnknown() throws Exception {
        ObjectId c = artifact(MX, Kind.MERGE, receipt(new Pin(ForgedCases.SRC, NO_COMMIT, s.srcBlob())), List.of());
        AuditViolation v = only(c, Rule.PIN_UNKNOWN);
        assertThat(v.path()).isEqualTo(ForgedCases.path(MX, Kind.MERGE));
        assertThat(v.message()).endsWith("does not exist in this store");
    }

    @Test
    void aReceiptMemberPinnedToABlobIsNotACommit() throws Exception {
        CommitId blob = CommitId.of(s.srcBlob().hex());
        ObjectId c = artifact(MX, Kind.MERGE, receipt(new Pin(ForgedCases.SRC, blob, s.srcBlob())), List.of());
        assertThat(only(c, Rule.PIN_UNKNOWN).message()).endsWith("is not a commit");
    }

    @Test
    void theMembersOfASummarysSentenceReceiptsArePinChecked() throws Exception {
        Sentence one = new Sentence("The vote was close.", receipt(new Pin(ForgedCases.SRC, NO_COMMIT, s.srcBlob())));
        ObjectId c = artifact(MX, Kind.SUMMARY, null, List.of(one));
        assertThat(only(c, Rule.PIN_UNKNOWN).path()).isEqualTo(ForgedCases.path(MX, Kind.SUMMARY));
    }

    @Test
    void anUnpinnedMemberThatDoesNotExistIsMissingAtTheParent() throws Exception {
        ObjectId c = artifact(MX, Kind.MERGE, receipt(Pin.of(FactId.of("ghost"))), List.of());
        assertThat(only(c, Rule.RECEIPT_MEMBER_MISSING).message()).contains("at the parent " + s.main().name());
    }

    @Test
    void aReAddedArtifactsReceiptCycleThroughArtifactsInTheTreeIsFound() throws Exception {
        artifact(MX, Kind.MERGE, receipt(new Pin(ForgedCases.SRC, s.srcCommit(), s.srcBlob())), List.of());
        artifact(MY, Kind.MERGE, receipt(Pin.of(MX)), List.of());
        s.forge().remove(ForgedCases.path(MX, Kind.MERGE)).put(StorePaths.retractionPath(MX), "retracted")
                .trailers("alice", "retract", "Palimpsest-Fact", MX.value()).commit();
        ObjectId c = artifact(MX, Kind.MERGE, receipt(Pin.of(MY)), List.of());
        assertThat(GateHistory.rulesAt(s, c)).contains("receipt-cycle " + ForgedCases.path(MX, Kind.MERGE));
    }

    @Test
    void anAssertionsUnpinnedSourceWrittenInTheSameCommitMustBeASource() throws Exception {
        FactId claim = FactId.of("claim-9");
        FactId a = FactId.of("a-1");
        Fact assertion = new Fact(a, Kind.ASSERTION, "ERK regulates apoptosis", null, List.of(new Ref(claim,
                RefRole.SOURCE, null, null, null)), null, Grounding.triple("ERK", "regulates", "apoptosis"));
        ObjectId c = s.forge().put(ForgedCases.path(claim, Kind.CLAIM), FactCodec.encode(new Fact(claim, Kind.CLAIM,
                "Not a source document.", null, List.of())))
                .put(ForgedCases.path(a, Kind.ASSERTION), FactCodec.encode(assertion))
                .trailers("alice", "assert", "Palimpsest-Fact", claim.value(), "assert", "Palimpsest-Fact", a.value())
                .commit();
        assertThat(GateHistory.rulesAt(s, c)).containsExactly("assertion-source " + ForgedCases.path(a, Kind.ASSERTION));
    }

    @Test
    void aRetractionRecordUnderAForgottenIdIsNotARewriteOfTheFact() throws Exception {
        FactId sx = FactId.of("sx");
        try (Store st = open()) {
            var tx = st.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "Sealed words of sx here.").id(sx).asSensitive());
            tx.commit();
            st.erasure().forget(ALICE, List.of(sx), "gone", false);
        }
        String at = StorePaths.retractionPath(sx);
        ObjectId c = s.forge().put(at, "not a record").trailers("alice", "retract", "Palimpsest-Fact", sx.value())
                .commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("malformed-file " + at)
                .doesNotContain("tombstone-rewritten " + at);
    }

    private Store open() throws Exception {
        return Store.open(s.gitDir(), s.home(), StoreOptions.defaults().withFsync(false));
    }

    private AuditViolation only(ObjectId commit, Rule rule) throws Exception {
        List<AuditViolation> vs = GateHistory.in(s, commit);
        assertThat(vs).as(vs.toString()).extracting(AuditViolation::rule).containsExactly(rule);
        return vs.get(0);
    }

    private static Receipt receipt(Pin member) {
        return new Receipt(List.of(List.of(member)));
    }

    private ObjectId artifact(FactId id, Kind kind, Receipt r, List<Sentence> sentences) throws Exception {
        Fact f = new Fact(id, kind, "A layered fact.", null, List.of(), null, new Grounding(null, null, null, r,
                sentences, false));
        return s.forge().put(ForgedCases.path(id, kind), FactCodec.encode(f))
                .trailers("alice", "assert", "Palimpsest-Fact", id.value()).commit();
    }
}
