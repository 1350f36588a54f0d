package dev.palimpsest.model;

import java.util.Objects;

/**
 * How a folder of markdown notes is imported: the {@link NoteSplit} and the prefix of the ids
 * made from paths (for notes whose front matter gives no {@code id}). Start from {@link #defaults()}:
 * one fact per file, prefix {@code note-}.
 *
 * <p>Immutable and thread-safe; the prefix is empty or starts an id ({@code [a-z0-9][a-z0-9._-]*}).
 */
public record ImportOptions(NoteSplit split, String idPrefix) {
    public ImportOptions {
        Objects.requireNonNull(split, "split");
        Objects.requireNonNull(idPrefix, "idPrefix");
        if (!idPrefix.isEmpty() && !idPrefix.matches("[a-z0-9][a-z0-9._-]{0,39}")) {
            throw new IllegalArgumentException("id prefix '" + idPrefix + "' must match [a-z0-9][a-z0-9._-]{0,39}");
        }
    }

    /** One source fact per file; ids from paths start with {@code note-}. */
    public static ImportOptions defaults() {
        return new ImportOptions(NoteSplit.FILE, "note-");
    }

    public ImportOptions split(NoteSplit value) {
        return new ImportOptions(value, idPrefix);
    }

    public ImportOptions idPrefix(String value) {
        return new ImportOptions(split, value);
    }
}
