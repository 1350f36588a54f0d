package dev.palimpsest.model;

import java.time.Instant;

/**
 * One change to a fact's file: {@code change} is {@code added}, {@code revised} or {@code retracted};
 * {@code blob} is null for a retraction. Immutable.
 */
public record HistoryEntry(FactId id, CommitId commit, String change, BlobId blob, String actor, Instant time) {}
