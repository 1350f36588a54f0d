package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * A recall question: free text ({@code query}, null or blank for none) and/or entities the caller
 * knows are relevant, asked at commit {@code at} (null: the tip of main), returning at most {@code
 * limit} hits after following up to {@code hops} graph hops (0, 1 or 2). {@code kind}, {@code
 * subject}, {@code predicate}, {@code actor} and {@code run} are optional filters (null: any);
 * subject and predicate match by their {@link EntityKey}.
 *
 * <p>Immutable; {@code entities} null means none (copied, each non-blank).
 */
public record SearchQuery(String query, List<String> entities, CommitId at, int limit, int hops, Kind kind,
        String subject, String predicate, ActorName actor, String run) {
    /** The default number of hits. */
    public static final int DEFAULT_LIMIT = 10;
    /** The largest number of hits one question may ask for. */
    public static final int MAX_LIMIT = 1000;

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

    /** Text and entities at the tip of main, 10 hits, one hop, no filters. */
    public static SearchQuery of(String query, List<String> entities) {
        return new SearchQuery(query, entities, null, DEFAULT_LIMIT, 1, null, null, null, null, null);
    }

    /** The same question at commit {@code c}. */
    public SearchQuery at(CommitId c) {
        return new SearchQuery(query, entities, c, limit, hops, kind, subject, predicate, actor, run);
    }

    /** The same question with another limit and number of hops. */
    public SearchQuery with(int newLimit, int newHops) {
        return new SearchQuery(query, entities, at, newLimit, newHops, kind, subject, predicate, actor, run);
    }

    /** True when there is nothing to be relevant to: no query text and no entity. */
    public boolean isEmpty() {
        return (query == null || query.isBlank()) && entities.isEmpty();
    }

    /** The query text or the empty string. */
    public String text() {
        return Objects.requireNonNullElse(query, "");
    }
}
