package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rule book against the audit: every rule the audit checks has a forged history that breaks
 * it ({@link ForgedCases}), and the audit flags that history, in the forged commit, with exactly
 * the rules the case names; the history the gate wrote before it stays clean.
 */
class RuleBookAuditTest {
    @TempDir
    Path dir;

    static Stream<ForgedCases.Case> cases() {
        return ForgedCases.all().stream();
    }

    @Test
    void everyAuditCheckedRuleHasAForgedCase() {
        Set<Rule> forged = ForgedCases.all().stream().map(ForgedCases.Case::rule).collect(Collectors.toSet());
        Set<Rule> checked = Arrays.stream(Rule.values()).filter(Rule::auditChecked).collect(Collectors.toSet());
        assertThat(forged).containsExactlyInAnyOrderElementsOf(checked);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theAuditFlagsAForgedHistoryWithTheRuleItBreaks(ForgedCases.Case c) throws Exception {
        assertFlagged(dir, c);
    }

    /** The gate's history under {@code dir} audits clean; forged by {@code c}, it breaks exactly {@code c}'s rules, all in the forged commit. */
    static void assertFlagged(Path dir, ForgedCases.Case c) throws Exception {
        ForgedCases.Store store = GateHistory.write(dir);
        assertThat(GateHistory.audit(store.gitDir()).violations()).as("the gate's history").isEmpty();

        ObjectId forged = c.forging().forge(store);

        List<AuditViolation> vs = GateHistory.audit(store.gitDir()).violations();
        assertThat(vs).as(vs.toString()).isNotEmpty()
                .allMatch(v -> v.commit().hex().equals(forged.name()), "all in the forged commit")
                .allMatch(v -> !v.message().isBlank(), "each with a message");
        assertThat(vs.stream().map(AuditViolation::rule).collect(Collectors.toSet())).as(vs.toString())
                .isEqualTo(c.reported());
    }
}
