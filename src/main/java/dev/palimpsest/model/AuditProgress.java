package dev.palimpsest.model;

/**
 * Receives the progress of an audit: how many of the audited commits have been checked. Called
 * from the thread that started the audit, a few times a second and once at the end.
 */
@FunctionalInterface
public interface AuditProgress {
    void update(int done, int total);

    /** Ignores progress. */
    static AuditProgress none() {
        return (done, total) -> { };
    }
}
