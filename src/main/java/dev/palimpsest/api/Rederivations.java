package dev.palimpsest.api;

import dev.palimpsest.internal.judge.JudgeOracle;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.Rederivation;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Withdrawal;
import java.util.List;
import java.util.Objects;

/**
 * The re-derivation audit of a cleanup (dry run, at any commit): for a retract-source or
 * revoke-relation plan, every artifact the withdrawal touches is put to an oracle {@code draws}
 * times — does the evidence that survives still support it? — and decided alive, dead or undecided
 * with threshold {@code tau}; per layer (merge, edge, summary) the report counts the leaky (kept
 * but dead), the over-deleted (removed but alive) and the agreeing. Entailed edges are decided by
 * symbolic recomputation of the entailment; a judge decides merges, summaries and model-authored
 * edges (ungraded without one). Nothing is written. Thread-safe when the judge is; arguments must not
 * be null unless documented.
 */
public final class Rederivations {
    private final Receipts receipts;

    Rederivations(Receipts receipts) {
        this.receipts = receipts;
    }

    /**
     * Audits retracting documents {@code docs} at {@code at}; {@code judge} may be null.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no document, a document not live at {@code at}, or bad draws or tau
     */
    public RederiveReport retractSource(List<FactId> docs, CommitId at, int draws, double tau, Judge judge)
            throws NotFoundException, RejectedException {
        Objects.requireNonNull(docs, "docs");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.retractSource(c, docs, "re-derivation audit");
        return audit(c, plan, c.sourceRoots(docs), draws, tau, judge);
    }

    /**
     * Audits revoking {@code predicate} at {@code at}; {@code judge} may be null.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no live assertion uses the predicate at {@code at}, or bad draws or tau
     */
    public RederiveReport revokeRelation(String predicate, CommitId at, int draws, double tau, Judge judge)
            throws NotFoundException, RejectedException {
        Objects.requireNonNull(predicate, "predicate");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.revokeRelation(c, predicate,
                "re-derivation audit");
        return audit(c, plan, c.predicateRoots(predicate), draws, tau, judge);
    }

    private static RederiveReport audit(Cleanup c, CleanupPlan plan, int[] roots, int draws, double tau, Judge judge)
            throws RejectedException {
        if (draws < 1) {
            throw new RejectedException(dev.palimpsest.model.Rule.INVALID_ARGUMENT, "--draws",
                    "must be at least 1, got " + draws);
        }
        if (!(tau >= 0.0 && tau < 0.5)) {
            throw new RejectedException(dev.palimpsest.model.Rule.INVALID_ARGUMENT, "--tau",
                    "must be in [0, 0.5), got " + tau);
        }
        Withdrawal op = plan.operation();
        return Rederivation.audit(c, op, plan.targets(), roots, draws, tau, judge == null ? null : new JudgeOracle(judge));
    }
}
