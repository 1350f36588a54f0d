package dev.palimpsest.model;

import java.util.List;

/**
 * The dead ends about an entity at a commit: superseded or retracted claims, newest correction
 * first (by the correcting commit, then by id), at most the cap asked for ({@code kept}), and how
 * many the cap left out ({@code omitted}). Immutable.
 */
public record DeadEnds(List<ClaimView> kept, int omitted) {
    public DeadEnds {
        kept = List.copyOf(kept);
        if (omitted < 0) {
            throw new IllegalArgumentException("omitted must not be negative");
        }
    }
}
