package dev.palimpsest.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A recall question: free text and/or entities the caller knows are relevant, asked at the tip of
 * main or at one commit, returning at most {@code limit} hits after following up to {@code hops}
 * graph hops (0, 1 or 2), optionally narrowed by kind, subject, predicate, actor and run (subject
 * and predicate match by their {@link EntityKey}) and to the facts valid in the world at one instant
 * ({@link Builder#validAt}). Made by {@link #builder(String)} or {@link
 * #builder()}:
 *
 * <pre>{@code
 * SearchQuery q = SearchQuery.builder("timeouts").entity("auth-service").kind(Kind.CLAIM).limit(5).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. The record's components keep their v1 meaning, where null is
 * "none" (no text, no filter, any valid time) and an {@code at} of null is the tip of main; read them
 * through {@link #text()}, {@link #commit()}, {@link #validTime()} and the accessors.
 */
public record SearchQuery(String query, List<String> entities, CommitId at, int limit, int hops, Kind kind,
        String subject, String predicate, ActorName actor, String run, java.time.Instant validAt) {
    /** The default number of hits. */
    public static final int DEFAULT_LIMIT = 10;
    /** The largest number of hits one question may ask for. */
    public static final int MAX_LIMIT = 1000;
    /** The default number of graph hops. */
    public static final int DEFAULT_HOPS = 1;

    /**
     * The canonical constructor: {@code query} null or blank for none, {@code entities} null for none,
     * {@code at} null for the tip of main, filters null for any, {@code validAt} null for any valid time.
     *
     * @deprecated eleven positional arguments, most of them null; use {@link #builder(String)} or
     *     {@link #builder()}. The record becomes a class built only by its builder when this is removed.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public SearchQuery {
        entities = List.copyOf(entities == null ? List.of() : entities);
        for (String e : entities) {
            if (e.isBlank()) {
                throw new IllegalArgumentException("an entity must not be blank");
            }
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "], got " + limit);
        }
        if (hops < 0 || hops > 2) {
            throw new IllegalArgumentException("hops must be 0, 1 or 2, got " + hops);
        }
    }

    /**
     * The v1 constructor, asking at any valid time: {@code query} null or blank for none, {@code
     * entities} null for none, {@code at} null for the tip of main, filters null for any.
     *
     * @deprecated ten positional arguments, most of them null; use {@link #builder(String)} or
     *     {@link #builder()}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public SearchQuery(String query, List<String> entities, CommitId at, int limit, int hops, Kind kind,
            String subject, String predicate, ActorName actor, String run) {
        this(query, entities, at, limit, hops, kind, subject, predicate, actor, run, null);
    }

    /** A builder of a question with free text {@code text} (blank: none), at the tip of main, with the defaults. */
    public static Builder builder(String text) {
        return new Builder().text(text);
    }

    /** A builder of a question without text (add entities), at the tip of main, with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this question, to change some of it. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.query = query;
        b.entities.addAll(entities);
        b.at = at;
        b.limit = limit;
        b.hops = hops;
        b.kind = kind;
        b.subject = subject;
        b.predicate = predicate;
        b.actor = actor;
        b.run = run;
        b.validAt = validAt;
        return b;
    }

    /**
     * Text and entities at the tip of main, 10 hits, one hop, no filters; {@code query} null and
     * {@code entities} null mean none.
     *
     * @deprecated takes null for "none"; use {@code SearchQuery.builder(query).entities(entities).build()}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static SearchQuery of(String query, List<String> entities) {
        return new SearchQuery(query, entities, null, DEFAULT_LIMIT, DEFAULT_HOPS, null, null, null, null, null, null);
    }

    /**
     * The same question at commit {@code c} (null: the tip of main).
     *
     * @deprecated takes null for "latest"; use {@code toBuilder().at(c).build()}, or a builder without
     *     {@code at} for the tip of main.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public SearchQuery at(CommitId c) {
        return new SearchQuery(query, entities, c, limit, hops, kind, subject, predicate, actor, run, validAt);
    }

    /** The same question with another limit and number of hops. */
    public SearchQuery with(int newLimit, int newHops) {
        return new SearchQuery(query, entities, at, newLimit, newHops, kind, subject, predicate, actor, run, validAt);
    }

    /** The commit the question is asked at; empty for the tip of main (resolved when it is asked). */
    public Optional<CommitId> commit() {
        return Optional.ofNullable(at);
    }

    /**
     * The instant in valid time the hits must be valid at (succession applied, as {@code
     * Store.factValidAt} answers); empty for any time.
     */
    public Optional<java.time.Instant> validTime() {
        return Optional.ofNullable(validAt);
    }

    /** True when there is nothing to be relevant to: no query text and no entity. */
    public boolean isEmpty() {
        return (query == null || query.isBlank()) && entities.isEmpty();
    }

    /** The query text or the empty string. */
    public String text() {
        return Objects.requireNonNullElse(query, "");
    }

    /**
     * Collects a {@link SearchQuery}; each setter replaces the value set before, {@link #entity}
     * adds. Not thread-safe; setters reject null ({@link NullPointerException} naming the argument)
     * and {@link #build()} rejects a blank entity, a limit outside [1, {@value #MAX_LIMIT}] and
     * hops outside 0..2 ({@link IllegalArgumentException}).
     */
    public static final class Builder {
        private String query;
        private final List<String> entities = new ArrayList<>();
        private CommitId at;
        private int limit = DEFAULT_LIMIT;
        private int hops = DEFAULT_HOPS;
        private Kind kind;
        private String subject;
        private String predicate;
        private ActorName actor;
        private String run;
        private java.time.Instant validAt;

        private Builder() {
        }

        /** The free text (blank: none). */
        public Builder text(String text) {
            query = Objects.requireNonNull(text, "text");
            return this;
        }

        /** Adds an entity the caller knows is relevant. */
        public Builder entity(String entity) {
            entities.add(Objects.requireNonNull(entity, "entity"));
            return this;
        }

        /** Adds entities the caller knows are relevant. */
        public Builder entities(Collection<String> entities) {
            for (String e : Objects.requireNonNull(entities, "entities")) {
                entity(e);
            }
            return this;
        }

        /** Asks at commit {@code commit} of main instead of its tip. */
        public Builder at(CommitId commit) {
            at = Objects.requireNonNull(commit, "commit");
            return this;
        }

        /** At most this many hits (default {@value SearchQuery#DEFAULT_LIMIT}). */
        public Builder limit(int value) {
            limit = value;
            return this;
        }

        /** Follows up to this many graph hops: 0, 1 (default) or 2. */
        public Builder hops(int value) {
            hops = value;
            return this;
        }

        /** Only facts of this kind. */
        public Builder kind(Kind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
            return this;
        }

        /** Only claims whose subject has this entity key. */
        public Builder subject(String subject) {
            this.subject = Objects.requireNonNull(subject, "subject");
            return this;
        }

        /** Only claims whose predicate has this entity key. */
        public Builder predicate(String predicate) {
            this.predicate = Objects.requireNonNull(predicate, "predicate");
            return this;
        }

        /** Only facts written by this actor. */
        public Builder actor(ActorName actor) {
            this.actor = Objects.requireNonNull(actor, "actor");
            return this;
        }

        /** Only facts of this run. */
        public Builder run(String run) {
            this.run = Objects.requireNonNull(run, "run");
            return this;
        }

        /**
         * Only facts valid in the world at {@code instant}: live at the commit asked at, with a
         * validity there, succession applied, that holds at the instant (an open bound always holds).
         */
        public Builder validAt(java.time.Instant instant) {
            validAt = Objects.requireNonNull(instant, "instant");
            return this;
        }

        /** The question. */
        public SearchQuery build() {
            return new SearchQuery(query, entities, at, limit, hops, kind, subject, predicate, actor, run, validAt);
        }
    }
}
