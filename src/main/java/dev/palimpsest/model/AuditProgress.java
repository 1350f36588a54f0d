package dev.palimpsest.model;

/**
 * Receives the progress of an audit: how many of the audited commits have been checked. Called
 * from the thread that started the audit, a few times a second and once at the end.
 *
 * <p>Implementations are called from one thread only and need not be thread-safe; the audit
 * never passes null, and callers without a display pass {@link #none()}.
 */
@FunctionalInterface
public interface AuditProgress {
    void update(int done, int total);

    /** Ignores progress. */
    static AuditProgress none() {
        return (done, total) -> { };
    }
}
