package dev.palimpsest.api;

import dev.palimpsest.internal.crypto.Signers;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Creates a store: a bare repository whose genesis commit holds the config and the first actor's
 * public key, signed by that actor. Obtained from {@link Store#initializer(Path)}; set the key home
 * and the actor (both required), optionally the e-mail of a newly generated key and the options,
 * then {@link #create()}:
 *
 * <pre>{@code
 * try (Store store = Store.initializer(dir).home(home).actor(ActorName.of("alice")).create()) { ... }
 * }</pre>
 *
 * <p>The actor's secret key is taken from the key home, or generated there (owner-only,
 * not passphrase-protected) when absent. Not thread-safe; setters reject null with a
 * {@link NullPointerException} and return this initializer.
 */
public final class StoreInitializer {
    private final Path dir;
    private KeyHome home;
    private ActorName actor;
    private String email;
    private StoreOptions options = StoreOptions.defaults();
    private Path generatedKey;
    private String encrypt;
    private java.util.Map<String, String> retention;
    private java.util.Set<dev.palimpsest.model.AgentPermission> agentsMay = java.util.Set.of();

    StoreInitializer(Path dir) {
        this.dir = dir;
    }

    /** The key home holding (or to hold) the actor's secret key. Required. */
    public StoreInitializer home(KeyHome value) {
        this.home = Objects.requireNonNull(value, "home");
        return this;
    }

    /** The first actor, trusted as {@code human} and signer of the genesis commit. Required. */
    public StoreInitializer actor(ActorName value) {
        this.actor = Objects.requireNonNull(value, "actor");
        return this;
    }

    /** The e-mail of the key's user id when one is generated; default {@code <actor>@palimpsest.local}. */
    public StoreInitializer email(String value) {
        this.email = Objects.requireNonNull(value, "email");
        return this;
    }

    /**
     * Which facts are sealed (encrypted, so they can be forgotten): {@code all}, {@code sensitive}
     * (the default: those written sensitive or with a deadline) or {@code none}.
     */
    public StoreInitializer encrypt(String value) {
        this.encrypt = Objects.requireNonNull(value, "encrypt");
        return this;
    }

    /**
     * What agent keys may do beyond the default ({@code agents_may} in {@code palimpsest.yaml}; a human
     * key may change it later, {@link Governance#setAgentsMay}): by default an agent key may neither
     * retract nor supersede a fact a human key wrote, nor retract a dated snapshot. Empty grants nothing.
     */
    public StoreInitializer agentsMay(java.util.Set<dev.palimpsest.model.AgentPermission> value) {
        this.agentsMay = java.util.Set.copyOf(Objects.requireNonNull(value, "agentsMay"));
        return this;
    }

    /** Default retention per kind (ISO-8601 durations such as {@code P90D}); facts of those kinds are sealed. */
    public StoreInitializer retention(java.util.Map<String, String> value) {
        this.retention = java.util.Map.copyOf(Objects.requireNonNull(value, "retention"));
        return this;
    }

    /** Options of the store returned; default {@link StoreOptions#defaults()}. */
    public StoreInitializer options(StoreOptions value) {
        this.options = Objects.requireNonNull(value, "options");
        return this;
    }

    /**
     * Creates the store and returns it open.
     *
     * @throws IllegalStateException when the key home or the actor was not set
     * @throws RejectedException when the folder exists and is not empty, or the e-mail is invalid;
     *     nothing is written
     * @throws ConflictException when another process initialised the same folder meanwhile
     */
    public Store create() throws RejectedException, ConflictException {
        if (home == null || actor == null) {
            throw new IllegalStateException("a store needs a key home and an actor: call home(...) and actor(...)");
        }
        boolean emptyRepository = GitRepo.isEmptyRepository(dir);
        if (Files.exists(dir) && !emptyRepository && (!Files.isDirectory(dir) || !isEmptyDir(dir))) {
            throw new RejectedException(Rule.STORE_EXISTS, "store " + dir,
                    "exists and is not an empty folder or an empty bare repository");
        }
        try {
            dev.palimpsest.internal.yaml.StoreConfig.current().withSealing(encrypt, retention);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(Rule.INVALID_CONFIG, "config", e.getMessage());
        }
        if (email != null && !email.matches("[^<>\\s@]+@[^<>\\s@]+")) {
            throw new RejectedException(Rule.INVALID_EMAIL, "email", "'" + email + "' is not an e-mail address");
        }
        Signers signers = new Signers(home.dir());
        Signers.Keyed key = signers.loadOrCreate(actor, email);
        generatedKey = key.generated() ? key.file() : null;
        GitRepo repo;
        try {
            repo = emptyRepository ? GitRepo.adoptEmpty(dir, options.fsync()) : GitRepo.create(dir, options.fsync());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot create repository at " + dir, e);
        }
        Store store = new Store(repo, signers, options);
        try {
            store.writer().write(actor, key.signer(), List.of(new Operation.Init(actor, key.armoredPublicKey(), encrypt,
                    retention, agentsMay)));
            return store;
        } catch (RejectedException | ConflictException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * After {@link #create()}: the file of the secret key it generated (owner-only, not
     * passphrase-protected), or empty when the key home already held the actor's key.
     */
    public Optional<Path> generatedKey() {
        return Optional.ofNullable(generatedKey);
    }

    private static boolean isEmptyDir(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
