package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.git.OverlayReader;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * The objects a fetch has copied and not yet written to a pack, so that the audit running while
 * the copy goes on can read each commit it is offered: the copy {@link #put}s every object it
 * appends and calls {@link #written} once the pack holding them is registered with the repository.
 * The objects of the pack written last stay readable from memory too (the audit, a little behind
 * the copy, still reads them: trees of the commits it is checking and of their parents) until the
 * next pack is written; the last ones go with this object, when the pull that made it ends. Their
 * hashes may still be being checked when they are read; a mismatch fails the fetch, and an audit
 * of a failed fetch is never used. Thread-safe.
 */
public final class Unflushed {
    private volatile Map<AnyObjectId, ObjectLoader> pending = new ConcurrentHashMap<>();
    private volatile Map<AnyObjectId, ObjectLoader> written = Map.of();

    void put(AnyObjectId id, int type, byte[] data) {
        pending.put(id, new ObjectLoader.SmallObject(type, data));
    }

    /**
     * The pending objects are in a registered pack now: they stay readable from memory until the
     * next call, and the objects of the pack before are forgotten. Called by the copying thread only.
     */
    void written() {
        written = pending;
        pending = new ConcurrentHashMap<>();
    }

    /** How many objects are held that no registered pack holds yet. */
    int size() {
        return pending.size();
    }

    /** How many objects are held in all, pending or of the pack written last. */
    int held() {
        return pending.size() + written.size();
    }

    private ObjectLoader get(AnyObjectId id) {
        ObjectLoader l = pending.get(id);
        return l != null ? l : written.get(id);
    }

    /** A reader that serves these objects and reads every other through {@code reader}. */
    public ObjectReader wrap(ObjectReader reader) {
        return new OverlayReader(this::get, reader);
    }
}
