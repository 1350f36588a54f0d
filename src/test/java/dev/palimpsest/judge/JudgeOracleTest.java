package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.judge.JudgeOracle;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.internal.receipts.Rederivation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The judge as re-derivation oracle: the message it is sent and how its replies count. */
class JudgeOracleTest {
    private static final Receipt R = new Receipt(List.of(List.of(Pin.of(FactId.of("a1")))));

    private static final Rederivation.Claim WHOLE = new Rederivation.Claim(-1, "A == B");

    @Test
    void promptFramesTheArtifactAsAnEarlierConclusionAndListsTheSurvivingCorpusWithoutMarkingTheReceipt() {
        Fact summary = new Fact(FactId.of("s1"), Kind.SUMMARY, "ignored body", null, List.of(), null,
                new Grounding(null, null, null, null, List.of(new Sentence("One.", R), new Sentence("Two.", R)), false));
        Map<FactId, Fact> ev = new LinkedHashMap<>();
        ev.put(FactId.of("a5"), new Fact(FactId.of("a5"), Kind.ASSERTION, "x", null,
                List.of(new dev.palimpsest.model.Ref(FactId.of("doc-2"), dev.palimpsest.model.RefRole.SOURCE, null, null, null)), null,
                Grounding.triple("ERK", "regulates", "apoptosis")));
        ev.put(FactId.of("doc-1"), null);
        Map<FactId, Fact> context = Map.of(FactId.of("a3"), new Fact(FactId.of("a3"), Kind.ASSERTION, "y", null,
                List.of(), null, Grounding.triple("apoptosis", "part_of", "cell death")));
        var t = new Rederivation.Graded(FactId.of("s1"), Layer.SUMMARY, summary, true, ev, List.of(FactId.of("a2")),
                context, List.of(new Rederivation.Claim(1, "Two.")));
        assertThat(JudgeOracle.prompt(t, t.claims().get(0))).isEqualTo("Earlier, working from a corpus of evidence,"
                + " you reached the conclusion below as part of a knowledge graph. Some of that corpus has since been"
                + " withdrawn. Working ONLY from the surviving evidence listed after it, and from nothing you know"
                + " otherwise, would you still reach this conclusion?\n"
                + "Artifact s1 (summary), sentence 2: Two.\n"
                + "Surviving evidence:\n- a3: apoptosis part_of cell death\n- a5: ERK regulates apoptosis (from doc-2)\n"
                + "- doc-1: (source document)\n"
                + "Reply with JSON: {\"supported\": true|false, \"reason\": \"...\"}");
        Fact merge = new Fact(FactId.of("m1"), Kind.MERGE, "A == B", null, List.of(), null,
                new Grounding(null, null, null, R, List.of(), false));
        var none = new Rederivation.Graded(FactId.of("m1"), Layer.MERGE, merge, false, Map.of(), List.of());
        assertThat(JudgeOracle.prompt(none, none.claims().get(0)))
                .contains("\nArtifact m1 (merge): A == B\nSurviving evidence: (none)\n");
    }

    @Test
    void eachDrawIsAnIndependentSampleCarryingTheTemperatureAndItsIndexAndOnlyJsonBooleansVote() {
        Fact merge = new Fact(FactId.of("m1"), Kind.MERGE, "A == B", null, List.of(), null,
                new Grounding(null, null, null, R, List.of(), false));
        var t = new Rederivation.Graded(FactId.of("m1"), Layer.MERGE, merge, true, Map.of(), List.of());
        ScriptedJudge j = ScriptedJudge.of("m", List.of("{\"supported\": true}", "{\"supported\": false}",
                "{\"supported\": \"true\"}", "nonsense"), false);
        JudgeOracle o = new JudgeOracle(j, 0.7);
        assertThat(o.draw(t, WHOLE, 0)).isTrue();
        assertThat(o.draw(t, WHOLE, 1)).isFalse();
        assertThat(o.draw(t, WHOLE, 2)).isNull();
        assertThat(o.draw(t, WHOLE, 3)).isNull();
        assertThat(j.received()).extracting(r -> r.draw()).containsExactly(0, 1, 2, 3);
        assertThat(j.received()).allSatisfy(r -> assertThat(r.temperature()).hasValue(0.7));
        // 4 of 5 alive reaches 1 - 0.2; 3 of 5 does not, nor does it make 3 dead votes
        assertThat(Rederivation.decide((a, c, d) -> d < 4, t, 5, 0.2)).isTrue();
        assertThat(Rederivation.decide((a, c, d) -> d < 3, t, 5, 0.2)).isNull();
        assertThat(Rederivation.decide((a, c, d) -> d >= 1, t, 5, 0.2)).isTrue();
        assertThat(Rederivation.decide((a, c, d) -> d == 0, t, 5, 0.2)).isFalse();
        assertThat(Rederivation.decide((a, c, d) -> d == 0 ? null : Boolean.FALSE, t, 5, 0.2)).isFalse();
        assertThat(Rederivation.decide((a, c, d) -> d < 2 ? null : Boolean.FALSE, t, 5, 0.2)).isNull();
        assertThat(Rederivation.decide((a, c, d) -> Boolean.TRUE, t, 1, 0.0)).isTrue();
        assertThat(Rederivation.decide((a, c, d) -> null, t, 3, 0.2)).isNull();
    }

    @Test
    void aKeptSentenceSummaryIsDeadWhenAnyKeptSentenceIsAndARemovedOneAliveWhenAnySentenceIs() {
        Fact summary = new Fact(FactId.of("s1"), Kind.SUMMARY, "b", null, List.of(), null,
                new Grounding(null, null, null, null, List.of(new Sentence("One.", R), new Sentence("Two.", R)), false));
        List<Rederivation.Claim> both = List.of(new Rederivation.Claim(0, "One."), new Rederivation.Claim(1, "Two."));
        Rederivation.Oracle secondOnly = (a, c, d) -> c.sentence() == 1;
        var kept = new Rederivation.Graded(FactId.of("s1"), Layer.SUMMARY, summary, true, Map.of(), List.of(),
                Map.of(), both);
        var removed = new Rederivation.Graded(FactId.of("s1"), Layer.SUMMARY, summary, false, Map.of(), List.of(),
                Map.of(), both);
        assertThat(Rederivation.decide(secondOnly, kept, 3, 0.2)).isFalse();
        assertThat(Rederivation.decide(secondOnly, removed, 3, 0.2)).isTrue();
        assertThat(Rederivation.decide((a, c, d) -> false, removed, 3, 0.2)).isFalse();
        assertThat(Rederivation.decide((a, c, d) -> true, kept, 3, 0.2)).isTrue();
    }
}
