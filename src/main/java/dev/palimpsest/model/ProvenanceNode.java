package dev.palimpsest.model;

import java.util.List;

/**
 * One node of a provenance tree ({@code explain}): a fact version, pinned by the ref that reached
 * it ({@code role} null for the root), its {@code status} at the asked commit, the actor and run
 * ({@code Palimpsest-Run} trailer, null when absent) of the commit that wrote the version, and the
 * nodes of the refs that version carries; {@code forgottenAt} is the commit of the fact's
 * tombstone when it is {@link Status#FORGOTTEN}, else null. {@code cycle} is true for a node already shown higher up
 * on the same path (its children are then not repeated). Immutable.
 */
public record ProvenanceNode(FactId id, RefRole role, CommitId version, BlobId blob, Status status, String kind,
        String actor, String run, boolean cycle, List<ProvenanceNode> children, CommitId forgottenAt) {
    /** A node of a fact that is not forgotten. */
    public ProvenanceNode(FactId id, RefRole role, CommitId version, BlobId blob, Status status, String kind,
            String actor, String run, boolean cycle, List<ProvenanceNode> children) {
        this(id, role, version, blob, status, kind, actor, run, cycle, children, null);
    }

    public ProvenanceNode {
        children = List.copyOf(children);
        if ((status == Status.FORGOTTEN) != (forgottenAt != null)) {
            throw new IllegalArgumentException("node " + id + ": forgottenAt is set exactly when the status is forgotten");
        }
    }

    /**
     * The same node with other children and, when {@code tombstone} is not null, forgotten at that
     * commit. Plumbing of {@code explain}, public for it.
     */
    public ProvenanceNode with(List<ProvenanceNode> newChildren, CommitId tombstone) {
        return tombstone == null
                ? new ProvenanceNode(id, role, version, blob, status, kind, actor, run, cycle, newChildren, null)
                : new ProvenanceNode(id, role, version, blob, Status.FORGOTTEN, kind, actor, run, cycle, newChildren,
                        tombstone);
    }

    /** How the version stands at the asked commit. */
    public enum Status {
        /** The fact is live at the asked commit and this is its live version. */
        LIVE,
        /** The fact is live but its live version is another one. */
        REVISED,
        /** A fact live at the asked commit cites it with role {@code supersedes}. */
        SUPERSEDED,
        /** The fact is not live at the asked commit. */
        RETRACTED,
        /** The fact was forgotten (erased) at or before the asked commit: {@code forgottenAt} is its tombstone's commit. */
        FORGOTTEN;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
