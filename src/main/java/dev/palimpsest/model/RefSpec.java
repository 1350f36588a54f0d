package dev.palimpsest.model;

import java.util.Objects;

/**
 * A writer's request for a reference: "target as I read it at {@code at}". The store turns a spec
 * into a pinned {@link Ref} when the transaction commits.
 *
 * <p>{@code at} may be null, meaning the commit the write lands on; {@code role} null means
 * {@link RefRole#CITES}; {@code quote} is optional (null): a verbatim excerpt of the target's
 * body, checked by the gate. Immutable and thread-safe.
 */
public record RefSpec(FactId target, CommitId at, RefRole role, String quote) {
    public RefSpec {
        Objects.requireNonNull(target, "ref target");
        role = role == null ? RefRole.CITES : role;
    }

    /** A plain citation of {@code target}, pinned at the commit the write lands on. */
    public static RefSpec cites(FactId target) {
        return new RefSpec(target, null, RefRole.CITES, null);
    }

    /** A reference to {@code target} with {@code role}, pinned at the commit the write lands on. */
    public static RefSpec of(FactId target, RefRole role) {
        return new RefSpec(target, null, role, null);
    }

    /** The same spec with a verbatim quote of the target's body. */
    public RefSpec withQuote(String q) {
        return new RefSpec(target, at, role, q);
    }

    /** The same spec pinned to the target as it was at {@code commit}. */
    public RefSpec at(CommitId commit) {
        return new RefSpec(target, commit, role, quote);
    }
}
