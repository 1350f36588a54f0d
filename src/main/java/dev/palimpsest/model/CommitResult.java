package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a landed transaction: the id of its signed commit, the facts it wrote (asserted
 * or revised), the facts it retracted and the facts it forgot (tombstoned).
 *
 * <p>Immutable and thread-safe; {@code id} must be non-null, the lists are copied.
 */
public record CommitResult(CommitId id, List<FactId> written, List<FactId> retracted, List<FactId> forgotten) {
    /** A result that forgot nothing. */
    public CommitResult(CommitId id, List<FactId> written, List<FactId> retracted) {
        this(id, written, retracted, List.of());
    }

    public CommitResult {
        forgotten = List.copyOf(forgotten == null ? List.of() : forgotten);
        Objects.requireNonNull(id, "id");
        written = List.copyOf(written);
        retracted = List.copyOf(retracted);
    }
}
