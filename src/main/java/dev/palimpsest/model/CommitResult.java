package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a landed transaction: the id of its signed commit, the facts it wrote (asserted
 * or revised) and the facts it retracted.
 *
 * <p>Immutable and thread-safe; {@code id} must be non-null, the lists are copied.
 */
public record CommitResult(CommitId id, List<FactId> written, List<FactId> retracted) {
    public CommitResult {
        Objects.requireNonNull(id, "id");
        written = List.copyOf(written);
        retracted = List.copyOf(retracted);
    }
}
