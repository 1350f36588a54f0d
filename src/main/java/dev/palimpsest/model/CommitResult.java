package dev.palimpsest.model;

import java.util.List;

/**
 * The outcome of a landed transaction: its signed commit, the facts it wrote (asserted or
 * revised) and the facts it retracted. Immutable.
 */
public record CommitResult(CommitId commit, List<FactId> written, List<FactId> retracted) {
    public CommitResult {
        written = List.copyOf(written);
        retracted = List.copyOf(retracted);
    }
}
