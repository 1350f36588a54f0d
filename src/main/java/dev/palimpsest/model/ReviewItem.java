package dev.palimpsest.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One item of the review queue at a commit: a live fact or artifact ({@code id}, of {@code layer},
 * at its version {@code version}) that was touched but is still alive ({@link Reason#TOUCHED}:
 * {@code details} names the dead bundle members), whose receipt died or lost sentences while its
 * file stays ({@link Reason#PENDING}: {@code details} says why — no live bundle, a touched flat
 * receipt under the distrust policy, or the dead sentences — then the dead bundle members), or
 * whose refs are stale ({@link Reason#STALE_REFS}: {@code details} names each ref and its status),
 * or whose concurrent revision on another replica lost a merge ({@link Reason#CONCURRENT_REVISION}:
 * {@code details} names the losing version's commit).
 * {@code layer} is the receipt layer ({@code assertion}, {@code merge}, {@code edge},
 * {@code summary}), or for a plain fact with stale refs its kind.
 *
 * <p>Immutable and thread-safe; components must be non-null, {@code details} is copied.
 */
public record ReviewItem(FactId id, String layer, Reason reason, CommitId version, List<String> details) {
    /** Why an item is in the queue. */
    public enum Reason {
        /** Alive, but a bundle lost a member. */
        TOUCHED,
        /** The file stays although the receipt died or some sentences did. */
        PENDING,
        /** Some ref's target was retracted, superseded or revised. */
        STALE_REFS,
        /** A concurrent revision of the fact on another replica lost a merge to this version. */
        CONCURRENT_REVISION;

        /** The reason as printed: {@code touched}, {@code pending} or {@code stale-refs}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @Override
        public String toString() {
            return value();
        }
    }

    public ReviewItem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(version, "version");
        details = List.copyOf(details);
    }
}
