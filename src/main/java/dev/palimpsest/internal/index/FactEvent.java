package dev.palimpsest.internal.index;

import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A change of one fact's file at one commit, against the commit's first parent: the file was
 * written ({@code live}) or removed. {@code versionCommit}/{@code blob} name the fact's last
 * navigable version after the change (for a removal, the version removed); {@code refs} are the
 * refs of a written version. {@code navigable} is false only for a removal without its retraction
 * record (as only a tampered history has): the removed version is then no navigable version.
 * {@code validFrom} and {@code validUntil} are the version's validity in epoch seconds, {@link
 * Long#MIN_VALUE} and {@link Long#MAX_VALUE} when open. Immutable.
 */
record FactEvent(ObjectId commit, boolean live, ObjectId versionCommit, ObjectId blob, String kind,
        List<RefPin> refs, boolean navigable, long validFrom, long validUntil) {
    /** An open bound, in epoch seconds. */
    static final long OPEN_START = Long.MIN_VALUE;
    static final long OPEN_END = Long.MAX_VALUE;

    FactEvent {
        refs = List.copyOf(refs);
        if (live && !navigable) {
            throw new IllegalArgumentException("a written version is always navigable");
        }
    }

    FactEvent(ObjectId commit, boolean live, ObjectId versionCommit, ObjectId blob, String kind, List<RefPin> refs,
            boolean navigable) {
        this(commit, live, versionCommit, blob, kind, refs, navigable, OPEN_START, OPEN_END);
    }

    FactEvent(ObjectId commit, boolean live, ObjectId versionCommit, ObjectId blob, String kind, List<RefPin> refs) {
        this(commit, live, versionCommit, blob, kind, refs, true);
    }

    /** The bounds of {@code v} in epoch seconds, open bounds as {@link #OPEN_START} and {@link #OPEN_END}. */
    static long[] bounds(dev.palimpsest.model.Validity v) {
        return new long[] {v.start().map(java.time.Instant::getEpochSecond).orElse(OPEN_START),
            v.end().map(java.time.Instant::getEpochSecond).orElse(OPEN_END)};
    }
}
