package dev.palimpsest.model;

import java.util.List;

/**
 * What a forget did (or, dry run, would do): its commit (null for a dry run), the facts forgotten
 * (the ones asked for, then the sealed derived artifacts the forget cascaded to), the union of
 * their closures (sorted), and the closure members left for review (neither forgotten nor
 * shredded). Immutable; lists copied.
 */
public record ForgetReport(CommitId commit, List<FactId> forgotten, List<FactId> closure, List<FactId> review) {
    public ForgetReport {
        forgotten = List.copyOf(forgotten);
        closure = List.copyOf(closure);
        review = List.copyOf(review);
    }
}
