package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;

/**
 * What every tool of one server shares: the open store (whose options carry the run, so each commit
 * has its {@code Palimpsest-Run} trailer), the actor who signs every write, and the run (null: none).
 * Immutable; the store is thread-safe.
 */
record Session(Store store, ActorName actor, String run) {}
