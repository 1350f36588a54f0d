package dev.palimpsest.api;

import dev.palimpsest.internal.judge.JudgeOracle;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.Rederivation;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.TrustPolicy;
import dev.palimpsest.model.Withdrawal;
import java.util.List;
import java.util.Objects;

/**
 * The re-derivation audit of a cleanup (dry run, at any commit): for a retract-source or
 * revoke-relation plan, every live artifact is put to an oracle {@code draws} times — would it still
 * be concluded from the surviving corpus relevant to it (its receipt's survivors and the other
 * surviving assertions on its entities)? — and decided alive, dead or undecided with threshold
 * {@code tau}; a sentence summary is asked per sentence the plan keeps. Per layer (merge, edge,
 * summary) the report counts the leaky (kept but dead), the over-deleted (removed but alive) and the
 * agreeing, and with a second oracle how often the two agree. Entailed edges are decided by symbolic
 * recomputation of the entailment; a judge decides merges, summaries and model-authored edges
 * (ungraded with {@link AuditOracles#NONE}). Nothing is written. Thread-safe when the judges are; no
 * argument may be null.
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
     * @deprecated a null judge meant ungraded; use {@link #retractSource(List, CommitId, int, double, AuditOracles)}
     *     with {@code AuditOracles.of(judge)}, or {@link AuditOracles#NONE} for none.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public RederiveReport retractSource(List<FactId> docs, CommitId at, int draws, double tau, Judge judge)
            throws NotFoundException, RejectedException {
        Objects.requireNonNull(docs, "docs");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.retractSource(c, docs, "re-derivation audit");
        return audit(c, plan, c.sourceRoots(docs), draws, tau, oracles(judge));
    }

    /**
     * Audits retracting documents {@code docs} at {@code at} under the store's trust policy at
     * {@code at}, asking {@code oracles}.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no document, a document not live at {@code at}, or bad draws or tau
     */
    public RederiveReport retractSource(List<FactId> docs, CommitId at, int draws, double tau, AuditOracles oracles)
            throws NotFoundException, RejectedException {
        return retractSource(docs, at, draws, tau, oracles, receipts.trust(at));
    }

    /**
     * Audits the plan that retracting documents {@code docs} at {@code at} makes under trust policy
     * {@code under} (e.g. {@link TrustPolicy#TRUST_ALL} to grade every receipt as written), asking {@code oracles}.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no document, a document not live at {@code at}, or bad draws or tau
     */
    public RederiveReport retractSource(List<FactId> docs, CommitId at, int draws, double tau, AuditOracles oracles,
            TrustPolicy under) throws NotFoundException, RejectedException {
        Objects.requireNonNull(docs, "docs");
        Objects.requireNonNull(oracles, "oracles");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"), Objects.requireNonNull(under, "under"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.retractSource(c, docs, "re-derivation audit");
        return audit(c, plan, c.sourceRoots(docs), draws, tau, oracles);
    }

    /**
     * Audits revoking {@code predicate} at {@code at} under the store's trust policy at {@code at},
     * asking {@code oracles}.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no live assertion uses the predicate at {@code at}, or bad draws or tau
     */
    public RederiveReport revokeRelation(String predicate, CommitId at, int draws, double tau, AuditOracles oracles)
            throws NotFoundException, RejectedException {
        return revokeRelation(predicate, at, draws, tau, oracles, receipts.trust(at));
    }

    /**
     * Audits the plan that revoking {@code predicate} at {@code at} makes under trust policy
     * {@code under}, asking {@code oracles}.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no live assertion uses the predicate at {@code at}, or bad draws or tau
     */
    public RederiveReport revokeRelation(String predicate, CommitId at, int draws, double tau, AuditOracles oracles,
            TrustPolicy under) throws NotFoundException, RejectedException {
        Objects.requireNonNull(predicate, "predicate");
        Objects.requireNonNull(oracles, "oracles");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"), Objects.requireNonNull(under, "under"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.revokeRelation(c, predicate,
                "re-derivation audit");
        return audit(c, plan, c.predicateRoots(predicate), draws, tau, oracles);
    }

    /**
     * Audits revoking {@code predicate} at {@code at}; {@code judge} may be null.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     * @throws RejectedException no live assertion uses the predicate at {@code at}, or bad draws or tau
     * @deprecated a null judge meant ungraded; use {@link #revokeRelation(String, CommitId, int, double, AuditOracles)}
     *     with {@code AuditOracles.of(judge)}, or {@link AuditOracles#NONE} for none.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public RederiveReport revokeRelation(String predicate, CommitId at, int draws, double tau, Judge judge)
            throws NotFoundException, RejectedException {
        Objects.requireNonNull(predicate, "predicate");
        Cleanup c = receipts.cleanup(Objects.requireNonNull(at, "at"));
        CleanupPlan plan = dev.palimpsest.internal.receipts.Withdrawals.revokeRelation(c, predicate,
                "re-derivation audit");
        return audit(c, plan, c.predicateRoots(predicate), draws, tau, oracles(judge));
    }

    private static AuditOracles oracles(Judge judge) {
        return judge == null ? AuditOracles.NONE : AuditOracles.of(judge);
    }

    private static RederiveReport audit(Cleanup c, CleanupPlan plan, int[] roots, int draws, double tau,
            AuditOracles oracles)
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
        List<Rederivation.Oracle> asked = new java.util.ArrayList<>();
        oracles.judges().forEach(j -> asked.add(new JudgeOracle(j, oracles.temperature())));
        String second = oracles.judges().size() > 1 ? oracles.judges().get(1).model() : null;
        return Rederivation.audit(c, op, plan.targets(), roots, draws, tau, asked, second);
    }
}
