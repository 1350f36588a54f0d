package dev.palimpsest.api;

import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.NotFoundException;
import java.util.List;
import java.util.Objects;

/**
 * The questions of {@link Claims} asked at one commit of main ({@link Claims#at(CommitId)}) instead
 * of at its tip; each throws {@link NotFoundException} when that commit is not on main's first-parent
 * history. Immutable and thread-safe; arguments must not be null ({@link NullPointerException}
 * naming the argument).
 */
public final class ClaimsAt {
    private final Claims claims;
    private final CommitId at;
    private final java.util.Optional<java.time.Instant> validAt;

    ClaimsAt(Claims claims, CommitId at) {
        this(claims, at, java.util.Optional.empty());
    }

    private ClaimsAt(Claims claims, CommitId at, java.util.Optional<java.time.Instant> validAt) {
        this.claims = claims;
        this.at = at;
        this.validAt = validAt;
    }

    /**
     * The same questions in valid time: only the claims valid in the world at {@code instant}
     * (succession applied, as {@link Store#factValidAt(dev.palimpsest.model.FactId, java.time.Instant,
     * CommitId)} answers) count for {@link #current}, {@link #contradictions}; {@link #chain} keeps the
     * claims whose version at this commit states a validity holding at {@code instant}.
     */
    public ClaimsAt validAt(java.time.Instant instant) {
        return new ClaimsAt(claims, at, java.util.Optional.of(Objects.requireNonNull(instant, "instant")));
    }

    /** The valid-time instant these questions are restricted to, empty when none. */
    public java.util.Optional<java.time.Instant> validAt() {
        return validAt;
    }

    /** The commit these questions are asked at. */
    public CommitId commit() {
        return at;
    }

    /** The live claims about {@code subject} at this commit, every predicate, oldest first. */
    public List<ClaimView> current(String subject) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        return claims.index().atomically(() -> claims.current(subject, null, claims.seq(at), validAt));
    }

    /** The live claims about {@code subject}'s {@code predicate} at this commit, oldest first. */
    public List<ClaimView> current(String subject, String predicate) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        return claims.index().atomically(() -> claims.current(subject, predicate, claims.seq(at), validAt));
    }

    /** The correction chain of ({@code subject}, {@code predicate}) at this commit, oldest first. */
    public List<ClaimView> chain(String subject, String predicate) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        return claims.index().atomically(() -> claims.chain(subject, predicate, claims.seq(at), validAt));
    }

    /**
     * The superseded or retracted claims about {@code subject} at this commit, newest correction
     * first, at most {@code max} (not negative), with how many were left out.
     */
    public DeadEnds deadEnds(String subject, int max) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative, got " + max);
        }
        return claims.index().atomically(() -> claims.deadEnds(subject, max, claims.seq(at)));
    }

    /**
     * The superseded or retracted claims about {@code subject} at this commit, most relevant to
     * {@code query} first, equally relevant ones newest correction first ({@link Claims#deadEnds(String,
     * String, int)}), at most {@code max} (not negative), with how many were left out.
     */
    public DeadEnds deadEnds(String subject, String query, int max) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(query, "query");
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative, got " + max);
        }
        return claims.index().atomically(() -> claims.deadEnds(subject, query, max, claims.seq(at)));
    }

    /** Groups of live claims with one subject and predicate and different objects at this commit. */
    public List<Contradiction> contradictions() throws NotFoundException {
        return claims.index().atomically(() -> claims.contradictions(null, claims.seq(at), validAt));
    }

    /** The groups of {@link #contradictions()} whose subject is {@code subject}. */
    public List<Contradiction> contradictions(String subject) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        return claims.index().atomically(() -> claims.contradictions(subject, claims.seq(at), validAt));
    }

    /** The entity keys with a live claim at this commit that start with {@code prefix}, in key order, at most {@code limit}. */
    public List<String> entities(String prefix, int limit) throws NotFoundException {
        return claims.entities(prefix, limit, at);
    }

    @Override
    public String toString() {
        return "claims at " + at.hex();
    }
}
