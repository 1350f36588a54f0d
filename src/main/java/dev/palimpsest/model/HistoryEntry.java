package dev.palimpsest.model;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One change to a fact's file: it was {@link Change#ADDED added}, {@link Change#REVISED revised} or
 * {@link Change#RETRACTED retracted} by {@code actor} at {@code commit}. {@code blob} is the new
 * version's blob, null exactly for a retraction or a forget.
 *
 * <p>Immutable and thread-safe; every component but {@code blob} must be non-null.
 */
public record HistoryEntry(FactId id, CommitId commit, Change change, BlobId blob, ActorName actor, Instant time) {
    /** What a commit did to the fact's file. */
    public enum Change {
        /** The file appeared (first write, or a write after a retraction). */
        ADDED,
        /** The file's content changed. */
        REVISED,
        /** The file was removed by a retraction. */
        RETRACTED,
        /** The file was removed by forget: its content is erased (a tombstone records it). */
        FORGOTTEN;

        /** The change as printed: {@code added}, {@code revised}, {@code retracted} or {@code forgotten}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return value();
        }
    }

    public HistoryEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(time, "time");
        if ((blob == null) != (change == Change.RETRACTED || change == Change.FORGOTTEN)) {
            throw new IllegalArgumentException("history of " + id + " at " + commit
                    + ": blob must be null exactly for a retraction or a forget");
        }
    }
}
