package dev.palimpsest.model;

import java.util.List;

/**
 * The answer to "prove nothing derived from a fact remains readable": every fact derived from it
 * (its tombstone's closure and the transitive dependents over all history), sorted, and those of
 * them whose content can still be read on main (live or retracted with its key, or plaintext in
 * some version). {@link #clean()} when none can. Immutable; lists copied.
 */
public record UnlearnReport(FactId id, List<FactId> derivations, List<FactId> readable) {
    public UnlearnReport {
        derivations = List.copyOf(derivations);
        readable = List.copyOf(readable);
    }

    /** True when no derivation is readable. */
    public boolean clean() {
        return readable.isEmpty();
    }
}
