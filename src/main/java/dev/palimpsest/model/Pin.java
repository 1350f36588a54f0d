package dev.palimpsest.model;

import java.util.Objects;

/**
 * One member of a receipt bundle: a fact or artifact id and the version of it the writer relied on.
 *
 * <p>{@code commit} and {@code blob} are null together exactly when the member was written in the
 * same transaction as the artifact (the pin is then the artifact's own commit), as for a {@link Ref}.
 * Immutable; ordered by id.
 *
 * <p>Immutable and thread-safe; {@code id} must not be null.
 */
public record Pin(FactId id, CommitId commit, BlobId blob) implements Comparable<Pin> {
    public Pin {
        Objects.requireNonNull(id, "pin id");
        if ((commit == null) != (blob == null)) {
            throw new IllegalArgumentException("pin of " + id + ": commit and blob must be given together");
        }
    }

    /** A member not yet pinned: the gate pins it when the transaction commits. */
    public static Pin of(FactId id) {
        return new Pin(id, null, null);
    }

    @Override
    public int compareTo(Pin o) {
        return id.compareTo(o.id);
    }
}
