package dev.palimpsest.internal.git;

import java.util.function.BooleanSupplier;
import org.eclipse.jgit.lib.ProgressMonitor;

/**
 * A JGit progress monitor that reports nothing and tells the work it is handed to stop once
 * {@code cancelled} says so (the background repack and the commit-graph writer stop when their
 * repository closes). Thread-safe when {@code cancelled} is.
 */
final class Cancel implements ProgressMonitor {
    private final BooleanSupplier cancelled;

    Cancel(BooleanSupplier cancelled) {
        this.cancelled = cancelled;
    }

    @Override
    public void start(int totalTasks) {}

    @Override
    public void beginTask(String title, int totalWork) {}

    @Override
    public void update(int completed) {}

    @Override
    public void endTask() {}

    @Override
    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }

    @Override
    public void showDuration(boolean enabled) {}
}
