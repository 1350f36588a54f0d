package dev.palimpsest.internal.index;

import dev.palimpsest.model.Fact;
import java.util.Map;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;

/**
 * What an earlier pass over new commits (the audit of a pull) already learnt, offered to the
 * {@link PredicateIndex}'s catch-up so it diffs and decodes nothing twice: per single-parent commit,
 * every file path it changed against its parent; and decoded fact files by blob. Implementations
 * must be thread-safe for reading; both methods may return null for "not known".
 */
public interface KnownChanges {
    /** One changed path: the blob before and after (null when absent). */
    record Change(ObjectId oldBlob, ObjectId newBlob) {
        public Change {
            if (oldBlob == null && newBlob == null) {
                throw new IllegalArgumentException("a change needs an old or a new blob");
            }
        }
    }

    /** Every path {@code commit} changed against its only parent (path to change), or null. */
    Map<String, Change> changes(ObjectId commit);

    /** The fact decoded from {@code blob}, or null when not known (or it does not decode). */
    Fact fact(ObjectId blob);

    /**
     * The bytes of the commit object {@code commit}, already hashed to its id, or null when not
     * known: the catch-up then reads the commit from the repository. Knows none unless overridden.
     */
    default byte[] commit(AnyObjectId commit) {
        return null;
    }

    /** Knows nothing. */
    KnownChanges NONE = new KnownChanges() {
        @Override
        public Map<String, Change> changes(ObjectId commit) {
            return null;
        }

        @Override
        public Fact fact(ObjectId blob) {
            return null;
        }
    };
}
