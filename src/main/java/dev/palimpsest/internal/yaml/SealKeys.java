package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.FactId;

/**
 * Where a reader finds the data key of a sealed fact: 32 bytes, or null when the store holds no key
 * for it (never sealed here, or destroyed by {@code forget}). Implementations are thread-safe.
 */
@FunctionalInterface
public interface SealKeys {
    /** No keys: every sealed fact reads as unavailable. */
    SealKeys NONE = id -> null;

    /** The data key of {@code id}, or null. */
    byte[] key(FactId id);

    /**
     * A number that changes whenever keys may have been destroyed (a forget seen by this process):
     * content decoded under an older generation may hold plaintext that must no longer be answered.
     */
    default long generation() {
        return 0;
    }
}
