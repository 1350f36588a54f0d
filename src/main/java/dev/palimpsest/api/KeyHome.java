package dev.palimpsest.api;

import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.crypto.SecretMaterial;
import dev.palimpsest.internal.crypto.Signers;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Names the directory that holds actors' secret keys, outside every repository, and generates keys
 * in it.
 *
 * <p>Resolution order of {@link #resolve}: an explicit path, then {@code $PALIMPSEST_HOME}, then
 * {@code ~/.palimpsest}. Immutable and thread-safe; {@code dir} must not be null and is made
 * absolute.
 */
public record KeyHome(Path dir) {
    public KeyHome {
        Objects.requireNonNull(dir, "key home");
        dir = dir.toAbsolutePath().normalize();
    }

    /** The key home at {@code dir}. */
    public static KeyHome of(Path dir) {
        return new KeyHome(dir);
    }

    /**
     * Generates an Ed25519 key for {@code actor} in this key home (owner-only) and returns its
     * armored public key, to be trusted with {@link Transaction#addKey}; the key's user id has the
     * e-mail {@code <actor>@palimpsest.local}.
     *
     * @throws RejectedException when the home already holds a key for the actor
     */
    public String generateKey(ActorName actor) throws RejectedException {
        return new Signers(dir).generate(Objects.requireNonNull(actor, "actor"), null);
    }

    /**
     * As {@link #generateKey(ActorName)}, with {@code email} in the key's user id.
     *
     * @throws RejectedException when the home already holds a key for the actor, or the e-mail is invalid
     */
    public String generateKey(ActorName actor, String email) throws RejectedException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(email, "email");
        if (!email.matches("[^<>\\s@]+@[^<>\\s@]+")) {
            throw new RejectedException(Rule.INVALID_EMAIL, "email", "'" + email + "' is not an e-mail address");
        }
        return new Signers(dir).generate(actor, email);
    }

    /**
     * Why {@code file} must not be read into a store: its real path (links resolved) lies in this
     * key home, which holds secret keys; null when it does not, or when either does not exist.
     *
     * @deprecated answers null for a readable file; use {@link #readRefusal(Path)}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public String holds(Path file) {
        return SecretMaterial.inKeyHome(Objects.requireNonNull(file, "file"), dir);
    }

    /**
     * Why {@code file} must not be read into a store: its real path (links resolved) lies in this
     * key home, which holds secret keys; empty when it does not, or when either does not exist.
     */
    public java.util.Optional<String> readRefusal(Path file) {
        return java.util.Optional.ofNullable(SecretMaterial.inKeyHome(Objects.requireNonNull(file, "file"), dir));
    }

    /** The path of the actor's secret key file in this key home, whether or not it exists. */
    public Path secretKeyFile(ActorName actor) {
        return new SecretKeyFiles(dir).path(Objects.requireNonNull(actor, "actor"));
    }

    /** True when this key home holds a secret key file for the actor. */
    public boolean hasKey(ActorName actor) {
        return new SecretKeyFiles(dir).exists(Objects.requireNonNull(actor, "actor"));
    }

    /**
     * The explicit path when not null, else {@code $PALIMPSEST_HOME}, else {@code ~/.palimpsest}.
     *
     * @deprecated a null path meant the default home; use {@link #of(Path)} for an explicit path and
     *     {@link #fromEnvironment()} for the default.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static KeyHome resolve(Path explicit) {
        return explicit != null ? new KeyHome(explicit) : fromEnvironment();
    }

    /** The default key home: {@code $PALIMPSEST_HOME} when set and not blank, else {@code ~/.palimpsest}. */
    public static KeyHome fromEnvironment() {
        String env = System.getenv("PALIMPSEST_HOME");
        if (env != null && !env.isBlank()) {
            return new KeyHome(Path.of(env));
        }
        return new KeyHome(Path.of(System.getProperty("user.home"), ".palimpsest"));
    }
}
