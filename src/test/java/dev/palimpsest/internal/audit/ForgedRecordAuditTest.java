package dev.palimpsest.internal.audit;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit against {@link ForgedRecordCases}: each forged key, record, configuration, fact file,
 * retraction or commit header is flagged, in the forged commit, with exactly the rules its case names.
 */
class ForgedRecordAuditTest {
    @TempDir
    Path dir;

    static Stream<ForgedCases.Case> cases() {
        return ForgedRecordCases.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theAuditFlagsAForgedRecordWithTheRulesItBreaks(ForgedCases.Case c) throws Exception {
        RuleBookAuditTest.assertFlagged(dir, c);
    }
}
