package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import dev.palimpsest.model.Withdrawal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The plans of the three withdrawals at one commit, from the receipt graph's nodes; bad input is
 * rejected with every violation, as the gate would. Stateless.
 */
public final class Withdrawals {
    private Withdrawals() {}

    /** Retracting documents {@code docs} and every assertion of them. */
    public static CleanupPlan retractSource(Cleanup c, List<FactId> docs, String reason) throws RejectedException {
        if (docs.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_TRANSACTION, Withdrawal.RETRACT_SOURCE.value(),
                    "nothing to retract: no documents given");
        }
        List<Violation> bad = new ArrayList<>();
        for (FactId d : docs) {
            int n = c.graph().find(d);
            if (n < 0) {
                bad.add(new Violation(Rule.NOT_FOUND, "document " + d, "does not exist at " + c.graph().commit().name()));
            } else if (!c.graph().isLive(n)) {
                bad.add(new Violation(Rule.NOT_LIVE, "document " + d, "is not live at " + c.graph().commit().name()));
            }
        }
        if (!bad.isEmpty()) {
            throw new RejectedException(bad);
        }
        return c.plan(Withdrawal.RETRACT_SOURCE, docs.stream().map(FactId::value).toList(), reason,
                c.sourceRoots(docs));
    }

    /** Revoking {@code predicate}: retracting every live assertion that uses it. */
    public static CleanupPlan revokeRelation(Cleanup c, String predicate, String reason) throws RejectedException {
        int[] roots = c.predicateRoots(predicate);
        if (roots.length == 0) {
            throw new RejectedException(Rule.NOT_LIVE, "predicate " + predicate,
                    "no live assertion uses it at " + c.graph().commit().name());
        }
        return c.plan(Withdrawal.REVOKE_RELATION, List.of(predicate), reason, roots);
    }

    /**
     * Retracting facts {@code ids} at {@code at} with the cascade through receipts; the graph is
     * loaded only when the tree holds artifacts.
     */
    public static CleanupPlan retract(PredicateIndex index, Snapshot at, List<FactId> ids, String reason,
            Supplier<Cleanup> cleanup) throws RejectedException {
        if (ids.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_TRANSACTION, Withdrawal.RETRACT.value(), "nothing to retract: no ids given");
        }
        List<Violation> bad = Retractions.violations(index, at, ids, reason);
        if (!bad.isEmpty()) {
            throw new RejectedException(bad);
        }
        List<String> targets = ids.stream().map(FactId::value).toList();
        if (!Retractions.hasArtifacts(at)) {
            return new CleanupPlan(dev.palimpsest.model.CommitId.of(at.commit().name()), Withdrawal.RETRACT, targets,
                    reason, Retractions.policy(at), ids, List.of(), List.of(), List.of());
        }
        Cleanup c = cleanup.get();
        int[] roots = ids.stream().mapToInt(id -> c.graph().find(id)).filter(n -> n >= 0).toArray();
        CleanupPlan p = c.plan(Withdrawal.RETRACT, targets, reason, roots);
        return new CleanupPlan(p.at(), p.operation(), p.targets(), p.reason(), p.policy(), ids, p.removals(),
                p.revisions(), p.touched());
    }
}
