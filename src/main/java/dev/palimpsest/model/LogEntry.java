package dev.palimpsest.model;

import java.time.Instant;
import java.util.List;

/**
 * One commit of the store's timeline, newest first in a log.
 *
 * <p>Immutable and thread-safe; no component is null (lists are copied).
 */
public record LogEntry(CommitId commit, List<CommitId> parents, String actor, Instant time, String subject,
        List<Trailer> trailers) {
    public LogEntry {
        parents = List.copyOf(parents);
        trailers = List.copyOf(trailers);
    }
}
