package dev.palimpsest.model;

/**
 * The evidence weight of a fact at a commit: {@code w = s / (s + 1)} where {@code s} is the
 * evidence mass of its deduplicated live lineage; {@code lineage} counts the live facts that were
 * visited.
 *
 * <p>Immutable and thread-safe.
 */
public record Weight(FactId id, CommitId at, double s, double w, int lineage) {}
