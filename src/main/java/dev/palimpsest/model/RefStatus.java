package dev.palimpsest.model;

/**
 * How a ref of a fact's version stands at a commit, compared with what it pinned: the target is
 * {@code target}, pinned at {@code pinned}; {@code current} is the target's version commit at the
 * asked commit (for a retracted target: the retraction commit). {@code by} names the superseding
 * fact when {@code status} is SUPERSEDED, else null.
 *
 * <p>Immutable and thread-safe; {@code current} is null when the target was never written at the
 * asked commit, {@code by} as described; other components are never null.
 */
public record RefStatus(FactId target, RefRole role, Status status, CommitId pinned, CommitId current, FactId by) {
    /** Worst first: a retracted target outranks a superseded one, which outranks a revised one. */
    public enum Status { RETRACTED, SUPERSEDED, REVISED, CURRENT }
}
