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
 * appends and {@link #clear}s them once the pack holding them is registered with the repository.
 * Their hashes may still be being checked when they are read; a mismatch fails the fetch, and an
 * audit of a failed fetch is never used. Thread-safe.
 */
public final class Unflushed {
    private final Map<AnyObjectId, ObjectLoader> objects = new ConcurrentHashMap<>();

    void put(AnyObjectId id, int type, byte[] data) {
        objects.put(id, new ObjectLoader.SmallObject(type, data));
    }

    /** Forgets the objects: a registered pack holds them now. */
    void clear() {
        objects.clear();
    }

    int size() {
        return objects.size();
    }

    /** A reader that serves these objects and reads every other through {@code reader}. */
    public ObjectReader wrap(ObjectReader reader) {
        return new OverlayReader(objects::get, reader);
    }
}
