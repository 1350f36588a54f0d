package dev.palimpsest.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A re-derivation audit of one cleanup plan at commit {@code at}: every artifact the withdrawal
 * touches is put to an oracle {@code draws} times (does the surviving evidence still support it?)
 * and decided alive (alive share at least 1 - {@code tau}), dead (dead share at least 1 - tau) or
 * undecided; per layer (merge, edge, summary) the decided artifacts are compared with what the plan
 * does, the plan being made under trust {@code policy}. Immutable and thread-safe; nothing may be
 * null (maps and lists are copied).
 */
public record RederiveReport(CommitId at, Withdrawal operation, List<String> targets, int draws, double tau,
        Map<Layer, LayerAudit> layers, TrustPolicy policy) {
    /** A report on a plan made under the store's default trust policy. */
    public RederiveReport(CommitId at, Withdrawal operation, List<String> targets, int draws, double tau,
            Map<Layer, LayerAudit> layers) {
        this(at, operation, targets, draws, tau, layers, TrustPolicy.DEFAULT);
    }

    /**
     * One layer: {@code graded} artifacts (every artifact of the layer live at the commit), how the oracle decided them ({@code alive}, {@code dead},
     * {@code undecided}, {@code ungraded} when no oracle serves the layer), {@code leaky} (kept by
     * the plan, dead by the oracle), {@code overDeleted} (removed by the plan, alive by the oracle),
     * {@code agree} (decided and the plan agrees), the {@code oracle} used ({@code symbolic},
     * {@code judge} or {@code none}), the ids of the leaky and over-deleted artifacts, and the
     * {@code agreement} of a second oracle with the first on the judged artifacts.
     */
    public record LayerAudit(String oracle, int graded, int alive, int dead, int undecided, int ungraded, int leaky,
            int overDeleted, int agree, List<FactId> leakyIds, List<FactId> overDeletedIds, Agreement agreement) {
        /** A layer audited without a second oracle. */
        public LayerAudit(String oracle, int graded, int alive, int dead, int undecided, int ungraded, int leaky,
                int overDeleted, int agree, List<FactId> leakyIds, List<FactId> overDeletedIds) {
            this(oracle, graded, alive, dead, undecided, ungraded, leaky, overDeleted, agree, leakyIds, overDeletedIds,
                    Agreement.NONE);
        }

        /** The share of decided artifacts the plan keeps although the oracle decided them dead (0 when none decided). */
        public double leakyShare() {
            return alive + dead == 0 ? 0.0 : (double) leaky / (alive + dead);
        }

        public LayerAudit {
            Objects.requireNonNull(oracle, "oracle");
            Objects.requireNonNull(agreement, "agreement");
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

    /**
     * How a second oracle's decisions compare with the first's on one layer's judged artifacts:
     * {@code oracle} names it ({@code none} without one), {@code bothDecided} counts artifacts both
     * decided (alive or dead), {@code agree} those on which they agree, {@code disagreeIds} the others.
     */
    public record Agreement(String oracle, int bothDecided, int agree, List<FactId> disagreeIds) {
        /** No second oracle. */
        public static final Agreement NONE = new Agreement("none", 0, 0, List.of());

        public Agreement {
            Objects.requireNonNull(oracle, "oracle");
            disagreeIds = List.copyOf(disagreeIds);
            if (agree < 0 || agree + disagreeIds.size() != bothDecided) {
                throw new IllegalArgumentException("every artifact both oracles decided agrees or disagrees");
            }
        }

        /** The share of jointly decided artifacts the two oracles agree on (1 when none). */
        public double rate() {
            return bothDecided == 0 ? 1.0 : (double) agree / bothDecided;
        }
    }

    public RederiveReport {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(policy, "policy");
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
