package dev.palimpsest.api;

/**
 * The outcome of an entailment run: the commit ({@code null} when nothing changed), how many
 * entailed edges were added, revised (their derivations changed) and retracted (no derivation
 * remains), the number of entailed edges now, and whether the closure was updated incrementally
 * (false: computed from scratch, the first run in this process). Immutable.
 */
public record EntailResult(CommitResult commit, int added, int revised, int retracted, int edges,
        boolean incremental) {}
