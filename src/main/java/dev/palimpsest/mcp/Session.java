package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Judge;
import java.util.List;

/**
 * What every tool of one server shares: the open store (whose options carry the run, so each commit
 * has its {@code Palimpsest-Run} trailer), the actor who signs every write, the run (null: none)
 * and the judges the server was started with (the reviewer of {@code verify} and the oracles of
 * {@code rederive_audit}, first one first; empty: none). Immutable; the store is thread-safe.
 */
record Session(Store store, ActorName actor, String run, List<Judge> judges) {
    Session {
        judges = List.copyOf(judges);
    }

    /** A session without judges. */
    Session(Store store, ActorName actor, String run) {
        this(store, actor, run, List.of());
    }
}
