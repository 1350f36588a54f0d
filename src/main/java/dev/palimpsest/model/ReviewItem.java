package dev.palimpsest.model;

import java.util.List;

/**
 * One item of the review queue at a commit: a live fact or artifact ({@code id}, of {@code layer},
 * at its version {@code version}) that was touched but is still alive ({@code reason}
 * {@code touched}: {@code details} names the dead bundle members), whose receipt died or lost
 * sentences while its file stays ({@code pending}: {@code details} says why — no live bundle, a
 * touched flat receipt under the distrust policy, or the dead sentences — then the dead bundle
 * members), or whose refs are stale ({@code stale-refs}: {@code details} names each ref and its
 * status). Immutable.
 */
public record ReviewItem(FactId id, String layer, String reason, CommitId version, List<String> details) {
    public ReviewItem {
        details = List.copyOf(details);
    }
}
