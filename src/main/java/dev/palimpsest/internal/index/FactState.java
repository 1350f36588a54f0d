package dev.palimpsest.internal.index;

import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A fact's state at some commit, as the index answers it: whether it is live, its last navigable
 * version (commit and blob), the commit of the change that set this state (the version's commit
 * for a write; the retraction for a removal), its kind and its refs; {@code navigable} is false
 * for a removal without its retraction record, whose version is no navigable version. {@code
 * validFrom} and {@code validUntil} are the version's validity in epoch seconds ({@link
 * Long#MIN_VALUE} and {@link Long#MAX_VALUE} when open). Immutable.
 */
public record FactState(boolean live, ObjectId versionCommit, ObjectId blob, ObjectId changedAt, String kind,
        List<RefPin> refs, boolean navigable, long validFrom, long validUntil) {
    FactState(FactEvent e) {
        this(e.live(), e.versionCommit(), e.blob(), e.commit(), e.kind(), e.refs(), e.navigable(), e.validFrom(),
                e.validUntil());
    }
}
