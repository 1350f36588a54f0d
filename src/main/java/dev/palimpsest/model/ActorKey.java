package dev.palimpsest.model;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A key trusted by a store at some commit: the actor it belongs to, the actor's role and the
 * key's OpenPGP fingerprint (40 upper-case hex digits).
 *
 * <p>{@code role} is {@link #AGENT} or {@link #HUMAN}; roles are recorded for later policies and
 * grant nothing today. Immutable; rejects null and malformed values with an
 * {@link IllegalArgumentException}.
 */
public record ActorKey(ActorName name, String role, String fingerprint) {
    public static final String AGENT = "agent";
    public static final String HUMAN = "human";
    public static final Set<String> ROLES = Set.of(AGENT, HUMAN);

    public ActorKey {
        Objects.requireNonNull(name, "name");
        if (role == null || !ROLES.contains(role)) {
            throw new IllegalArgumentException("role '" + role + "' is invalid: it must be agent or human");
        }
        if (fingerprint == null || !fingerprint.matches("[0-9A-F]{40}")) {
            throw new IllegalArgumentException("fingerprint '" + fingerprint
                    + "' is invalid: it must be 40 upper-case hex digits");
        }
    }

    /** Validates a role given by a user, case-insensitively; returns it in canonical form. */
    public static String role(String value) {
        String r = value == null ? null : value.toLowerCase(Locale.ROOT);
        if (r == null || !ROLES.contains(r)) {
            throw new IllegalArgumentException("role '" + value + "' is invalid: it must be agent or human");
        }
        return r;
    }
}
