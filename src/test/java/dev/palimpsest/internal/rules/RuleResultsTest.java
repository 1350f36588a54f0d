package dev.palimpsest.internal.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shared rule checks answer what their contracts say: true exactly when they reported nothing,
 * false with the rule reported when one broke; the time tolerance is inclusive.
 */
class RuleResultsTest {
    private static final FactId A = FactId.of("a");
    private static final FactId B = FactId.of("b");
    private static final long T = 1_700_000_000L;

    private final List<Rule> reported = new ArrayList<>();
    private final RuleSink sink = (rule, message) -> reported.add(rule);

    private static TimeRules.Stamp at(long seconds) {
        return new TimeRules.Stamp(seconds, TimeRules.ZONE);
    }

    @Test
    void timeCheckIsTrueForAConsistentCommitAndFalseWhenARuleBreaks() {
        Instant now = Instant.ofEpochSecond(T + 60);
        assertThat(TimeRules.check(at(T), at(T), Instant.ofEpochSecond(T), at(T - 10), now, sink)).isTrue();
        assertThat(reported).isEmpty();
        assertThat(TimeRules.check(at(T), at(T + 1), null, null, now, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.AUTHOR_TIME);
    }

    @Test
    void aSignatureExactlyTheToleranceApartPassesAndOneSecondMoreIsReported() {
        long tol = TimeRules.TOLERANCE.toSeconds();
        Instant now = Instant.ofEpochSecond(T + 2 * tol);
        assertThat(TimeRules.check(at(T), at(T), Instant.ofEpochSecond(T + tol), null, now, sink)).isTrue();
        assertThat(TimeRules.check(at(T), at(T), Instant.ofEpochSecond(T - tol), null, now, sink)).isTrue();
        assertThat(reported).isEmpty();
        assertThat(TimeRules.check(at(T), at(T), Instant.ofEpochSecond(T + tol + 1), null, now, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.SIGNATURE_TIME);
    }

    @Test
    void anEntityClaimWithoutATripleOrSourceFailsTheClaimRulesAndOtherKindsPass() {
        List<dev.palimpsest.model.Ref> source = List.of(new dev.palimpsest.model.Ref(B, RefRole.SOURCE, null, null, null));
        Fact noTriple = new Fact(A, Kind.ENTITY_CLAIM, "Zelda lives somewhere.", null, source);
        Fact grounded = new Fact(A, Kind.ENTITY_CLAIM, "Zelda lives on Harbour Lane.", null, source, null,
                Grounding.triple("Zelda", "lives_on", "Harbour Lane"));
        Fact note = new Fact(A, Kind.of("note"), "a plain note", null, List.of());
        assertThat(ClaimRules.claim(grounded, sink)).isTrue();
        assertThat(ClaimRules.claim(note, sink)).isTrue();
        assertThat(reported).isEmpty();
        assertThat(ClaimRules.claim(noTriple, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.CLAIM_TRIPLE);
    }

    @Test
    void aSelfSupersessionIsReportedAndFalse() {
        assertThat(ClaimRules.notSelfSuperseding(A, A, RefRole.SUPERSEDES, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.SELF_SUPERSESSION);
        assertThat(ClaimRules.notSelfSuperseding(A, B, RefRole.SUPERSEDES, sink)).isTrue();
        assertThat(ClaimRules.notSelfSuperseding(A, A, RefRole.CITES, sink)).isTrue();
        assertThat(reported).hasSize(1);
    }

    @Test
    void aQuoteTooShortOrNotInTheTargetIsReportedAndFalse() {
        String body = "Zelda Quixote lives on Harbour Lane.";
        assertThat(RefRules.quote("Harbour", B, body, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.QUOTE_TOO_SHORT);
        assertThat(RefRules.quote("lives on Mill Road", B, body, sink)).isFalse();
        assertThat(RefRules.quote("lives on Harbour Lane", B, null, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.QUOTE_TOO_SHORT, Rule.QUOTE_NOT_FOUND, Rule.QUOTE_NOT_FOUND);
        assertThat(RefRules.quote("lives  on\tHarbour Lane", B, body, sink)).isTrue();
        assertThat(RefRules.quote(null, B, null, sink)).isTrue();
        assertThat(reported).hasSize(3);
    }

    @Test
    void subsumingANonHypothesisIsReportedAndFalse() {
        assertThat(RefRules.subsumes(RefRole.SUBSUMES, B, Kind.CLAIM, sink)).isFalse();
        assertThat(reported).containsExactly(Rule.SUBSUMES_NON_HYPOTHESIS);
        assertThat(RefRules.subsumes(RefRole.SUBSUMES, B, Kind.HYPOTHESIS, sink)).isTrue();
        assertThat(RefRules.subsumes(RefRole.SUBSUMES, B, null, sink)).isTrue();
        assertThat(RefRules.subsumes(RefRole.CITES, B, Kind.CLAIM, sink)).isTrue();
        assertThat(reported).hasSize(1);
    }

    @Test
    void aMissingOrSelfReceiptMemberIsReportedAndFalse() {
        assertThat(GroundingRules.member(A, B, false, "receipt", "c1", sink)).isFalse();
        assertThat(reported).containsExactly(Rule.RECEIPT_MEMBER_MISSING);
        assertThat(GroundingRules.member(A, A, true, "receipt", "c1", sink)).isFalse();
        assertThat(reported).containsExactly(Rule.RECEIPT_MEMBER_MISSING, Rule.SELF_RECEIPT);
        assertThat(GroundingRules.member(A, B, true, "receipt", "c1", sink)).isTrue();
        assertThat(reported).hasSize(2);
    }
}
