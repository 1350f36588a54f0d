package dev.palimpsest.internal.git;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Keeps the objects it is given in memory, in insertion order, until {@link #writeTo} hands them to
 * a real inserter; {@link #reader} serves them ahead of the object database, so that a commit can be
 * checked by code that reads the repository before any of it is written. Not thread-safe.
 */
public final class StagedObjects extends ObjectInserter.Formatter {
    private record Staged(int type, byte[] data) {}

    private final Map<ObjectId, Staged> objects = new LinkedHashMap<>();

    @Override
    public ObjectId insert(int type, byte[] data, int off, int len) {
        ObjectId id = idFor(type, data, off, len);
        objects.putIfAbsent(id, new Staged(type, Arrays.copyOfRange(data, off, off + len)));
        return id;
    }

    @Override
    public ObjectId insert(int type, long length, InputStream in) throws IOException {
        byte[] data = in.readNBytes(Math.toIntExact(length));
        if (data.length != length) {
            throw new IOException("stream ended after " + data.length + " of " + length + " bytes");
        }
        return insert(type, data, 0, data.length);
    }

    /** How many objects are staged. */
    public int size() {
        return objects.size();
    }

    /** Inserts every staged object into {@code into}, in the order they were staged (not flushed). */
    public void writeTo(ObjectInserter into) throws IOException {
        for (Map.Entry<ObjectId, Staged> e : objects.entrySet()) {
            into.insert(e.getValue().type(), e.getValue().data());
        }
    }

    /** A reader that serves the staged objects, then {@code base}'s; closing it closes {@code base}. */
    public ObjectReader reader(ObjectReader base) {
        return new OverlayReader(id -> {
            Staged s = objects.get(id);
            return s == null ? null : new ObjectLoader.SmallObject(s.type(), s.data());
        }, base);
    }
}
