package dev.palimpsest.model;

import java.util.List;

/**
 * Thrown when a pull would adopt the other side only through a merge commit that breaks a rule the
 * audit holds merge commits to: lists every violation of the merge commit the store computed, and
 * guarantees nothing was written (main did not move). The CLI reports it like an audit refusal.
 *
 * <p>Immutable once thrown and safe to share between threads; {@link #violations()} is never empty.
 */
public final class MergeRefusedException extends RejectedException {
    private static final long serialVersionUID = 1L;

    public MergeRefusedException(List<Violation> violations) {
        super(violations);
    }
}
