package dev.palimpsest.internal.crypto;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bouncycastle.openpgp.PGPSecretKeyRing;

/**
 * Commit signers loaded from a key home's secret keys, cached per actor; and the keys a store's
 * first actor or a new actor gets. Thread-safe.
 */
public final class Signers {
    private final SecretKeyFiles keys;
    private final Map<ActorName, CommitSigner> loaded = new ConcurrentHashMap<>();

    /** The signers of the key home {@code home}. */
    public Signers(Path home) {
        this.keys = new SecretKeyFiles(home);
    }

    /** The key home the secret keys are read from. */
    public Path home() {
        return keys.home();
    }

    /** A signer with a new or existing key, and its armored public key. */
    public record Keyed(CommitSigner signer, String armoredPublicKey, boolean generated, Path file) {}

    /**
     * The signer of {@code actor}.
     *
     * @throws RejectedException when the key home has no key for the actor (rule {@code no-secret-key}), or
     *     the key or its folders are open to group or others (rule {@code key-permissions}), checked at every call
     */
    public CommitSigner signer(ActorName actor) throws RejectedException {
        keys.checkPermissions(actor);
        CommitSigner s = loaded.get(actor);
        if (s != null) {
            return s;
        }
        PGPSecretKeyRing ring = keys.load(actor);
        if (ring == null) {
            throw new RejectedException(Rule.NO_SECRET_KEY, "actor " + actor, "has no secret key in " + keys.path(actor));
        }
        s = new BcCommitSigner(ring);
        CommitSigner raced = loaded.putIfAbsent(actor, s);
        return raced == null ? s : raced;
    }

    /**
     * The signer of {@code actor}'s key in the home, generated (owner-only) when absent.
     *
     * @throws RejectedException when the key home or the key is open to group or others (rule {@code key-permissions})
     */
    public Keyed loadOrCreate(ActorName actor, String email) throws RejectedException {
        keys.checkPermissions(actor);
        PGPSecretKeyRing ring = keys.load(actor);
        boolean generated = ring == null;
        if (generated) {
            ring = keys.create(actor, email == null ? actor.value() + "@palimpsest.local" : email);
        }
        CommitSigner signer = new BcCommitSigner(ring);
        loaded.putIfAbsent(actor, signer);
        return new Keyed(signer, OpenPgpKeys.armor(OpenPgpKeys.publicRing(ring)), generated, keys.path(actor));
    }

    /**
     * Generates a key for {@code actor} and returns its armored public key.
     *
     * @throws RejectedException when the home already holds a key for the actor (rule {@code key-exists})
     */
    public String generate(ActorName actor, String email) throws RejectedException {
        keys.checkPermissions(actor);
        if (keys.exists(actor)) {
            throw new RejectedException(Rule.KEY_EXISTS, "actor " + actor, "already has a key at " + keys.path(actor));
        }
        try {
            return OpenPgpKeys.armor(OpenPgpKeys.publicRing(
                    keys.create(actor, email == null ? actor.value() + "@palimpsest.local" : email)));
        } catch (IllegalStateException e) {
            throw new RejectedException(Rule.KEY_EXISTS, "actor " + actor, e.getMessage());
        }
    }
}
