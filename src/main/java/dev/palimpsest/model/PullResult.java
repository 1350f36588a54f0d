package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a pull (or clone): the remote's history was already in main, main moved forward
 * to it, a signed merge commit joined both, or the audit of the incoming commits found violations
 * and nothing was adopted.
 *
 * <p>Implementations are immutable records; components are non-null and lists are copied.
 */
public sealed interface PullResult {
    /** Main's commit after the pull (unchanged when refused). */
    CommitId head();

    /** The remote had nothing main lacks. */
    record UpToDate(CommitId head) implements PullResult {
        public UpToDate {
            Objects.requireNonNull(head, "head");
        }
    }

    /** Main moved from {@code from} (null: a clone) to the remote's {@code head}; {@code audited} commits were new. */
    record FastForward(CommitId from, CommitId head, int audited) implements PullResult {
        public FastForward {
            Objects.requireNonNull(head, "head");
        }
    }

    /**
     * Both sides had advanced: {@code head} is the merge commit of {@code ours} and {@code theirs};
     * {@code lost} are the facts whose concurrent revision lost (each now a review item);
     * {@code settled} the cross-fact conflicts the merge settled (its {@code Palimpsest-Settled}
     * trailers: {@code <rule> <args>}); {@code cascade} the puller's follow-up commit on top of the
     * merge that retracted the artifacts a concurrent retraction left without receipts (null: none).
     */
    record Merged(CommitId head, CommitId ours, CommitId theirs, int audited, List<FactId> lost, List<String> settled,
            CommitId cascade) implements PullResult {
        public Merged {
            Objects.requireNonNull(head, "head");
            Objects.requireNonNull(ours, "ours");
            Objects.requireNonNull(theirs, "theirs");
            lost = List.copyOf(lost);
            settled = List.copyOf(settled);
        }

        public Merged(CommitId head, CommitId ours, CommitId theirs, int audited, List<FactId> lost) {
            this(head, ours, theirs, audited, lost, List.of(), null);
        }
    }

    /** The incoming commits broke the rule book: {@code report} lists every violation; main is {@code head}, unchanged. */
    record Refused(CommitId head, AuditReport report) implements PullResult {
        public Refused {
            Objects.requireNonNull(report, "report");
        }
    }
}
