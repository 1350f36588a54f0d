package dev.palimpsest.internal.judge;

import dev.palimpsest.internal.receipts.Rederivation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.Sentence;
import java.util.Map;

/**
 * The judge as re-derivation oracle: one user message per draw naming the artifact (id, layer, its
 * text: a merge's body, an edge's triple, a summary's body or sentences) and the receipt evidence
 * that survives the withdrawal, asking whether that evidence alone still supports it. The reply is
 * read as the reviewer reads one: JSON {@code supported} true is alive, false is dead, anything else
 * no answer. Thread-safe when the judge is.
 */
public final class JudgeOracle implements Rederivation.Oracle {
    private final Judge judge;

    public JudgeOracle(Judge judge) {
        this.judge = judge;
    }

    @Override
    public Boolean draw(Rederivation.Graded t, int draw) {
        String reply = judge.complete(JudgeRequest.user(prompt(t), draw));
        return Reviewer.parseable(reply) ? Reviewer.judged(reply).modelAccepted() : null;
    }

    /** The message put to the judge about {@code t}. */
    public static String prompt(Rederivation.Graded t) {
        StringBuilder b = new StringBuilder();
        b.append("You are re-deriving one artifact of a knowledge graph after some of its evidence was withdrawn."
                + " Judge ONLY whether the surviving evidence below, on its own, still supports the artifact;"
                + " use nothing beyond it.\n");
        b.append("Artifact ").append(t.id()).append(" (").append(t.layer()).append("): ").append(text(t.fact()))
                .append('\n');
        b.append("Surviving evidence:");
        if (t.evidence().isEmpty()) {
            b.append(" (none)");
        }
        for (Map.Entry<FactId, Fact> e : t.evidence().entrySet()) {
            b.append("\n- ").append(e.getKey()).append(": ")
                    .append(e.getValue() == null ? "(source document)" : text(e.getValue()));
        }
        b.append("\nReply with JSON: {\"supported\": true|false, \"reason\": \"...\"}");
        return b.toString();
    }

    private static String text(Fact f) {
        var g = f.grounding();
        if (g.hasTriple()) {
            return g.subject() + " " + g.predicate() + " " + g.object();
        }
        if (!g.sentences().isEmpty()) {
            StringBuilder s = new StringBuilder();
            for (Sentence x : g.sentences()) {
                s.append(s.length() == 0 ? "" : " ").append(x.text());
            }
            return s.toString();
        }
        return f.body();
    }
}
