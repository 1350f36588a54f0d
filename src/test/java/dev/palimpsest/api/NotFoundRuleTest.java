package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.RejectedException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for what does not exist, method by method: an unknown commit is a NotFoundException
 * everywhere; a fact never written in the ancestry of the commit is a NotFoundException for every
 * read and a rejection for every write; a retracted fact is an answer.
 */
class NotFoundRuleTest {
    private static final CommitId NO_SUCH_COMMIT = CommitId.of("0123456789abcdef0123456789abcdef01234567");
    private static final FactId NEVER = FactId.of("never-written");
    private static final FactId SRC = FactId.of("src");
    private static final FactId CLAIM = FactId.of("claim");

    @TempDir
    Path dir;

    private Store store;
    private CommitId written;
    private CommitId retracted;

    @BeforeEach
    void writeASourceACitingClaimAndRetractTheSource() throws Exception {
        store = TestStores.init(dir);
        Transaction tx = store.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.SOURCE, "the harbour board approved the breakwater").id(SRC));
        tx.assertFact(FactSpec.of(Kind.CLAIM, "the breakwater was approved").id(CLAIM).refs(RefSpec.cites(SRC)));
        written = tx.commit().id();
        retracted = store.begin(ALICE).retract(SRC, "misread minutes").commit().id();
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        store.close();
    }

    @Test
    void everyMethodTakingACommitRejectsAnUnknownOneWithNotFound() {
        Map<String, ThrowingCallable> calls = Map.ofEntries(
                Map.entry("read", () -> store.read(SRC, NO_SUCH_COMMIT)),
                Map.entry("factLiveAtCommit", () -> store.factLiveAtCommit(SRC, NO_SUCH_COMMIT)),
                Map.entry("factExistsAt", () -> store.factExistsAt(SRC, NO_SUCH_COMMIT)),
                Map.entry("inbound", () -> store.inbound(SRC, NO_SUCH_COMMIT)),
                Map.entry("inbound(all)", () -> store.inbound(SRC, NO_SUCH_COMMIT, true)),
                Map.entry("stale", () -> store.stale(CLAIM, NO_SUCH_COMMIT)),
                Map.entry("weight", () -> store.weight(CLAIM, NO_SUCH_COMMIT)),
                Map.entry("publicKey", () -> store.publicKey(ALICE, NO_SUCH_COMMIT)),
                Map.entry("keys", () -> store.keys(NO_SUCH_COMMIT)),
                Map.entry("resolve", () -> store.resolve(NO_SUCH_COMMIT.hex())),
                Map.entry("receipts.report", () -> store.receipts().report(NO_SUCH_COMMIT)),
                Map.entry("receipts.review", () -> store.receipts().review(NO_SUCH_COMMIT)),
                Map.entry("auditRange(from, to)", () -> audit(a -> a.auditRange(NO_SUCH_COMMIT, written, AuditProgress.none()))),
                Map.entry("auditUpTo(to)", () -> audit(a -> a.auditUpTo(NO_SUCH_COMMIT, AuditProgress.none()))),
                Map.entry("auditRange(range)", () -> audit(a -> a.auditRange(NO_SUCH_COMMIT.hex() + "..main", AuditProgress.none()))));
        calls.forEach((name, call) -> assertThatThrownBy(call).as(name).isInstanceOf(NotFoundException.class)
                .hasMessageContaining(NO_SUCH_COMMIT.hex()));
    }

    @Test
    void everyReadOfAFactNeverWrittenIsNotFoundNeverAnEmptyAnswer() {
        Map<String, ThrowingCallable> calls = Map.of(
                "read", () -> store.read(NEVER, retracted),
                "factLiveAtCommit", () -> store.factLiveAtCommit(NEVER, retracted),
                "factExistsAt", () -> store.factExistsAt(NEVER, retracted),
                "inbound", () -> store.inbound(NEVER, retracted),
                "inbound(all)", () -> store.inbound(NEVER, retracted, true),
                "stale", () -> store.stale(NEVER, retracted),
                "weight", () -> store.weight(NEVER, retracted),
                "history", () -> store.history(NEVER));
        calls.forEach((name, call) -> assertThatThrownBy(call).as(name).isInstanceOf(NotFoundException.class)
                .hasMessageContaining(NEVER.value()));
    }

    @Test
    void aFactWrittenLaterInHistoryIsNotFoundAtAnEarlierCommit() throws Exception {
        CommitId genesis = store.resolve("main~2");
        assertThatThrownBy(() -> store.factLiveAtCommit(SRC, genesis)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> store.read(SRC, genesis)).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aRetractedFactIsAnAnswerAtEveryRead() throws Exception {
        assertThat(store.factLiveAtCommit(SRC, retracted)).isFalse();
        ExistsAt last = store.factExistsAt(SRC, retracted);
        assertThat(last.live()).isFalse();
        assertThat(last.commit()).isEqualTo(written);
        assertThat(store.factExistsAt(SRC, written).live()).isTrue();
        assertThat(store.read(SRC, retracted)).isInstanceOf(FactRead.Retracted.class);
        assertThat(store.weight(SRC, retracted).w()).isZero();
        assertThat(store.inbound(SRC, retracted)).singleElement()
                .satisfies(in -> assertThat(in.role()).isEqualTo(RefRole.CITES));
        assertThat(store.stale(CLAIM, retracted)).singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(RefStatus.Status.RETRACTED));
        assertThat(store.history(SRC)).extracting(HistoryEntry::change)
                .containsExactly(HistoryEntry.Change.RETRACTED, HistoryEntry.Change.ADDED);
        assertThat(store.history(SRC)).extracting(HistoryEntry::actor).containsOnly(ALICE);
    }

    @Test
    void everyWriteNamingAFactNeverWrittenIsRejectedNotNotFound() {
        Map<String, ThrowingCallable> calls = Map.of(
                "retract", () -> store.begin(ALICE).retract(NEVER, "no").commit(),
                "revise", () -> store.begin(ALICE).revise(NEVER, "new body", List.of()).commit(),
                "cite", () -> {
                    Transaction tx = store.begin(ALICE);
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "cites nothing real").refs(RefSpec.cites(NEVER)));
                    tx.commit();
                },
                "planRetract", () -> store.receipts().planRetract(List.of(NEVER), "no"),
                "planRetractSource", () -> store.receipts().planRetractSource(List.of(NEVER), "no"),
                "planRevokeRelation", () -> store.receipts().planRevokeRelation("never_used", "no"),
                "acknowledge", () -> store.receipts().acknowledge(ALICE, NEVER, "seen"));
        calls.forEach((name, call) -> assertThatThrownBy(call).as(name).isInstanceOf(RejectedException.class));
    }

    @Test
    void aRetractedFactCannotBeAcknowledgedOrRetractedAgain() {
        assertThatThrownBy(() -> store.receipts().acknowledge(ALICE, SRC, "seen")).isInstanceOf(RejectedException.class);
        assertThatThrownBy(() -> store.receipts().planRetract(List.of(SRC), "again"))
                .isInstanceOf(RejectedException.class).hasMessageContaining("already retracted");
    }

    private interface AuditCall {
        Object on(Auditor a) throws Exception;
    }

    private Object audit(AuditCall call) throws Exception {
        try (Auditor a = Auditor.open(store.gitDir())) {
            return call.on(a);
        }
    }
}
