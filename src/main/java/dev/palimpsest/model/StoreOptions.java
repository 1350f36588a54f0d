package dev.palimpsest.model;

/**
 * Options for opening a store.
 *
 * @param fsync whether objects and refs are forced to disk before a commit is acknowledged
 *     (default true; switch off only for benchmarks or throwaway stores)
 * @param maxRetries how many times a write re-reads the timeline and retries after losing a
 *     compare-and-swap on {@code refs/heads/main} to another writer (default 32)
 *
 * <p>Immutable and thread-safe.
 */
public record StoreOptions(boolean fsync, int maxRetries) {
    public StoreOptions {
        if (maxRetries < 0 || maxRetries > 1000) {
            throw new IllegalArgumentException("maxRetries must be in [0, 1000], was " + maxRetries);
        }
    }

    public static StoreOptions defaults() {
        return new StoreOptions(true, 32);
    }

    public StoreOptions withFsync(boolean on) {
        return new StoreOptions(on, maxRetries);
    }
}
