package dev.palimpsest.internal.git;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Inflated tree objects by id, least recently used first out, bounded in bytes. The trees on the
 * paths a commit touches are the ones the next commit reads again (root, role folder, shards), so
 * the writer puts the large trees it writes here and readers of a {@link GitRepo} look here before
 * inflating from a pack. Immutable content, so no invalidation. Thread-safe.
 */
public final class TreeCache {
    /**
     * Trees the writer writes are cached from this size up: large folders (the root, role folders,
     * first-level shards) are the ones the next commit reads again and the costly ones to inflate;
     * a bulk commit's thousands of small leaf folders would only evict them.
     */
    public static final int WORTH_CACHING = 1024;
    private final long maxBytes;
    private long bytes;
    private final LinkedHashMap<ObjectId, byte[]> map = new LinkedHashMap<>(1024, 0.75f, true);

    public TreeCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    public synchronized byte[] get(AnyObjectId id) {
        return map.get(id);
    }

    public synchronized void put(AnyObjectId id, byte[] tree) {
        if (tree.length > maxBytes / 16) {
            return;
        }
        byte[] old = map.put(id.copy(), tree);
        bytes += tree.length - (old == null ? 0 : old.length);
        var it = map.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<ObjectId, byte[]> e = it.next();
            bytes -= e.getValue().length;
            it.remove();
        }
    }

    /** A reader that serves trees from this cache and caches trees it inflates. */
    public ObjectReader wrap(ObjectReader reader) {
        return new ObjectReader.Filter() {
            @Override
            protected ObjectReader delegate() {
                return reader;
            }

            @Override
            public ObjectLoader open(AnyObjectId id, int typeHint) throws MissingObjectException, IOException {
                if (typeHint == Constants.OBJ_TREE) {
                    byte[] cached = get(id);
                    if (cached != null) {
                        return new ObjectLoader.SmallObject(Constants.OBJ_TREE, cached);
                    }
                    ObjectLoader l = reader.open(id, typeHint);
                    if (!l.isLarge()) {
                        put(id, l.getCachedBytes());
                    }
                    return l;
                }
                return reader.open(id, typeHint);
            }

            @Override
            public ObjectReader newReader() {
                return wrap(reader.newReader());
            }
        };
    }
}
