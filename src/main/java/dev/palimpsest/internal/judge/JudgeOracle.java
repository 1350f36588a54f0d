package dev.palimpsest.internal.judge;

import dev.palimpsest.internal.receipts.Rederivation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import java.util.Map;

/**
 * The judge as re-derivation oracle, framed as in the paper: the artifact (or one sentence of a
 * summary) is presented as the model's earlier conclusion, followed by the surviving corpus relevant
 * to it (its receipt's surviving members and the other surviving assertions on its entities, in one
 * list by id, without saying which is which), and the question is whether it would still reach that
 * conclusion from this evidence alone. Each draw is one user message sampled at the given temperature
 * with its draw index. The reply is read as the reviewer reads one: JSON {@code supported} true is
 * alive, false is dead, anything else no answer. Thread-safe when the judge is.
 */
public final class JudgeOracle implements Rederivation.Oracle {
    private final Judge judge;
    private final double temperature;

    public JudgeOracle(Judge judge, double temperature) {
        this.judge = judge;
        this.temperature = temperature;
    }

    @Override
    public Boolean draw(Rederivation.Graded t, Rederivation.Claim claim, int draw) {
        String reply = judge.complete(JudgeRequest.sampled(prompt(t, claim), draw, temperature));
        return Reviewer.parseable(reply) ? Reviewer.judged(reply).modelAccepted() : null;
    }

    /** The message put to the judge about {@code claim} of {@code t}. */
    public static String prompt(Rederivation.Graded t, Rederivation.Claim claim) {
        StringBuilder b = new StringBuilder();
        b.append("Earlier, working from a corpus of evidence, you reached the conclusion below as part of a knowledge"
                + " graph. Some of that corpus has since been withdrawn. Working ONLY from the surviving evidence listed"
                + " after it, and from nothing you know otherwise, would you still reach this conclusion?\n");
        b.append("Artifact ").append(t.id()).append(" (").append(t.layer()).append(")");
        if (claim.sentence() >= 0) {
            b.append(", sentence ").append(claim.sentence() + 1);
        }
        b.append(": ").append(claim.text()).append('\n');
        b.append("Surviving evidence:");
        Map<FactId, Fact> corpus = t.corpus();
        if (corpus.isEmpty()) {
            b.append(" (none)");
        }
        for (Map.Entry<FactId, Fact> e : corpus.entrySet()) {
            b.append("\n- ").append(e.getKey()).append(": ").append(evidence(e.getValue()));
        }
        b.append("\nReply with JSON: {\"supported\": true|false, \"reason\": \"...\"}");
        return b.toString();
    }

    private static String evidence(Fact f) {
        if (f == null) {
            return "(source document)";
        }
        String text = Rederivation.text(f);
        for (Ref r : f.refs()) {
            if (RefRole.SOURCE.equals(r.role())) {
                return text + " (from " + r.id() + ")";
            }
        }
        return text;
    }
}
