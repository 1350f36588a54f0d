package dev.palimpsest.internal.audit;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.PalimpsestInternalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * An audit whose commits are checked while they arrive: a fetch {@link #offer}s each commit, oldest
 * first, once every object it reaches can be read through the stream's readers, and worker threads
 * (one per core) check it against its first parent as {@link AuditEngine#run} does; {@link #finish}
 * then lists the range to audit, checks whatever in it was not offered (and the commits a check
 * must see in the repository, {@link AuditCheck#readsRepository}), and reports the range in commit
 * order. What was offered outside the range is not reported. Thread-safe; close it (its
 * workers stop).
 */
public final class AuditStream implements AutoCloseable {
    private final AuditEngine engine;
    private final Supplier<ObjectReader> readers;
    private final AuditRun run;
    private final Ancestry ancestry;
    private final Map<ObjectId, AuditEngine.Node> byId = new ConcurrentHashMap<>();
    /** What each checked commit came to (not the commit itself, which holds its objects' bytes). */
    private record Checked(List<AuditViolation> violations, int signatures, int files, int refs) {
        static Checked of(AuditedCommit c) {
            return new Checked(List.copyOf(c.violations()), c.signatures(), c.files(), c.refs());
        }
    }

    private final Map<ObjectId, Checked> results = new ConcurrentHashMap<>();
    private final List<AuditEngine.Node> queue = new ArrayList<>();
    /** Commits a worker left for {@link #finish}, once every object is in the repository. */
    private final List<AuditEngine.Node> deferred = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch finished;
    private int taken;
    private boolean closed;
    private volatile boolean cancelled;

    AuditStream(AuditEngine engine, AuditObserver observer, Supplier<ObjectReader> readers) {
        this.engine = engine;
        this.readers = readers;
        this.ancestry = new Ancestry(readers);
        this.run = new AuditRun(engine.checks(), ancestry, byId, engine.repo().vault(), observer);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.finished = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(this::work, "palimpsest-audit-" + t);
            worker.setDaemon(true);
            worker.start();
        }
    }

    /**
     * Queues the commit {@code id} to be checked: its tree and parents (first parent first) as git
     * parses its header, and its raw bytes as read and hashed to {@code id} (handed to the observer;
     * the check reads the commit itself). Its parents in the range must have been offered before
     * it. A commit offered twice is checked once.
     */
    public void offer(ObjectId id, ObjectId tree, List<ObjectId> parents, byte[] raw) {
        run.observer.offered(id, raw);
        add(new AuditEngine.Node(id.copy(), tree.copy(), List.copyOf(parents)));
    }

    private synchronized void add(AuditEngine.Node n) {
        if (!closed) {
            enqueue(n);
        }
    }

    /** Queues {@code n} for the workers unless it is queued already (every queued commit is in {@link #byId}). */
    private void enqueue(AuditEngine.Node n) {
        if (byId.putIfAbsent(n.id(), n) == null) {
            ancestry.add(n);
            queue.add(n);
            notifyAll();
        }
    }

    /**
     * Audits every commit reachable from {@code to} and not from {@code from} (null: down to the
     * genesis commit): those offered were checked meanwhile, the others are checked now; returns
     * the report of that range, reporting progress from the calling thread.
     */
    public AuditReport finish(ObjectId from, ObjectId to, AuditProgress progress) {
        List<AuditEngine.Node> range = offeredChain(from, to);
        if (range == null) {
            range = engine.enumerate(from, to);
        }
        synchronized (this) {
            range.forEach(this::enqueue);
            closed = true;
            notifyAll();
        }
        await(progress);
        Throwable f = failure.get();
        if (f != null) {
            throw new PalimpsestInternalException("audit failed: " + f, f);
        }
        if (!deferred.isEmpty()) {
            try (Reading reading = new Reading(readers.get())) {
                for (AuditEngine.Node n : deferred) {
                    results.put(n.id(), Checked.of(engine.check(run, n, reading, false)));
                    progress.update(done.incrementAndGet(), queue.size());
                }
            }
        }
        List<AuditViolation> all = new ArrayList<>();
        int signatures = 0;
        int files = 0;
        int refs = 0;
        for (AuditEngine.Node n : range) {
            Checked c = results.get(n.id());
            all.addAll(c.violations());
            signatures += c.signatures();
            files += c.files();
            refs += c.refs();
        }
        return new AuditReport(range.size(), signatures, files, refs, all);
    }

    /**
     * The range {@code from..to} listed without reading the repository, when it is a chain of
     * offered commits, each the only parent of the next, that ends at {@code from} or at a commit
     * without parents; else null. Offered commits were copied, so none is reachable from
     * {@code from}: the chain is the whole range, oldest first, in the only order it has.
     */
    private List<AuditEngine.Node> offeredChain(ObjectId from, ObjectId to) {
        java.util.ArrayDeque<AuditEngine.Node> chain = new java.util.ArrayDeque<>();
        for (ObjectId at = to; !at.equals(from); at = chain.getFirst().parents().get(0)) {
            AuditEngine.Node n = byId.get(at);
            if (n == null || n.parents().size() > 1) {
                return null;
            }
            chain.addFirst(n);
            if (n.parents().isEmpty()) {
                break;
            }
        }
        return new ArrayList<>(chain);
    }

    private void await(AuditProgress progress) {
        int total;
        synchronized (this) {
            total = queue.size();
        }
        try {
            do {
                progress.update(done.get(), total);
            } while (!finished.await(200, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PalimpsestInternalException("interrupted while auditing", e);
        }
        progress.update(done.get(), total);
    }

    private void work() {
        Reading reading = null;
        try {
            while (true) {
                AuditEngine.Node n;
                synchronized (this) {
                    while (taken >= queue.size() && !closed) {
                        wait();
                    }
                    if (taken >= queue.size() || failure.get() != null || cancelled) {
                        return;
                    }
                    n = queue.get(taken++);
                }
                if (reading == null) {
                    reading = new Reading(readers.get());
                }
                AuditedCommit c = engine.check(run, n, reading, true);
                if (c == null) {
                    deferred.add(n);
                } else {
                    results.put(n.id(), Checked.of(c));
                    done.incrementAndGet();
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            if (reading != null) {
                reading.close();
            }
            finished.countDown();
        }
    }

    /** Stops the workers (after {@link #finish} they have stopped already); nothing more is accepted. */
    @Override
    public void close() {
        synchronized (this) {
            cancelled = true;
            closed = true;
            notifyAll();
        }
    }
}
