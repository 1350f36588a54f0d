package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Sentence;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a cleanup plan into the operations of one transaction: the roots retracted with the
 * caller's reason, then the cascade layer by layer (each reason records the root withdrawal),
 * then sentence summaries rewritten without their dead sentences. Stateless.
 */
public final class Cascade {
    private Cascade() {}

    /** How many targets a cascade record names before {@code and N more}. */
    static final int NAMED_TARGETS = 3;

    /**
     * The targets as a cascade record names them: the first {@value #NAMED_TARGETS}, then how many
     * more. Every record would otherwise repeat the whole list (61 documents: ~900 bytes, thousands
     * of times); the list is whole in the same commit, as the retractions of the roots.
     */
    static String targets(List<String> targets) {
        if (targets.size() <= NAMED_TARGETS) {
            return String.join(", ", targets);
        }
        return String.join(", ", targets.subList(0, NAMED_TARGETS)) + " and " + (targets.size() - NAMED_TARGETS)
                + " more";
    }

    /** The plan's operations; {@code cleanup} (the plan's graph) may be null when the plan revises nothing. */
    public static List<Operation> operations(CleanupPlan plan, Cleanup cleanup) {
        List<Operation> ops = new ArrayList<>();
        String root = plan.operation() + " " + targets(plan.targets());
        for (var id : plan.roots()) {
            ops.add(new Operation.Retract(id, plan.reason()));
        }
        for (CleanupPlan.Removal r : plan.removals()) {
            ops.add(new Operation.Retract(r.id(), "cascade of " + root + " (" + plan.reason() + "): " + r.why()));
        }
        for (CleanupPlan.Revision r : plan.revisions()) {
            Fact f = cleanup.fact(r.id());
            Set<Integer> drop = new HashSet<>(r.dropped());
            List<Sentence> keep = new ArrayList<>();
            for (int i = 0; i < f.grounding().sentences().size(); i++) {
                if (!drop.contains(i)) {
                    keep.add(f.grounding().sentences().get(i));
                }
            }
            Grounding g = f.grounding().withReceipts(null, keep);
            String body = String.join(" ", keep.stream().map(Sentence::text).toList());
            ops.add(new Operation.Reground(r.id(), body, g, "cascade of " + root + ": dropped sentence(s) " + r.dropped()));
        }
        return ops;
    }
}
