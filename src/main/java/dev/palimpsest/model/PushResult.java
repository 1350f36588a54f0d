package dev.palimpsest.model;

import java.util.Objects;

/**
 * The outcome of a push: the remote's main already was main's commit, or it moved there from
 * {@code from} (null: the remote had no main).
 *
 * <p>Implementations are immutable records; {@code head} is non-null.
 */
public sealed interface PushResult {
    /** Main's commit, now the remote's main. */
    CommitId head();

    /** The remote already had main's commit. */
    record UpToDate(CommitId head) implements PushResult {
        public UpToDate {
            Objects.requireNonNull(head, "head");
        }
    }

    /** The remote's main moved from {@code from} (null when it had none) to {@code head}. */
    record Pushed(CommitId from, CommitId head) implements PushResult {
        public Pushed {
            Objects.requireNonNull(head, "head");
        }
    }
}
