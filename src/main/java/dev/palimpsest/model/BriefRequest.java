package dev.palimpsest.model;

import java.util.List;

/**
 * What a brief is about: entities and/or free text ({@code query}, null for none), at commit {@code
 * at} (null: the tip of main), fitted to {@code maxTokens} (0: no budget), with at most {@code
 * maxDeadEnds} dead ends. Immutable; {@code entities} null means none.
 */
public record BriefRequest(List<String> entities, String query, CommitId at, int maxTokens, int maxDeadEnds) {
    /** The default cap of the dead-ends section. */
    public static final int DEFAULT_MAX_DEAD_ENDS = 5;

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

    /** A brief about {@code entities} at the tip, without a budget, with the default dead-ends cap. */
    public static BriefRequest of(List<String> entities) {
        return new BriefRequest(entities, null, null, 0, DEFAULT_MAX_DEAD_ENDS);
    }

    /** The same request with another budget. */
    public BriefRequest withMaxTokens(int tokens) {
        return new BriefRequest(entities, query, at, tokens, maxDeadEnds);
    }

    /** The same request with another dead-ends cap. */
    public BriefRequest withMaxDeadEnds(int cap) {
        return new BriefRequest(entities, query, at, maxTokens, cap);
    }

    /** The same request at commit {@code c}. */
    public BriefRequest at(CommitId c) {
        return new BriefRequest(entities, query, c, maxTokens, maxDeadEnds);
    }
}
