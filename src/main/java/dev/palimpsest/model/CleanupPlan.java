package dev.palimpsest.model;

import java.util.List;

/**
 * What a withdrawal does, computed by set arithmetic over receipts at commit {@code at}:
 * {@code operation} ({@code retract-source}, {@code revoke-relation} or {@code retract}) of
 * {@code targets}, the facts retracted at the root ({@code roots}: documents and their assertions,
 * the assertions using a predicate, or the facts named), the artifacts retracted by the cascade
 * ({@code removals}, layer by layer, never a root),
 * the sentence summaries revised to drop exactly their dead sentences ({@code revisions}), and the
 * artifacts that were touched but stay alive ({@code touched}, for review).
 *
 * <p>Immutable and thread-safe; {@code reason} is the caller's text; other components must not be
 * null (lists are copied).
 */
public record CleanupPlan(CommitId at, Withdrawal operation, List<String> targets, String reason, Policy policy,
        List<FactId> roots, List<Removal> removals, List<Revision> revisions, List<FactId> touched) {
    /** An artifact the cascade retracts, its layer, and why. */
    public record Removal(FactId id, Layer layer, String why) {}

    /** A sentence summary revised: the 0-based indexes of the sentences dropped and how many stay. */
    public record Revision(FactId id, List<Integer> dropped, int kept) {
        public Revision {
            dropped = List.copyOf(dropped);
        }
    }

    public CleanupPlan {
        targets = List.copyOf(targets);
        roots = List.copyOf(roots);
        removals = List.copyOf(removals);
        revisions = List.copyOf(revisions);
        touched = List.copyOf(touched);
    }

    /** True when applying the plan would write nothing. */
    public boolean isEmpty() {
        return roots.isEmpty() && removals.isEmpty() && revisions.isEmpty();
    }
}
