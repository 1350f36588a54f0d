package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of importing a folder of notes: the commit (empty when nothing changed, e.g. a
 * re-import of an unchanged folder), the facts added and revised, and how many notes were already
 * stored as they are.
 *
 * <p>Immutable and thread-safe.
 */
public record ImportResult(Optional<CommitId> commit, List<FactId> added, List<FactId> revised, int unchanged) {
    public ImportResult {
        Objects.requireNonNull(commit, "commit");
        added = List.copyOf(added);
        revised = List.copyOf(revised);
        if (unchanged < 0) {
            throw new IllegalArgumentException("unchanged must not be negative, got " + unchanged);
        }
    }
}
