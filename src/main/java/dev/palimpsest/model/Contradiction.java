package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * Live claims at one commit that share a (subject, predicate) — normalised keys, see
 * {@link EntityKey} — and disagree on the object, the predicate not being declared multi-valued.
 * {@code claims} are ordered by when they were written, then by id. Immutable.
 */
public record Contradiction(String subject, String predicate, List<ClaimView> claims) {
    public Contradiction {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        claims = List.copyOf(claims);
    }
}
