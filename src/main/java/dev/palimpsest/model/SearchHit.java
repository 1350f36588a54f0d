package dev.palimpsest.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One fact returned by recall, in its version live at the commit asked about, with why it was
 * returned: the {@link Channel} that found it, its {@code score} (entity 1.0; text channels at
 * most 0.9; a hop multiplies its parent's score by 0.45), the number of {@code hops} from a direct
 * hit and the fact it was reached {@code via} (null at hop 0).
 *
 * <p>Provenance: the {@code actor} and {@code time} of the commit that wrote this version ({@code
 * commit}), its {@code run}, and its first source ({@code source}, pinned at {@code sourceCommit}).
 * Subject, predicate and object are null for a fact without a triple; {@code run}, {@code source}
 * and {@code sourceCommit} may be null. Immutable.
 */
public record SearchHit(FactId id, double score, Channel channel, int hops, FactId via, Kind kind, String subject,
        String predicate, String object, String body, CommitId commit, ActorName actor, Instant time, String run,
        FactId source, CommitId sourceCommit) {
    /** How a hit was found. */
    public enum Channel {
        /** The caller named its subject. */
        ENTITY,
        /** BM25 over its text. */
        LEXICAL,
        /** Character trigrams of its subject or object are close to a query word. */
        SPELLING,
        /** A ref or a shared entity links it to a hit. */
        GRAPH,
        /** Its text is close in meaning to the query's (the store's {@link Embedder}); fused with the words. */
        SEMANTIC;

        /** The lower-case name used in JSON. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public SearchHit {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(time, "time");
        if (!(score > 0.0 && score <= 1.0)) {
            throw new IllegalArgumentException("score must be in (0, 1], got " + score);
        }
        if (hops < 0 || hops > 2 || (hops == 0) != (via == null)) {
            throw new IllegalArgumentException("a hit at hop 0 has no via, a hop has one (hops " + hops + ")");
        }
        if ((hops > 0) != (channel == Channel.GRAPH)) {
            throw new IllegalArgumentException("exactly the hits reached by a hop are of channel graph");
        }
    }

    /** True when the fact states a triple. */
    public boolean hasTriple() {
        return predicate != null;
    }
}
