package dev.palimpsest.model;

import java.util.Objects;

/**
 * One claim (a fact of kind {@code entity-claim}) as seen at a commit C: its triple as written, the
 * source it cites first (role {@code source}), the agent run and actor that wrote the version live
 * or last navigable at C and that version's commit; its {@link Status} at C, the fact that
 * supersedes it at C (null when none) and the commit of its correction (the superseding or
 * retracting commit; null while it is live and not superseded).
 *
 * <p>Immutable; {@code run}, {@code confidence}, {@code supersededBy} and {@code correctedAt} may be
 * null, every other component is required.
 */
public record ClaimView(FactId id, String subject, String predicate, String object, FactId source, String run,
        Double confidence, ActorName actor, CommitId commit, Status status, FactId supersededBy,
        CommitId correctedAt) {
    /** Where a claim stands at the commit asked about. */
    public enum Status {
        /** Present and not superseded by a live fact. */
        LIVE,
        /** Present, but a live fact supersedes it. */
        SUPERSEDED,
        /** Retracted (its file removed, a retraction record written). */
        RETRACTED;

        /** The lower-case name used in JSON. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public ClaimView {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(status, "status");
    }
}
