package dev.palimpsest.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What an expiry did (or, dry run, would do): its commit (null when nothing expired or for a dry
 * run) and each fact forgotten because its retention deadline passed, with that deadline.
 * Immutable; the list is copied.
 */
public record ExpireReport(CommitId commit, List<Expired> forgotten) {
    /** One expired fact and its original deadline. */
    public record Expired(FactId id, Instant deadline) {
        public Expired {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(deadline, "deadline");
        }
    }

    public ExpireReport {
        forgotten = List.copyOf(forgotten);
    }
}
