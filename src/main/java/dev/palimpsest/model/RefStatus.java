package dev.palimpsest.model;

/**
 * How a ref of a fact's version stands at a commit, compared with what it pinned: the target is
 * {@code target}, pinned at {@code pinned}; {@code current} is the target's version commit at the
 * asked commit (for a retracted target: the retraction commit; for a forgotten one: the commit of its
 * tombstone). {@code by} names the superseding
 * fact when {@code status} is SUPERSEDED, else null.
 *
 * <p>Immutable and thread-safe; {@code current} is null when the target was never written at the
 * asked commit, {@code by} as described; other components are never null.
 */
public record RefStatus(FactId target, RefRole role, Status status, CommitId pinned, CommitId current, FactId by) {
    /**
     * Worst first: a forgotten target (erased; {@code current} is the commit that wrote its
     * tombstone) outranks a retracted one, which outranks a superseded one, then a revised one.
     */
    public enum Status { FORGOTTEN, RETRACTED, SUPERSEDED, REVISED, CURRENT }
}
