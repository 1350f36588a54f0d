package dev.palimpsest.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The write path's size limits at their boundaries: a limit is the largest size accepted, one more
 * is {@code too-large}; a body is measured in UTF-8 bytes (a surrogate pair is 4, a lone surrogate
 * 3); a deleted file counts for nothing.
 */
class WriteLimitsTest {
    static final FactId X = FactId.of("fact-x");

    static Operation.Assert assertOf(String body, RefSpec... refs) {
        return new Operation.Assert(X, Kind.CLAIM, body, null, List.of(refs));
    }

    static List<String> subjects(ThrowingRunnable r) {
        RejectedException e = catchThrowableOfType(r::run, RejectedException.class);
        assertThat(e).as("rejected").isNotNull();
        assertThat(e.violations()).extracting(Violation::rule).containsOnly(Rule.TOO_LARGE);
        return e.violations().stream().map(Violation::subject).toList();
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aTransactionMayHoldExactlyTheOperationLimit() {
        List<Operation> ops = new ArrayList<>();
        for (int i = 0; i < Limits.MAX_OPERATIONS; i++) {
            ops.add(new Operation.Retract(X, "r"));
        }
        assertThatCode(() -> WriteLimits.checkOperations(ops)).doesNotThrowAnyException();
        ops.add(new Operation.Retract(X, "r"));
        assertThat(subjects(() -> WriteLimits.checkOperations(ops))).containsExactly("transaction");
    }

    @Test
    void aQuoteMayBeExactlyTheQuoteLimit() {
        RefSpec atLimit = RefSpec.cites(FactId.of("src-1")).withQuote("q".repeat(Limits.MAX_QUOTE));
        RefSpec over = RefSpec.cites(FactId.of("src-2")).withQuote("q".repeat(Limits.MAX_QUOTE + 1));
        assertThatCode(() -> WriteLimits.checkOperations(List.of(assertOf("b", atLimit)))).doesNotThrowAnyException();
        assertThat(subjects(() -> WriteLimits.checkOperations(List.of(assertOf("b", atLimit, over),
                new Operation.Revise(FactId.of("fact-r"), null, null, List.of(over))))))
                .containsExactly("fact fact-x, ref src-2", "fact fact-r, ref src-2");
    }

    /** Bodies of {@code unit} repeated, padded with ASCII to exactly the limit, are accepted; one byte more is not. */
    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"007f", "0080", "07ff", "0800", "ffff", "d83d+de00", "d83d", "de00"})
    void aBodyIsMeasuredInUtf8Bytes(String unit) {
        StringBuilder u = new StringBuilder();
        for (String cp : unit.split("\\+")) {
            u.append((char) Integer.parseInt(cp, 16));
        }
        int bytes = unit.contains("+") ? 4 : Integer.parseInt(unit.split("\\+")[0], 16) < 0x80 ? 1
                : Integer.parseInt(unit, 16) < 0x800 ? 2 : 3;
        int n = Limits.MAX_BODY / bytes - 7;
        String atLimit = u.toString().repeat(n) + "a".repeat(Limits.MAX_BODY - n * bytes);
        assertThatCode(() -> WriteLimits.checkOperations(List.of(assertOf(atLimit)))).doesNotThrowAnyException();
        assertThat(subjects(() -> WriteLimits.checkOperations(List.of(assertOf(atLimit + "a")))))
                .containsExactly("fact fact-x");
    }

    @Test
    void aLoneHighSurrogateAtTheEndCountsThreeBytes() {
        String atLimit = "a".repeat(Limits.MAX_BODY - 3) + "\ud83d";
        assertThatCode(() -> WriteLimits.checkOperations(List.of(assertOf(atLimit)))).doesNotThrowAnyException();
        assertThat(subjects(() -> WriteLimits.checkOperations(List.of(assertOf("a" + atLimit)))))
                .containsExactly("fact fact-x");
    }

    @Test
    void everyOperationWithABodyIsMeasured() {
        String over = "x".repeat(Limits.MAX_BODY + 1);
        assertThat(subjects(() -> WriteLimits.checkOperations(List.of(assertOf(over),
                new Operation.Revise(FactId.of("fact-r"), over, null, List.of()),
                new Operation.Reground(FactId.of("fact-g"), over, Grounding.NONE, null),
                new Operation.Revise(FactId.of("fact-k"), null, 0.5, List.of())))))
                .containsExactly("fact fact-x", "fact fact-r", "fact fact-g");
    }

    @Test
    void aFileMayBeExactlyTheFileLimit() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("facts/a.yaml", new byte[Limits.MAX_FILE]);
        files.put("facts/gone.yaml", null);
        WriteLimits.checkFiles(files);
        files.put("facts/b.yaml", new byte[Limits.MAX_FILE + 1]);
        assertThat(subjects(() -> WriteLimits.checkFiles(files))).containsExactly("facts/b.yaml");
    }

    @Test
    void aTransactionsFilesMayTotalExactlyTheTransactionLimit() throws Exception {
        byte[] mib = new byte[Limits.MAX_FILE];
        Map<String, byte[]> files = new LinkedHashMap<>();
        long n = Limits.MAX_TRANSACTION_BYTES / mib.length;
        for (int i = 0; i < n; i++) {
            files.put("facts/" + i + ".yaml", mib);
        }
        assertThat(n * mib.length).isEqualTo(Limits.MAX_TRANSACTION_BYTES);
        WriteLimits.checkFiles(files);
        files.put("facts/one-more.yaml", new byte[1]);
        assertThat(subjects(() -> WriteLimits.checkFiles(files))).containsExactly("transaction");
    }
}
