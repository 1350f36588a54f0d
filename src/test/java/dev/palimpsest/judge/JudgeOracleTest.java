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

    @Test
    void promptNamesTheArtifactItsTextAndTheSurvivingEvidence() {
        Fact summary = new Fact(FactId.of("s1"), Kind.SUMMARY, "ignored body", null, List.of(), null,
                new Grounding(null, null, null, null, List.of(new Sentence("One.", R), new Sentence("Two.", R)), false));
        Map<FactId, Fact> ev = new LinkedHashMap<>();
        ev.put(FactId.of("a5"), new Fact(FactId.of("a5"), Kind.ASSERTION, "x", null, List.of(), null,
                Grounding.triple("ERK", "regulates", "apoptosis")));
        ev.put(FactId.of("doc-1"), null);
        var t = new Rederivation.Graded(FactId.of("s1"), Layer.SUMMARY, summary, true, ev, List.of(FactId.of("a2")));
        assertThat(JudgeOracle.prompt(t)).isEqualTo("You are re-deriving one artifact of a knowledge graph after some"
                + " of its evidence was withdrawn. Judge ONLY whether the surviving evidence below, on its own, still"
                + " supports the artifact; use nothing beyond it.\n"
                + "Artifact s1 (summary): One. Two.\n"
                + "Surviving evidence:\n- a5: ERK regulates apoptosis\n- doc-1: (source document)\n"
                + "Reply with JSON: {\"supported\": true|false, \"reason\": \"...\"}");
        Fact merge = new Fact(FactId.of("m1"), Kind.MERGE, "A == B", null, List.of(), null,
                new Grounding(null, null, null, R, List.of(), false));
        var none = new Rederivation.Graded(FactId.of("m1"), Layer.MERGE, merge, false, Map.of(), List.of());
        assertThat(JudgeOracle.prompt(none)).contains("\nArtifact m1 (merge): A == B\nSurviving evidence: (none)\n");
    }

    @Test
    void onlyJsonBooleansVoteAndEachDrawIsItsOwnRequest() {
        Fact merge = new Fact(FactId.of("m1"), Kind.MERGE, "A == B", null, List.of(), null,
                new Grounding(null, null, null, R, List.of(), false));
        var t = new Rederivation.Graded(FactId.of("m1"), Layer.MERGE, merge, true, Map.of(), List.of());
        ScriptedJudge j = ScriptedJudge.of("m", List.of("{\"supported\": true}", "{\"supported\": false}",
                "{\"supported\": \"true\"}", "nonsense"), false);
        JudgeOracle o = new JudgeOracle(j);
        assertThat(o.draw(t, 0)).isTrue();
        assertThat(o.draw(t, 1)).isFalse();
        assertThat(o.draw(t, 2)).isNull();
        assertThat(o.draw(t, 3)).isNull();
        assertThat(j.received()).extracting(r -> r.draw()).containsExactly(0, 1, 2, 3);
        // 4 of 5 alive reaches 1 - 0.2; 3 of 5 does not, nor does it make 3 dead votes
        assertThat(Rederivation.decide((a, d) -> d < 4, t, 5, 0.2)).isTrue();
        assertThat(Rederivation.decide((a, d) -> d < 3, t, 5, 0.2)).isNull();
        assertThat(Rederivation.decide((a, d) -> d >= 1, t, 5, 0.2)).isTrue();
        assertThat(Rederivation.decide((a, d) -> d == 0, t, 5, 0.2)).isFalse();
        assertThat(Rederivation.decide((a, d) -> d == 0 ? null : Boolean.FALSE, t, 5, 0.2)).isFalse();
        assertThat(Rederivation.decide((a, d) -> d < 2 ? null : Boolean.FALSE, t, 5, 0.2)).isNull();
        assertThat(Rederivation.decide((a, d) -> Boolean.TRUE, t, 1, 0.0)).isTrue();
        assertThat(Rederivation.decide((a, d) -> null, t, 3, 0.2)).isNull();
    }
}
