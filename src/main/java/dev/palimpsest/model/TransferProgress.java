package dev.palimpsest.model;

/**
 * Receives the progress of a transfer or of the audit of what it brought: a task's name, units
 * done and the total (0 when unknown). Called from the thread that runs the transfer.
 *
 * <p>Implementations need not be thread-safe; callers without a display pass {@link #none()}.
 */
@FunctionalInterface
public interface TransferProgress {
    void update(String task, int done, int total);

    /** Ignores progress. */
    static TransferProgress none() {
        return (task, done, total) -> { };
    }
}
