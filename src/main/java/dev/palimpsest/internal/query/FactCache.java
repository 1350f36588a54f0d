package dev.palimpsest.internal.query;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Decoded fact files by blob id: a blob is immutable, so each is decoded once per store instance,
 * until the keys' {@link dev.palimpsest.internal.yaml.SealKeys#generation} changes (a forget was
 * seen): then everything decoded is dropped, since sealed content opened before may now be erased.
 * Malformed files decode to nothing (the audit reports them). Thread-safe.
 */
public final class FactCache {
    private static final Fact MALFORMED = new Fact(dev.palimpsest.model.FactId.of("malformed"),
            dev.palimpsest.model.Kind.CLAIM, "malformed", null, java.util.List.of());
    private final Map<ObjectId, Fact> facts = new ConcurrentHashMap<>();
    private final dev.palimpsest.internal.yaml.SealKeys keys;
    private volatile long generation;

    /** A cache that reads sealed content as unavailable. */
    public FactCache() {
        this(dev.palimpsest.internal.yaml.SealKeys.NONE);
    }

    /** A cache that opens sealed content with {@code keys}. */
    public FactCache(dev.palimpsest.internal.yaml.SealKeys keys) {
        this.keys = keys;
    }

    /** The fact in {@code blob}, or null when the file is malformed. */
    public Fact get(ObjectReader reader, ObjectId blob) {
        long g = keys.generation();
        if (g != generation) {
            synchronized (this) {
                if (g != generation) {
                    facts.clear();
                    generation = g;
                }
            }
        }
        Fact f = facts.get(blob);
        if (f == null) {
            try {
                f = FactCodec.decodeFact(reader.open(blob).getCachedBytes(dev.palimpsest.internal.git.Snapshot.MAX_READ), blob.name(),
                        keys);
            } catch (FormatException e) {
                f = MALFORMED;
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot read blob " + blob.name(), e);
            }
            synchronized (this) {
                if (keys.generation() == g && generation == g) {
                    facts.put(blob.copy(), f); // not when a forget was seen while decoding
                }
            }
        }
        return f == MALFORMED ? null : f;
    }
}
