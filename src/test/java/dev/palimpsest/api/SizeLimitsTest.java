package dev.palimpsest.api;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Rule;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SizeLimitsTest {
    @TempDir
    Path dir;

    @Test
    void aBodyOverTheLimitIsRejectedAsTooLargeAndNothingIsWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Set<String> before = TestStores.durableState(s.gitDir());
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "x".repeat(Limits.MAX_BODY + 1)).id(FactId.of("huge")));
            assertThatThrownBy(tx::commit).isInstanceOfSatisfying(RejectedException.class, e ->
                    assertThat(e.violations()).extracting(Violation::rule, Violation::subject)
                            .containsExactly(org.assertj.core.groups.Tuple.tuple(Rule.TOO_LARGE, "fact huge")));
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
        }
    }

    @Test
    void aBodyWhoseEscapedFileWouldExceedTheLimitIsRejectedAsTooLarge() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "\u0001".repeat(Limits.MAX_BODY / 2)).id(FactId.of("escaped")));
            assertThatThrownBy(tx::commit).isInstanceOfSatisfying(RejectedException.class, e ->
                    assertThat(e.violations()).extracting(Violation::rule).containsExactly(Rule.TOO_LARGE));
        }
    }

    @Test
    void aQuoteOverTheLimitIsRejectedAsTooLarge() throws Exception {
        try (Store s = TestStores.init(dir)) {
            String body = "q".repeat(Limits.MAX_QUOTE + 10);
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, body).id(FactId.of("src")));
            tx.commit();
            Transaction cite = s.begin(ALICE);
            cite.assertFact(FactSpec.of(Kind.CLAIM, "cites a long passage").id(FactId.of("claim")).refs(List.of(dev.palimpsest.model.RefSpec.cites(FactId.of("src")).withQuote(body.substring(1)))));
            assertThatThrownBy(cite::commit).isInstanceOfSatisfying(RejectedException.class, e ->
                    assertThat(e.violations()).extracting(Violation::rule).containsExactly(Rule.TOO_LARGE));
        }
    }

    @Test
    void everyBodyTheStoreAcceptsCanBeReadBack() throws Exception {
        String body = "caf\u00e9 \u65e5\u672c ".repeat((Limits.MAX_FILE - 4096) / 13);
        assertThat(body.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(Limits.MAX_FILE - 8192);
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, body).id(FactId.of("big")));
            CommitId c = tx.commit().id();
            assertThat(((FactRead.Found) s.read(FactId.of("big"), c)).fact().body()).isEqualTo(body);
        }
    }

    @Test
    void aTransactionOverTheOperationLimitIsRejectedBeforeTheGateRuns() throws Exception {
        List<Operation> ops = new java.util.ArrayList<>();
        for (int i = 0; i <= Limits.MAX_OPERATIONS; i++) {
            ops.add(new Operation.Retract(FactId.of("f" + i), "r"));
        }
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            ops.forEach(tx::add);
            assertThatThrownBy(tx::commit).isInstanceOfSatisfying(RejectedException.class, e ->
                    assertThat(e.violations()).extracting(Violation::rule).containsExactly(Rule.TOO_LARGE));
        }
    }
}
