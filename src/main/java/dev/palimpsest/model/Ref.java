package dev.palimpsest.model;

import java.util.Objects;

/**
 * A reference stored in a fact's file: the target id, the role, and the pinned target version.
 *
 * <p>{@code commit} and {@code blob} name the version of the target the writer relied on; both are
 * null exactly when the target was written in the same transaction as the referrer (the pin is then
 * the commit that introduced the referrer's version). {@code quote} is optional. {@code quoteSealed}
 * (base64, null for a plaintext quote) is the quote sealed with the data key of the target, which is
 * sealed: {@code quote} then holds the opened text, or null when that key is absent (forgotten).
 *
 * <p>Immutable and thread-safe; {@code id} and {@code role} must not be null.
 */
public record Ref(FactId id, RefRole role, CommitId commit, BlobId blob, String quote, String quoteSealed) {
    /** A ref whose quote (if any) is plaintext. */
    public Ref(FactId id, RefRole role, CommitId commit, BlobId blob, String quote) {
        this(id, role, commit, blob, quote, null);
    }

    public Ref {
        Objects.requireNonNull(id, "ref id");
        Objects.requireNonNull(role, "ref role");
        if ((commit == null) != (blob == null)) {
            throw new IllegalArgumentException("ref to " + id + ": commit and blob must be given together");
        }
        if (quote != null && quote.isBlank()) {
            throw new IllegalArgumentException("ref to " + id + ": quote must not be blank");
        }
    }

    /** True when the target was written in the same transaction as the referrer. */
    public boolean sameTransaction() {
        return commit == null;
    }
}
