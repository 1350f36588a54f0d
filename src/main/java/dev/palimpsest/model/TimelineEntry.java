package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;

/**
 * One commit of the timeline as a reader of the store's history sees it: the commit itself
 * ({@code commit}: id, parents, actor, time, subject, trailers), how its signature stands, the
 * operations it records with their counts ({@code Palimpsest-Op} verbs such as {@code assert},
 * {@code supersede}, {@code revise}, {@code retract}, {@code forget}, {@code merge}, {@code key-add}, sorted by verb)
 * and the facts it names ({@code Palimpsest-Fact} trailers, in order, each once), and, when a pull or a
 * hub's adoption of a push moved this repository's main to it, that {@link Arrival} (read from main's
 * local reflog: empty for commits written here, commits main reached on the way, and on replicas that
 * did not record it).
 *
 * <p>Immutable and thread-safe; no component may be null (collections are copied); every count is
 * positive.
 */
public record TimelineEntry(LogEntry commit, SignatureStatus signature, SortedMap<String, Integer> operations,
        List<FactId> facts, Optional<Arrival> arrival) {
    /** An entry without an arrival. */
    public TimelineEntry(LogEntry commit, SignatureStatus signature, SortedMap<String, Integer> operations,
            List<FactId> facts) {
        this(commit, signature, operations, facts, Optional.empty());
    }

    public TimelineEntry {
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(arrival, "arrival");
        for (var e : operations.entrySet()) {
            if (e.getValue() == null || e.getValue() < 1) {
                throw new IllegalArgumentException("timeline entry " + commit.commit() + ": operation '" + e.getKey()
                        + "' must have a positive count, was " + e.getValue());
            }
        }
        operations = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(operations));
        facts = List.copyOf(facts);
    }

    /** True when the commit has two parents: a merge of a replica's main or of a pull. */
    public boolean isMerge() {
        return commit.parents().size() > 1;
    }
}
