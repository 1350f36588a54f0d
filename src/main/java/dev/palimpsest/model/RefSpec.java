package dev.palimpsest.model;

import java.util.Objects;

/**
 * A writer's request for a reference: "target as I read it at {@code at}".
 *
 * <p>{@code at} may be null, meaning the commit the write lands on. {@code role} defaults to
 * {@code cites}; {@code quote} is optional. The store turns a spec into a pinned {@link Ref}.
 * Immutable.
 */
public record RefSpec(FactId target, CommitId at, String role, String quote) {
    public RefSpec {
        Objects.requireNonNull(target, "ref target");
        role = role == null ? "cites" : role;
        Ids.require("ref role", role, Ids.TOKEN, "[a-z][a-z0-9_-]{0,31}");
    }

    public static RefSpec cites(FactId target) {
        return new RefSpec(target, null, "cites", null);
    }

    public RefSpec withQuote(String q) {
        return new RefSpec(target, at, role, q);
    }

    public RefSpec at(CommitId commit) {
        return new RefSpec(target, commit, role, quote);
    }
}
