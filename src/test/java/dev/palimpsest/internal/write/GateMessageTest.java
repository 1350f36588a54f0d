package dev.palimpsest.internal.write;

import static dev.palimpsest.api.TestStores.ALICE;
import static dev.palimpsest.internal.write.GateRuleCasesTest.ART;
import static dev.palimpsest.internal.write.GateRuleCasesTest.CLAIM;
import static dev.palimpsest.internal.write.GateRuleCasesTest.SRC;
import static dev.palimpsest.internal.write.GateRuleCasesTest.X;
import static dev.palimpsest.internal.write.GateRuleCasesTest.receipt;
import static dev.palimpsest.internal.write.GateRuleCasesTest.receiptOnly;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit message the gate builds for each operation: a subject naming the operation and an
 * excerpt of what it wrote (never the body of a sealed fact), then the actor, run and per-operation
 * trailers the audit checks against the tree change.
 */
class GateMessageTest {
    @TempDir
    Path dir;

    private String message(Store s, CommitId c) {
        return TestStores.message(s.gitDir(), c);
    }

    @Test
    void theGenesisCommitNamesTheInitAndTheFirstKey() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertThat(message(s, s.head()))
                    .isEqualTo("init alice\n\nPalimpsest-Actor: alice\nPalimpsest-Op: init\nPalimpsest-Key: alice\n");
        }
    }

    @Test
    void anAssertNamesItsFactItsBodyAndItsRun() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The harbour   board\nmet on Tuesday.").id(X).run("run-7"));
            CommitId c = t.commit().id();
            assertThat(message(s, c)).isEqualTo("assert fact-x: The harbour board met on Tuesday.\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Run: run-7\nPalimpsest-Op: assert\nPalimpsest-Fact: fact-x\n");
        }
    }

    @Test
    void reviseRetractAndRegroundEachNameTheirFact() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            CommitId revised = s.begin(ALICE).revise(CLAIM, "The vote was seven to two.", List.of()).commit().id();
            assertThat(message(s, revised)).isEqualTo("revise claim-1: The vote was seven to two.\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: revise\nPalimpsest-Fact: claim-1\n");
            CommitId regrounded = s.begin(ALICE).reground(ART, receiptOnly(receipt(SRC, CLAIM))).commit().id();
            assertThat(message(s, regrounded)).isEqualTo("revise art-1: The board approved it.\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: revise\nPalimpsest-Fact: art-1\n");
            CommitId withReason = TestStores.add(s.begin(ALICE), new Operation.Reground(ART, "The board approved.",
                    receiptOnly(receipt(SRC)), "cascade of claim-1")).commit().id();
            assertThat(message(s, withReason)).isEqualTo("revise art-1: cascade of claim-1\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: revise\nPalimpsest-Fact: art-1\n");
            CommitId retracted = s.begin(ALICE).retract(CLAIM, "the minutes say otherwise").commit().id();
            assertThat(message(s, retracted)).isEqualTo("retract claim-1: the minutes say otherwise\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: retract\nPalimpsest-Fact: claim-1\n");
        }
    }

    @Test
    void aTransactionCountsItsOperationsAndListsTrailersInOrder() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "One.").id(X).run("run-b"));
            t.retract(CLAIM, "wrong");
            t.assertFact(FactSpec.of(Kind.CLAIM, "Two.").id(FactId.of("fact-y")).run("run-a"));
            CommitId c = t.commit().id();
            assertThat(message(s, c)).isEqualTo("transaction of 3 operations: 2 assert, 1 retract\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Run: run-a\nPalimpsest-Run: run-b\n"
                    + "Palimpsest-Op: assert\nPalimpsest-Fact: fact-x\n"
                    + "Palimpsest-Op: retract\nPalimpsest-Fact: claim-1\n"
                    + "Palimpsest-Op: assert\nPalimpsest-Fact: fact-y\n");
        }
    }

    @Test
    void aSealedFactsBodyNeverAppearsInTheMessage() throws Exception {
        try (Store s = GateRuleCasesTest.base(dir)) {
            FactId secret = FactId.of("secret-1");
            FactId derived = FactId.of("art-s");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.of("note"), "Zelda lives at 12 Harbour Lane.").id(secret).asSensitive());
            CommitId asserted = t.commit().id();
            assertThat(message(s, asserted)).isEqualTo("assert secret-1\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: assert\nPalimpsest-Fact: secret-1\n");
            CommitId revised = s.begin(ALICE).revise(secret, "Zelda moved to 3 Quay Street.", List.of()).commit().id();
            assertThat(message(s, revised)).isEqualTo("revise secret-1\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: revise\nPalimpsest-Fact: secret-1\n");
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.MERGE, "Zelda's address changed.").id(derived)
                    .grounding(receiptOnly(receipt(secret))));
            CommitId merged = t.commit().id();
            assertThat(message(s, merged)).isEqualTo("assert art-s\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: assert\nPalimpsest-Fact: art-s\n");
            CommitId regrounded = s.begin(ALICE).reground(derived, receiptOnly(receipt(secret, SRC))).commit().id();
            assertThat(message(s, regrounded)).isEqualTo("revise art-s\n\n"
                    + "Palimpsest-Actor: alice\nPalimpsest-Op: revise\nPalimpsest-Fact: art-s\n");
        }
    }
}
