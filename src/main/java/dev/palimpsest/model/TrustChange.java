package dev.palimpsest.model;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of updating a store's trust policy from an audit: the {@code policy} now in force and
 * the {@code commit} that wrote it (empty when the policy already held). Immutable and thread-safe;
 * nothing may be null.
 */
public record TrustChange(TrustPolicy policy, Optional<CommitId> commit) {
    public TrustChange {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(commit, "commit");
    }
}
