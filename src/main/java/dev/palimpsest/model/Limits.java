package dev.palimpsest.model;

/**
 * The size limits of a store, enforced on every write before anything is read whole into memory
 * and checked again by the audit (rule {@code too-large}); documented in the README ("Limits").
 */
public final class Limits {
    /** The largest file of a store's tree (a fact, a retraction record, a key, the config), in bytes: 1 MiB. */
    public static final int MAX_FILE = 1 << 20;
    /** The largest fact body, in UTF-8 bytes: 1 MiB (its file must still fit {@link #MAX_FILE}). */
    public static final int MAX_BODY = MAX_FILE;
    /** The longest quote of a ref, in characters: 4,096 (a quote must occur in the cited body). */
    public static final int MAX_QUOTE = 4096;
    /** The longest predicate of a triple (a claim's, an assertion's, an edge's), in characters: 200. */
    public static final int MAX_PREDICATE = 200;
    /** The largest ingest file, in bytes: 16 MiB. */
    public static final long MAX_INGEST_FILE = 16L << 20;
    /** The most operations one transaction (one commit) may hold. */
    public static final int MAX_OPERATIONS = 100_000;
    /** The most bytes of files one transaction (one commit) may write: 256 MiB. */
    public static final long MAX_TRANSACTION_BYTES = 256L << 20;

    /**
     * The largest content blob of a produced file (under {@code files/}), in bytes: 4 GiB. Content
     * is streamed, never held in memory, so it has its own limit beside {@link #MAX_FILE}.
     */
    public static final long MAX_CONTENT = 4L << 30;

    private Limits() {}

    /** The size as a readable amount: bytes, KiB or MiB. */
    public static String describe(long bytes) {
        if (bytes >= 1 << 20) {
            return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
        }
        if (bytes >= 1 << 10) {
            return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / (double) (1 << 10));
        }
        return bytes + " bytes";
    }
}
