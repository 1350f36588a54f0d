package dev.palimpsest.api;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.model.ActorName;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The directory that holds actors' secret keys, outside every repository.
 *
 * <p>Resolution order: an explicit path, then {@code $PALIMPSEST_HOME}, then {@code ~/.palimpsest}.
 * Immutable.
 */
public record KeyHome(Path dir) {
    public KeyHome {
        Objects.requireNonNull(dir, "key home");
        dir = dir.toAbsolutePath().normalize();
    }

    /**
     * Generates an Ed25519 key for {@code actor} in this key home (owner-only) and returns its
     * armored public key, to be trusted with {@link Transaction#addKey}.
     *
     * @param email the e-mail of the key's user id; null means {@code <actor>@palimpsest.local}
     * @throws RejectedException when the home already holds a key for the actor, or the e-mail is invalid
     */
    public String generateKey(ActorName actor, String email) throws RejectedException {
        SecretKeyFiles keys = new SecretKeyFiles(dir);
        keys.checkPermissions(actor);
        if (keys.exists(actor)) {
            throw new RejectedException(Rule.KEY_EXISTS, "actor " + actor, "already has a key at " + keys.path(actor));
        }
        if (email != null && !email.matches("[^<>\\s@]+@[^<>\\s@]+")) {
            throw new RejectedException(Rule.INVALID_EMAIL, "email", "'" + email + "' is not an e-mail address");
        }
        try {
            return OpenPgpKeys.armor(OpenPgpKeys.publicRing(
                    keys.create(actor, email == null ? actor.value() + "@palimpsest.local" : email)));
        } catch (IllegalStateException e) {
            throw new RejectedException(Rule.KEY_EXISTS, "actor " + actor, e.getMessage());
        }
    }

    /** The path of the actor's secret key file in this key home, whether or not it exists. */
    public Path secretKeyFile(ActorName actor) {
        return new SecretKeyFiles(dir).path(actor);
    }

    /** True when this key home holds a secret key file for the actor. */
    public boolean hasKey(ActorName actor) {
        return new SecretKeyFiles(dir).exists(actor);
    }

    /** The explicit path when given, else {@code $PALIMPSEST_HOME}, else {@code ~/.palimpsest}. */
    public static KeyHome resolve(Path explicit) {
        if (explicit != null) {
            return new KeyHome(explicit);
        }
        String env = System.getenv("PALIMPSEST_HOME");
        if (env != null && !env.isBlank()) {
            return new KeyHome(Path.of(env));
        }
        return new KeyHome(Path.of(System.getProperty("user.home"), ".palimpsest"));
    }
}
