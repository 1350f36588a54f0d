package dev.palimpsest.web;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.PalimpsestException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The status page's audit of main: at most one runs at a time, on a daemon thread, started when the
 * page is asked and the last audit (run or running) is not of main's tip; the page shows the last
 * state. The audit is the public {@link Auditor}'s, over every commit up to the tip. Thread-safe.
 */
final class Audits implements AutoCloseable {
    /** The audit of {@code head}: running ({@code done} of {@code total}), done with its report, or failed. */
    record State(CommitId head, Instant started, int done, int total, Optional<AuditReport> report,
            Optional<String> failure) {
        boolean running() {
            return report.isEmpty() && failure.isEmpty();
        }
    }

    private final Store store;
    private final AtomicReference<State> state = new AtomicReference<>();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "palimpsest-web-audit");
        t.setDaemon(true);
        return t;
    });

    Audits(Store store) {
        this.store = store;
    }

    /** The last audit's state, after starting one of main's tip when the last is of another commit and done. */
    Optional<State> current() {
        CommitId head = store.head();
        State s = state.get();
        if (s == null || (!s.head().equals(head) && !s.running())) {
            State started = new State(head, Instant.now(), 0, 0, Optional.empty(), Optional.empty());
            if (state.compareAndSet(s, started)) {
                try {
                    runner.execute(() -> run(started));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    state.set(new State(head, started.started(), 0, 0, Optional.empty(),
                            Optional.of("the hub is stopping")));
                }
            }
        }
        return Optional.ofNullable(state.get());
    }

    private void run(State started) {
        try (Auditor auditor = Auditor.open(store.gitDir())) {
            AuditReport report = auditor.auditUpTo(started.head(), (done, total) -> state.set(
                    new State(started.head(), started.started(), done, total, Optional.empty(), Optional.empty())));
            state.set(new State(started.head(), started.started(), report.commits(), report.commits(),
                    Optional.of(report), Optional.empty()));
        } catch (PalimpsestException | RuntimeException e) {
            state.set(new State(started.head(), started.started(), 0, 0, Optional.empty(),
                    Optional.of(String.valueOf(e.getMessage()))));
        }
    }

    /** Stops: a running audit is interrupted and given up to {@code millis} to end. */
    void close(long millis) {
        runner.shutdownNow();
        try {
            runner.awaitTermination(Math.max(1, millis), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(5_000);
    }
}
