package dev.palimpsest.model;

import java.util.List;

/**
 * The answer to "prove nothing derived from a fact remains readable": every fact derived from it
 * (its tombstone's closure and the transitive dependents over all history), sorted, and those of
 * them, and the fact itself, whose content can still be read on main (live or retracted with its
 * key, or plaintext in some version: a fact never forgotten is readable), and the derived files under the store (paths relative to its git directory) that
 * may still hold the fact's content: saved before its tombstone and held by a running process, so
 * they could not be deleted yet. {@link #clean()} when none of either. Immutable; lists copied.
 */
public record UnlearnReport(FactId id, List<FactId> derivations, List<FactId> readable, List<String> caches) {
    public UnlearnReport {
        derivations = List.copyOf(derivations);
        readable = List.copyOf(readable);
        caches = List.copyOf(caches);
    }

    /** A report without derived files that may hold the content. */
    public UnlearnReport(FactId id, List<FactId> derivations, List<FactId> readable) {
        this(id, derivations, readable, List.of());
    }

    /** True when no derivation is readable and no derived file may hold the content. */
    public boolean clean() {
        return readable.isEmpty() && caches.isEmpty();
    }
}
