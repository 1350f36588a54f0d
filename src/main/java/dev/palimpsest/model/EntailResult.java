package dev.palimpsest.model;

import java.util.Objects;

/**
 * The outcome of an entailment run: the commit ({@code null} when nothing changed), how many
 * entailed edges were added, revised (their derivations changed) and retracted (no derivation
 * remains), the number of entailed edges now, whether the run started from a kept or saved
 * entailer state ({@code incremental}; false: recomputed from scratch), and {@code basis}, a
 * sentence for people saying which state it started from or why it recomputed.
 *
 * <p>Immutable and thread-safe; {@code commit} is null exactly when nothing changed, {@code basis} is never null.
 */
public record EntailResult(CommitResult commit, int added, int revised, int retracted, int edges,
        boolean incremental, String basis) {
    public EntailResult {
        Objects.requireNonNull(basis, "basis");
        if (added < 0 || revised < 0 || retracted < 0 || edges < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }
}
