package dev.palimpsest.model;

import java.util.Objects;

/**
 * How a folder of markdown notes is imported: the {@link NoteSplit}, the prefix of the ids made
 * from paths (for notes whose front matter gives no {@code id}), and whether sections are
 * {@code numbered}: given the id {@code ID.N} by their position (0 the text before the first
 * heading, then 1, 2, ...) instead of {@code ID.slug} by their heading, so that a brief shows the
 * sections around a hit as context. Start from {@link #defaults()}: one fact per file, prefix {@code
 * note-}, sections named by their headings.
 *
 * <p>Immutable and thread-safe; the prefix is empty or starts an id ({@code [a-z0-9][a-z0-9._-]*}).
 */
public record ImportOptions(NoteSplit split, String idPrefix, boolean numbered) {
    /** Options with sections named by their headings. */
    public ImportOptions(NoteSplit split, String idPrefix) {
        this(split, idPrefix, false);
    }

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
        return new ImportOptions(value, idPrefix, numbered);
    }

    public ImportOptions idPrefix(String value) {
        return new ImportOptions(split, value, numbered);
    }

    /** The same options with sections numbered by their position ({@code true}) or named by their headings. */
    public ImportOptions numbered(boolean value) {
        return new ImportOptions(split, idPrefix, value);
    }
}
