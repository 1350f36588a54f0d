package dev.palimpsest.web;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.NotFoundException;
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
    /**
     * The audit of {@code head}: running ({@code done} of {@code total}), done with its report, or
     * failed; {@code since} is the earlier audited tip it continued from (only the commits after it
     * were audited this time, its report carried over), empty for an audit of the whole history.
     */
    record State(CommitId head, Instant started, int done, int total, Optional<AuditReport> report,
            Optional<String> failure, Optional<CommitId> since) {
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

    /**
     * The last audit's state, after starting one of main's tip when the last is of another commit and
     * done: of the commits after the last audited tip when that one is an ancestor of main's tip and
     * its audit finished (its report carried over), else of the whole history.
     */
    Optional<State> current() {
        CommitId head = store.head();
        State s = state.get();
        if (s == null || (!s.head().equals(head) && !s.running())) {
            Optional<State> base = Optional.ofNullable(s).filter(b -> b.report().isPresent() && isAncestor(b.head(), head));
            State started = new State(head, Instant.now(), 0, 0, Optional.empty(), Optional.empty(),
                    base.map(State::head));
            if (state.compareAndSet(s, started)) {
                try {
                    runner.execute(() -> run(started, base.flatMap(State::report)));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    state.set(new State(head, started.started(), 0, 0, Optional.empty(),
                            Optional.of("the hub is stopping"), Optional.empty()));
                }
            }
        }
        return Optional.ofNullable(state.get());
    }

    private boolean isAncestor(CommitId ancestor, CommitId descendant) {
        try {
            return store.isAncestor(ancestor, descendant);
        } catch (NotFoundException e) {
            return false;
        }
    }

    private void run(State started, Optional<AuditReport> before) {
        try (Auditor auditor = Auditor.open(store.gitDir())) {
            AuditProgress progress = (done, total) -> state.set(new State(started.head(), started.started(), done, total,
                    Optional.empty(), Optional.empty(), started.since()));
            AuditReport report = started.since().isPresent()
                    ? auditor.auditRange(started.since().get(), started.head(), progress)
                    : auditor.auditUpTo(started.head(), progress);
            int audited = report.commits();
            if (before.isPresent()) {
                report = before.get().followedBy(report);
            }
            state.set(new State(started.head(), started.started(), audited, audited, Optional.of(report),
                    Optional.empty(), started.since()));
        } catch (PalimpsestException | RuntimeException e) {
            state.set(new State(started.head(), started.started(), 0, 0, Optional.empty(),
                    Optional.of(String.valueOf(e.getMessage())), started.since()));
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
