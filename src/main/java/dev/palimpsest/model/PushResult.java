package dev.palimpsest.model;

import java.util.Objects;

/**
 * The outcome of a push: the remote's main already was main's commit, it moved there from
 * {@code from} (null: the remote had no main), or (a hub whose main had moved on) the remote
 * audited main's commit and merged it into its own main.
 *
 * <p>Implementations are immutable records; {@code head} is non-null.
 */
public sealed interface PushResult {
    /** The remote's main after the push: main's commit, or the hub's merge of it. */
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

    /**
     * The remote, a hub whose main had commits main lacks, audited {@code pushed} (main's commit)
     * and merged it into its main: the merge commit {@code head}, signed by the pusher's actor, with
     * the hub's main before it as first parent and {@code pushed} as second. A pull brings it back.
     */
    record Merged(CommitId pushed, CommitId head) implements PushResult {
        public Merged {
            Objects.requireNonNull(pushed, "pushed");
            Objects.requireNonNull(head, "head");
        }
    }
}
