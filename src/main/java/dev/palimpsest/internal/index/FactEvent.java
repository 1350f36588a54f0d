package dev.palimpsest.internal.index;

import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A change of one fact's file at one commit, against the commit's first parent: the file was
 * written ({@code live}) or removed. {@code versionCommit}/{@code blob} name the fact's last
 * navigable version after the change (for a removal, the version removed); {@code refs} are the
 * refs of a written version. {@code navigable} is false only for a removal without its retraction
 * record (as only a tampered history has): the removed version is then no navigable version.
 * Immutable.
 */
record FactEvent(ObjectId commit, boolean live, ObjectId versionCommit, ObjectId blob, String kind,
        List<RefPin> refs, boolean navigable) {
    FactEvent {
        refs = List.copyOf(refs);
        if (live && !navigable) {
            throw new IllegalArgumentException("a written version is always navigable");
        }
    }

    FactEvent(ObjectId commit, boolean live, ObjectId versionCommit, ObjectId blob, String kind, List<RefPin> refs) {
        this(commit, live, versionCommit, blob, kind, refs, true);
    }
}
