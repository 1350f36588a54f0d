package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Fact;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Learns what an audit read, so a caller that adopts the audited commits (a pull) need not read it
 * again: each checked commit's changes against its first parent, and each fact file decoded.
 * Called from the audit's worker threads, so implementations must be thread-safe.
 */
public interface AuditObserver {
    /** {@code commit} (with {@code parents}, first parent first) changed exactly {@code changes} against its first parent. */
    void commit(ObjectId commit, List<ObjectId> parents, List<Change> changes);

    /** {@code blob} decodes to {@code fact}. */
    void fact(ObjectId blob, Fact fact);

    /**
     * {@code commit} was offered to a streamed audit with these bytes, which hashed to its id; the
     * array must not be changed. Learns nothing unless overridden.
     */
    default void offered(ObjectId commit, byte[] raw) {
    }

    /** Learns nothing. */
    AuditObserver NONE = new AuditObserver() {
        @Override
        public void commit(ObjectId commit, List<ObjectId> parents, List<Change> changes) {
        }

        @Override
        public void fact(ObjectId blob, Fact fact) {
        }
    };
}
