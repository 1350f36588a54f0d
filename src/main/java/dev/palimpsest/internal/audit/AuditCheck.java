package dev.palimpsest.internal.audit;

import java.io.IOException;

/**
 * One family of audit rules, applied to every audited commit. This is the audit's extension point:
 * {@link AuditEngine#standardChecks()} lists the built-in checks (signature and trust, dates,
 * trailers, files and gate replay, receipt cycles, retractions), and a new rule family (such as agreement of a predicate
 * index with history) is one more implementation added to that list.
 *
 * <p>Implementations must be thread-safe: commits are checked concurrently, each by one thread.
 */
public interface AuditCheck {
    /**
     * Checks one commit against its first parent and reports what it finds through
     * {@link AuditedCommit#violation}. An IOException (an unreadable object) is reported by the
     * engine as an {@code unreadable} violation of the commit; the other checks still run.
     */
    void check(AuditedCommit commit) throws IOException;

    /**
     * True when this check is responsible for changes at {@code path} (a path outside the files
     * the trailers account for); the trailer check then does not report such a change as
     * unexplained. The built-in checks explain nothing.
     */
    default boolean explains(String path) {
        return false;
    }

    /**
     * True when checking {@code commit} reads the repository itself rather than through the
     * commit's {@link AuditedCommit#reading()} (e.g. through the predicate index), so an audit that
     * runs while the incoming objects arrive ({@link AuditStream}) checks this commit only once they
     * are all in the repository. Most checks never do.
     */
    default boolean readsRepository(AuditedCommit commit) {
        return false;
    }

    /**
     * True when this check also applies to merge commits (two parents). A merge commit's changes
     * against its first parent are not operations of its own, so the checks of operations, files
     * and trailers skip it; {@link MergeCheck} holds it to the convergent merge instead.
     */
    default boolean checksMerges() {
        return false;
    }
}
