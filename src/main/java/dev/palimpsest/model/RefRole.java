package dev.palimpsest.model;

/**
 * The role of a reference: how a fact uses the fact it cites. Roles are an open set (any token
 * matching {@code [a-z][a-z0-9_-]{0,31}}); the constants are the roles the store itself gives a
 * meaning to.
 *
 * <p>Immutable and thread-safe; rejects null and malformed values with an
 * {@link IllegalArgumentException}.
 */
public record RefRole(String value) {
    /** A plain citation, the default role. */
    public static final RefRole CITES = new RefRole("cites");
    /** The referrer supersedes its target by addition (the target stays live). */
    public static final RefRole SUPERSEDES = new RefRole("supersedes");
    /** The referrer is a merge of its target, retracted in the merge's commit. */
    public static final RefRole MERGED_FROM = new RefRole("merged_from");
    /** The referrer subsumes the target hypothesis, retracted in the same commit. */
    public static final RefRole SUBSUMES = new RefRole("subsumes");
    /** An assertion's document. */
    public static final RefRole SOURCE = new RefRole("source");
    /**
     * Succession in valid time: the target claim (same subject and predicate, its validity starting
     * earlier) stops being valid where the referrer's validity starts; the target's file is not
     * rewritten, and the two are no contradiction.
     */
    public static final RefRole INVALIDATES = new RefRole("invalidates");
    /**
     * Succession in valid time, learnt late: the referrer stops being valid where the target's
     * validity (same subject and predicate, starting later) starts.
     */
    public static final RefRole INVALIDATED_BY = new RefRole("invalidated_by");
    /** A review acknowledgement's item. */
    public static final RefRole ACKNOWLEDGES = new RefRole("acknowledges");

    public RefRole {
        Ids.require("ref role", value, Ids.TOKEN, "[a-z][a-z0-9_-]{0,31}");
    }

    /** The role named {@code value}; same as the constructor. */
    public static RefRole of(String value) {
        return new RefRole(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
