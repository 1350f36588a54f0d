package dev.palimpsest.model;

/**
 * Options for opening a store.
 *
 * @param fsync whether objects and refs are forced to disk before a commit is acknowledged
 *     (default true; switch off only for benchmarks or throwaway stores)
 * @param maxRetries how many times a write re-reads the timeline and retries after losing a
 *     compare-and-swap on {@code refs/heads/main} to another writer (default 32)
 * @param run the agent run every commit made through the store belongs to: each commit carries a
 *     {@code Palimpsest-Run} trailer naming it, beside the runs of the facts it writes (default
 *     null: none); a valid run name ({@link Fact#validRun})
 * @param clock where a write reads the time its commit is dated with (default the system clock in
 *     UTC; never earlier than the parent's committer time, whole seconds): tests and replays date
 *     their commits with it
 * @param embedder the model of search's semantic channel (default {@link Embedder#LOCAL}, the bundled
 *     model; {@link Embedder#NONE}: no semantic channel); never null
 *
 * <p>Immutable and thread-safe.
 */
public record StoreOptions(boolean fsync, int maxRetries, String run, java.time.Clock clock, Embedder embedder) {
    /** Options dated by the system clock, with the bundled embedder. */
    public StoreOptions(boolean fsync, int maxRetries, String run) {
        this(fsync, maxRetries, run, java.time.Clock.systemUTC(), Embedder.LOCAL);
    }

    public StoreOptions {
        java.util.Objects.requireNonNull(clock, "clock");
        java.util.Objects.requireNonNull(embedder, "embedder (Embedder.NONE for none)");
        if (!Embedder.validName(embedder.name()) || embedder.dimensions() < 0) {
            throw new IllegalArgumentException("embedder name '" + embedder.name()
                    + "' does not match [a-z0-9][a-z0-9._-]{0,99}, or its dimensions are negative");
        }
        if (maxRetries < 0 || maxRetries > 1000) {
            throw new IllegalArgumentException("maxRetries must be in [0, 1000], was " + maxRetries);
        }
        if (run != null && !Fact.validRun(run)) {
            throw new IllegalArgumentException("run '" + run + "' does not match [A-Za-z0-9][A-Za-z0-9._:-]{0,79}");
        }
    }

    /** Options without a run. */
    public StoreOptions(boolean fsync, int maxRetries) {
        this(fsync, maxRetries, null);
    }

    public static StoreOptions defaults() {
        return new StoreOptions(true, 32);
    }

    public StoreOptions withFsync(boolean on) {
        return new StoreOptions(on, maxRetries, run, clock, embedder);
    }

    /**
     * The same options with every commit marked as made in agent run {@code value} (null: none).
     *
     * @deprecated a null run meant none; use {@link #inRun(String)}, or {@link #withoutRun()} for none.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public StoreOptions withRun(String value) {
        return new StoreOptions(fsync, maxRetries, value, clock, embedder);
    }

    /** The same options with every commit marked as made in agent run {@code run} (a valid run name). */
    public StoreOptions inRun(String run) {
        return new StoreOptions(fsync, maxRetries, java.util.Objects.requireNonNull(run, "run"), clock, embedder);
    }

    /** The same options without a run: commits carry no {@code Palimpsest-Run} trailer of the store's own. */
    public StoreOptions withoutRun() {
        return new StoreOptions(fsync, maxRetries, null, clock, embedder);
    }

    /** The same options with commits dated by {@code value} (see {@link #clock()}). */
    public StoreOptions withClock(java.time.Clock value) {
        return new StoreOptions(fsync, maxRetries, run, java.util.Objects.requireNonNull(value, "clock"), embedder);
    }

    /** The same options with {@code model} as the semantic channel's embedder ({@link Embedder#NONE}: none). */
    public StoreOptions withEmbedder(Embedder model) {
        return new StoreOptions(fsync, maxRetries, run, clock, java.util.Objects.requireNonNull(model, "model"));
    }

    /** The same options without a semantic channel ({@link Embedder#NONE}). */
    public StoreOptions withoutEmbedder() {
        return new StoreOptions(fsync, maxRetries, run, clock, Embedder.NONE);
    }
}
