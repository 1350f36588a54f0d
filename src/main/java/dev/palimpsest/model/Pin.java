package dev.palimpsest.model;

import java.util.Objects;

/**
 * One member of a receipt bundle: a fact or artifact id and the version of it the writer relied on.
 *
 * <p>{@code commit} and {@code blob} are null together exactly when the member was written in the
 * same transaction as the artifact (the pin is then the artifact's own commit), as for a {@link Ref}.
 * A writer names a member unpinned ({@link #of}: the gate pins the member's version at the commit the
 * write lands on) or as read at a commit ({@link #asOf}: its last navigable version at or before that
 * commit, as {@code --ref X@C} pins a ref); only the gate writes pins. Immutable; ordered by id.
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

    /**
     * A member requested as read at commit {@code at}: the gate pins it to the member's last
     * navigable version at or before {@code at} (which must be the commit the write lands on or one
     * of its ancestors), as it pins a ref {@code X@C}. A request, never stored: its blob is
     * {@link #AS_OF} (git's all-zero id, which no version has) until the gate resolves it.
     */
    public static Pin asOf(FactId id, CommitId at) {
        return new Pin(id, Objects.requireNonNull(at, "at"), AS_OF);
    }

    /** The blob of a member {@linkplain #asOf requested as read at a commit}, before the gate pins it. */
    public static final BlobId AS_OF = BlobId.of("0".repeat(40));

    /** True for a member {@linkplain #asOf requested as read at} {@link #commit()}, not yet pinned. */
    public boolean requested() {
        return AS_OF.equals(blob);
    }

    @Override
    public int compareTo(Pin o) {
        return id.compareTo(o.id);
    }
}
