package dev.palimpsest.model;

import java.util.Objects;

/**
 * One version of a fact: the commit that wrote it and the blob of its file.
 *
 * <p>Immutable and thread-safe; no component may be null.
 */
public record FactVersion(FactId id, CommitId commit, BlobId blob) {
    public FactVersion {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(blob, "blob");
    }
}
