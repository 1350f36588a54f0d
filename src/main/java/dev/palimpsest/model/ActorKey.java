package dev.palimpsest.model;

import java.util.Objects;

/**
 * A key trusted by a store at some commit: the actor it belongs to, the actor's role and the
 * key's OpenPGP fingerprint (40 upper-case hex digits).
 *
 * <p>Immutable and thread-safe; rejects null and malformed values with an
 * {@link IllegalArgumentException}.
 */
public record ActorKey(ActorName name, KeyRole role, String fingerprint) {
    public ActorKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        if (fingerprint == null || !fingerprint.matches("[0-9A-F]{40}")) {
            throw new IllegalArgumentException("fingerprint '" + fingerprint
                    + "' is invalid: it must be 40 upper-case hex digits");
        }
    }
}
