package dev.palimpsest.model;

import java.util.Objects;

/**
 * The answer of {@code factExistsAt}: the fact's last navigable version at or before a commit,
 * and whether that version is live there ({@code false} when the fact is retracted at the commit).
 *
 * <p>Immutable and thread-safe; {@code version} must be non-null.
 */
public record ExistsAt(FactVersion version, boolean live) {
    public ExistsAt {
        Objects.requireNonNull(version, "version");
    }

    /** The commit that wrote the version. */
    public CommitId commit() {
        return version.commit();
    }

    /** The blob of the version's file. */
    public BlobId blob() {
        return version.blob();
    }
}
