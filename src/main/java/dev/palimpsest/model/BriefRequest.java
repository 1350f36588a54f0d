package dev.palimpsest.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a brief is about: entities and/or free text, at the tip of main or at one commit, fitted to
 * {@code maxTokens} (0: no budget), with at most {@code maxDeadEnds} dead ends, optionally only what
 * was valid in the world at one instant ({@link Builder#validAt}). Made by {@link #builder()}:
 *
 * <pre>{@code
 * BriefRequest r = BriefRequest.builder().entity("auth-service").query("timeouts").maxTokens(800).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. The record's components keep their v1 meaning, where a {@code
 * query} of null is "no text", an {@code at} of null is the tip of main and a {@code validAt} of null
 * is any valid time; read them through {@link #commit()}, {@link #validTime()} and the accessors.
 */
public record BriefRequest(List<String> entities, String query, CommitId at, int maxTokens, int maxDeadEnds,
        java.time.Instant validAt) {
    /** The default cap of the dead-ends section. */
    public static final int DEFAULT_MAX_DEAD_ENDS = 5;

    /**
     * The canonical constructor: {@code entities} null for none, {@code query} null for none, {@code
     * at} null for the tip of main, {@code validAt} null for any valid time.
     *
     * @deprecated positional arguments with null for "none" and "latest"; use {@link #builder()}. The
     *     record becomes a class built only by its builder when this is removed.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public BriefRequest {
        entities = List.copyOf(entities == null ? List.of() : entities);
        for (String e : entities) {
            if (e.isBlank()) {
                throw new IllegalArgumentException("an entity must not be blank");
            }
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, got " + maxTokens);
        }
        if (maxDeadEnds < 0) {
            throw new IllegalArgumentException("maxDeadEnds must not be negative, got " + maxDeadEnds);
        }
    }

    /**
     * The v1 constructor, at any valid time: {@code entities} null for none, {@code query} null for
     * none, {@code at} null for the tip of main.
     *
     * @deprecated positional arguments with null for "none" and "latest"; use {@link #builder()}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public BriefRequest(List<String> entities, String query, CommitId at, int maxTokens, int maxDeadEnds) {
        this(entities, query, at, maxTokens, maxDeadEnds, null);
    }

    /** A builder of a brief about nothing yet, at the tip of main, without a budget, with the default dead-ends cap. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this request, to change some of it. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.entities.addAll(entities);
        b.query = query;
        b.at = at;
        b.maxTokens = maxTokens;
        b.maxDeadEnds = maxDeadEnds;
        b.validAt = validAt;
        return b;
    }

    /**
     * A brief about {@code entities} (null: none) at the tip, without a budget, with the default dead-ends cap.
     *
     * @deprecated takes null for "none"; use {@code BriefRequest.builder().entities(entities).build()}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static BriefRequest of(List<String> entities) {
        return new BriefRequest(entities, null, null, 0, DEFAULT_MAX_DEAD_ENDS, null);
    }

    /** The same request with another budget. */
    public BriefRequest withMaxTokens(int tokens) {
        return new BriefRequest(entities, query, at, tokens, maxDeadEnds, validAt);
    }

    /** The same request with another dead-ends cap. */
    public BriefRequest withMaxDeadEnds(int cap) {
        return new BriefRequest(entities, query, at, maxTokens, cap, validAt);
    }

    /**
     * The same request at commit {@code c} (null: the tip of main).
     *
     * @deprecated takes null for "latest"; use {@code toBuilder().at(c).build()}, or a builder without
     *     {@code at} for the tip of main.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public BriefRequest at(CommitId c) {
        return new BriefRequest(entities, query, c, maxTokens, maxDeadEnds, validAt);
    }

    /** The commit the brief is made at; empty for the tip of main (resolved when it is asked). */
    public Optional<CommitId> commit() {
        return Optional.ofNullable(at);
    }

    /**
     * The instant in valid time the brief's facts and contradictions must be valid at (succession
     * applied); empty for any time.
     */
    public Optional<java.time.Instant> validTime() {
        return Optional.ofNullable(validAt);
    }

    /** True when there is nothing to be relevant to: no query text and no entity. */
    public boolean isEmpty() {
        return (query == null || query.isBlank()) && entities.isEmpty();
    }

    /**
     * Collects a {@link BriefRequest}; each setter replaces the value set before, {@link #entity}
     * adds. Not thread-safe; setters reject null ({@link NullPointerException} naming the argument)
     * and {@link #build()} rejects a blank entity and a negative budget or cap ({@link
     * IllegalArgumentException}).
     */
    public static final class Builder {
        private final List<String> entities = new ArrayList<>();
        private String query;
        private CommitId at;
        private int maxTokens;
        private int maxDeadEnds = DEFAULT_MAX_DEAD_ENDS;
        private java.time.Instant validAt;

        private Builder() {
        }

        /** Adds an entity the brief is about. */
        public Builder entity(String entity) {
            entities.add(Objects.requireNonNull(entity, "entity"));
            return this;
        }

        /** Adds entities the brief is about. */
        public Builder entities(Collection<String> entities) {
            for (String e : Objects.requireNonNull(entities, "entities")) {
                entity(e);
            }
            return this;
        }

        /** The free text the brief is about (blank: none). */
        public Builder query(String query) {
            this.query = Objects.requireNonNull(query, "query");
            return this;
        }

        /** Makes the brief at commit {@code commit} of main instead of its tip. */
        public Builder at(CommitId commit) {
            at = Objects.requireNonNull(commit, "commit");
            return this;
        }

        /** Fits the brief to this many cl100k_base tokens (0, the default: no budget). */
        public Builder maxTokens(int value) {
            maxTokens = value;
            return this;
        }

        /** At most this many dead ends (default {@value BriefRequest#DEFAULT_MAX_DEAD_ENDS}). */
        public Builder maxDeadEnds(int value) {
            maxDeadEnds = value;
            return this;
        }

        /**
         * Only what was valid in the world at {@code instant}: known facts and contradictions whose
         * validity at the brief's commit, succession applied, holds then (an open bound always holds).
         */
        public Builder validAt(java.time.Instant instant) {
            validAt = Objects.requireNonNull(instant, "instant");
            return this;
        }

        /** The request. */
        public BriefRequest build() {
            return new BriefRequest(entities, query, at, maxTokens, maxDeadEnds, validAt);
        }
    }
}
