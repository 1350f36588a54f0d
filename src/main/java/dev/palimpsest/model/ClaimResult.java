package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * A claim that landed: its id, the commit, and the live claims at the commit it landed on that it
 * contradicts (same normalised subject and predicate, another object, the predicate not
 * multi-valued) — reported, never resolved: resolution is an explicit supersede. Immutable.
 */
public record ClaimResult(FactId id, CommitId commit, List<Conflict> conflicts) {
    /** A live claim the new one contradicts: its id, object and first source. */
    public record Conflict(FactId id, String object, FactId source) {
        public Conflict {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(object, "object");
            Objects.requireNonNull(source, "source");
        }
    }

    public ClaimResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(commit, "commit");
        conflicts = List.copyOf(conflicts);
    }
}
