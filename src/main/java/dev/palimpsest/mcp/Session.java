package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Judge;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What every tool of one server shares: the open store (whose options carry the run, so each commit
 * has its {@code Palimpsest-Run} trailer), who signs the writes, the run (null: none) and the judges
 * the server was started with (the reviewer of {@code verify} and the oracles of
 * {@code rederive_audit}, first one first; empty: none). On stdio one actor signs every write; over
 * HTTP each call is signed by its caller's actor, bound to the calling thread for the call's length
 * ({@link #as}). Immutable apart from that binding; the store is thread-safe.
 */
final class Session {
    private static final ThreadLocal<Caller> CURRENT = new ThreadLocal<>();

    private final Store store;
    private final Optional<ActorName> fixed;
    private final String run;
    private final List<Judge> judges;

    /** A session whose writes are all signed by {@code actor}. */
    Session(Store store, ActorName actor, String run, List<Judge> judges) {
        this(store, Optional.of(Objects.requireNonNull(actor, "actor")), run, judges);
    }

    /** A session without judges. */
    Session(Store store, ActorName actor, String run) {
        this(store, actor, run, List.of());
    }

    private Session(Store store, Optional<ActorName> fixed, String run, List<Judge> judges) {
        this.store = Objects.requireNonNull(store, "store");
        this.fixed = fixed;
        this.run = run;
        this.judges = List.copyOf(judges);
    }

    /** A session with no actor of its own: every call must run {@link #as} a caller. */
    static Session perCaller(Store store, String run, List<Judge> judges) {
        return new Session(store, Optional.empty(), run, judges);
    }

    Store store() {
        return store;
    }

    String run() {
        return run;
    }

    List<Judge> judges() {
        return judges;
    }

    /**
     * The actor who signs the current call's writes: the caller bound to this thread, else the
     * session's own actor.
     *
     * @throws IllegalStateException when neither is known (a per-caller session called outside {@link #as})
     */
    ActorName actor() {
        Caller c = CURRENT.get();
        if (c != null) {
            return c.actor();
        }
        return fixed.orElseThrow(() -> new IllegalStateException("no caller is bound to this call"));
    }

    /** The caller bound to this thread, if any. */
    static Optional<Caller> caller() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Runs {@code body} with {@code caller} bound to this thread (the binding is undone afterwards). */
    static <T> T as(Caller caller, java.util.function.Supplier<T> body) {
        Caller before = CURRENT.get();
        CURRENT.set(Objects.requireNonNull(caller, "caller"));
        try {
            return body.get();
        } finally {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }
}
