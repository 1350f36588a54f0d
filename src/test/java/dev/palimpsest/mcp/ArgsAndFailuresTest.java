package dev.palimpsest.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Arguments read by name with the argument named in every refusal; failures mapped to the CLI's error contract. */
class ArgsAndFailuresTest {
    private static Args args(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new Args(m);
    }

    private static Violation refusal(ThrowingCall call) {
        try {
            call.run();
        } catch (RejectedException e) {
            assertThat(e.violations()).hasSize(1);
            return e.violations().get(0);
        } catch (Exception e) {
            throw new AssertionError("expected a rejection, got " + e, e);
        }
        throw new AssertionError("expected a rejection, got none");
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void textsAreReadByNameAndEmptyOrMissingOnesAreRefusedNamingTheArgument() throws Exception {
        assertThat(args("body", "hello").text("body")).isEqualTo("hello");
        assertThat(args().optText("body")).isNull();
        Violation missing = refusal(() -> args().text("body"));
        assertThat(missing.rule()).isEqualTo(Rule.INVALID_ARGUMENT);
        assertThat(missing.subject()).isEqualTo("body");
        assertThat(missing.message()).isEqualTo("is required");
        assertThat(refusal(() -> args("body", "").text("body")).message()).isEqualTo("must not be empty");
        assertThat(refusal(() -> args("body", 3).optText("body")).message()).isEqualTo("must be a string");
    }

    @Test
    void flagsCountsAndNumbersAcceptOnlyTheirType() throws Exception {
        assertThat(args().flag("all")).isFalse();
        assertThat(args("all", true).flag("all")).isTrue();
        assertThat(args("all", false).flag("all")).isFalse();
        assertThat(refusal(() -> args("all", "yes").flag("all")).subject()).isEqualTo("all");
        assertThat(args().count("limit", 20)).isEqualTo(20);
        assertThat(args("limit", 0).count("limit", 20)).isZero();
        assertThat(args("limit", 7.0).count("limit", 20)).isEqualTo(7);
        assertThat(refusal(() -> args("limit", -1).count("limit", 20)).subject()).isEqualTo("limit");
        assertThat(refusal(() -> args("limit", 1.5).count("limit", 20)).subject()).isEqualTo("limit");
        assertThat(refusal(() -> args("limit", "5").count("limit", 20)).subject()).isEqualTo("limit");
        assertThat(args("confidence", 0.25).number("confidence")).isEqualTo(0.25);
        assertThat(args().number("confidence")).isNull();
        assertThat(refusal(() -> args("confidence", "high").number("confidence")).subject()).isEqualTo("confidence");
    }

    @Test
    void listsAndObjectsHoldNonEmptyStringsOnly() throws Exception {
        assertThat(args().texts("refs")).isEmpty();
        assertThat(args("refs", List.of("a", "b@main")).texts("refs")).containsExactly("a", "b@main");
        assertThat(refusal(() -> args("refs", List.of("a", "")).texts("refs")).subject()).isEqualTo("refs");
        assertThat(refusal(() -> args("refs", List.of(1)).texts("refs")).subject()).isEqualTo("refs");
        assertThat(refusal(() -> args("refs", "a").texts("refs")).subject()).isEqualTo("refs");
        assertThat(args("quotes", Map.of("a", "some text here")).textMap("quotes")).containsEntry("a", "some text here");
        assertThat(refusal(() -> args("quotes", Map.of("a", 2)).textMap("quotes")).subject()).isEqualTo("quotes");
        assertThat(refusal(() -> args("quotes", List.of()).textMap("quotes")).subject()).isEqualTo("quotes");
    }

    @Test
    void factIdsAndKindsAreParsedAndAMalformedOneIsAnInvalidArgument() throws Exception {
        assertThat(args("id", "pmid-1").fact("id")).isEqualTo(FactId.of("pmid-1"));
        assertThat(args().optFact("id")).isNull();
        assertThat(args("ids", List.of("a", "b")).facts("ids")).containsExactly(FactId.of("a"), FactId.of("b"));
        Violation bad = refusal(() -> args("id", "Not An Id!").fact("id"));
        assertThat(bad.subject()).isEqualTo("id");
        assertThat(bad.message()).contains("Not An Id!");
        assertThat(args().kind("kind", "claim").value()).isEqualTo("claim");
        assertThat(args("kind", "source").kind("kind", "claim").value()).isEqualTo("source");
        assertThat(refusal(() -> args("kind", "No Kind").kind("kind", "claim")).subject()).isEqualTo("kind");
    }

    @Test
    void failuresCarryTheCliExitCodesKindsAndEveryViolationWithItsRuleId() {
        assertThat(ToolFailure.of(new NotFoundException("gone")).json())
                .isEqualTo(Map.of("error", Map.of("exit", 4, "kind", "not-found", "message", "gone", "violations",
                        List.of())));
        ToolFailure conflict = ToolFailure.of(new ConflictException("main moved"));
        assertThat(conflict.exit()).isEqualTo(7);
        assertThat(conflict.kind()).isEqualTo("conflict");
        assertThat(conflict.message()).isEqualTo("main moved (nothing was written; retry)");
        ToolFailure rejected = ToolFailure.of(new RejectedException(List.of(
                new Violation(Rule.QUOTE_NOT_FOUND, "ref c1 -> pmid-1", "ref c1 -> pmid-1: quote 'x' is missing"),
                new Violation(Rule.NOT_FOUND, "fact c9", "does not exist"))));
        assertThat(rejected.exit()).isEqualTo(5);
        assertThat(rejected.message()).isEqualTo("rejected with 2 violations");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> vs = (List<Map<String, Object>>) ((Map<String, Object>) rejected.json().get("error"))
                .get("violations");
        assertThat(vs.get(0)).containsEntry("rule", "quote-not-found").containsEntry("fact", "c1")
                .containsEntry("message", "quote 'x' is missing");
        assertThat(vs.get(1)).containsEntry("rule", "not-found").containsEntry("fact", "c9");
        ToolFailure one = ToolFailure.of(new RejectedException(Rule.INVALID_ARGUMENT, "id", "is required"));
        assertThat(one.message()).isEqualTo("rejected: id: is required [invalid-argument]");
        ToolFailure internal = ToolFailure.of(new PalimpsestInternalException("disk", new IllegalStateException("full")));
        assertThat(internal.exit()).isEqualTo(1);
        assertThat(internal.kind()).isEqualTo("internal");
        assertThat(internal.message()).isEqualTo("disk\n  caused by: java.lang.IllegalStateException: full");
        assertThat(ToolFailure.of(new IllegalArgumentException("bug")).message())
                .isEqualTo("java.lang.IllegalArgumentException: bug");
    }

    @Test
    void theFactAViolationConcernsIsReadFromItsSubject() {
        assertThat(ToolFailure.fact("fact c1")).isEqualTo("c1");
        assertThat(ToolFailure.fact("ref c1 -> pmid-1")).isEqualTo("c1");
        assertThat(ToolFailure.fact("ref new fact -> pmid-1")).isNull();
        assertThat(ToolFailure.fact("ref -> pmid-1")).isNull();
        assertThat(ToolFailure.fact("refs")).isNull();
        assertThat(ToolFailure.fact("id")).isNull();
    }

    @Test
    void inputSchemasRefuseUnknownArgumentsAndOutputSchemasRequireEveryNamedField() {
        Map<String, Object> in = Schema.input().string("id", "the id", true).string("at", "when", false)
                .strings("ids", "many", 1).strings("refs", "maybe", 0).build();
        assertThat(in).containsEntry("type", "object").containsEntry("additionalProperties", false)
                .containsEntry("required", List.of("id", "ids"));
        Map<String, Object> out = Schema.output().field("role", "string|null").optionalField("confidence", "number")
                .build();
        assertThat(out).doesNotContainKey("additionalProperties").containsEntry("required", List.of("role"));
        @SuppressWarnings("unchecked")
        Map<String, Object> role = (Map<String, Object>) ((Map<String, Object>) out.get("properties")).get("role");
        assertThat(role).containsEntry("type", List.of("string", "null"));
        assertThat(Schema.input().build()).doesNotContainKey("required");
        assertThatThrownBy(() -> args("id", "x").fact("nope")).isInstanceOf(RejectedException.class);
    }
}
