package dev.palimpsest.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A re-derivation audit of one cleanup plan at commit {@code at}: every artifact the withdrawal
 * touches is put to an oracle {@code draws} times (does the surviving evidence still support it?)
 * and decided alive (alive share at least 1 - {@code tau}), dead (dead share at least 1 - tau) or
 * undecided; per layer (merge, edge, summary) the decided artifacts are compared with what the plan
 * does. Immutable and thread-safe; nothing may be null (maps and lists are copied).
 */
public record RederiveReport(CommitId at, Withdrawal operation, List<String> targets, int draws, double tau,
        Map<Layer, LayerAudit> layers) {
    /**
     * One layer: {@code graded} artifacts (every artifact of the layer live at the commit), how the oracle decided them ({@code alive}, {@code dead},
     * {@code undecided}, {@code ungraded} when no oracle serves the layer), {@code leaky} (kept by
     * the plan, dead by the oracle), {@code overDeleted} (removed by the plan, alive by the oracle),
     * {@code agree} (decided and the plan agrees), the {@code oracle} used ({@code symbolic},
     * {@code judge} or {@code none}), and the ids of the leaky and over-deleted artifacts.
     */
    public record LayerAudit(String oracle, int graded, int alive, int dead, int undecided, int ungraded, int leaky,
            int overDeleted, int agree, List<FactId> leakyIds, List<FactId> overDeletedIds) {
        public LayerAudit {
            Objects.requireNonNull(oracle, "oracle");
            leakyIds = List.copyOf(leakyIds);
            overDeletedIds = List.copyOf(overDeletedIds);
            if (leaky != leakyIds.size() || overDeleted != overDeletedIds.size()) {
                throw new IllegalArgumentException("counts must match the id lists");
            }
            if (alive + dead + undecided + ungraded != graded || leaky + overDeleted + agree != alive + dead) {
                throw new IllegalArgumentException("every graded artifact is decided once and every decided one"
                        + " is leaky, over-deleted or agreeing");
            }
        }
    }

    public RederiveReport {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(operation, "operation");
        targets = List.copyOf(targets);
        layers = Map.copyOf(layers);
        if (draws < 1) {
            throw new IllegalArgumentException("draws must be at least 1, got " + draws);
        }
        if (!(tau >= 0.0 && tau < 0.5)) {
            throw new IllegalArgumentException("tau must be in [0, 0.5), got " + tau);
        }
    }
}
