package dev.palimpsest.api;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.internal.crypto.BcCommitSigner;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.Dependents;
import dev.palimpsest.internal.query.Lineage;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Keys;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.Weight;
import dev.palimpsest.model.LogEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A Palimpsest store: a bare git repository whose {@code main} is a timeline of signed commits, one
 * YAML file per fact. Writes go through {@link Transaction}s; reads name the commit they read at.
 *
 * <p>Thread-safe: any number of threads may read and write through one instance; writers of one
 * repository are serialised, within the process and across processes. Arguments must not be null
 * unless documented. Close the store to release the repository.
 */
public final class Store implements AutoCloseable {
    private final GitRepo repo;
    private final KeyHome home;
    private final PredicateIndex index;
    private final Writer writer;
    private final Map<ActorName, CommitSigner> signers = new ConcurrentHashMap<>();
    private final Receipts receipts;

    private Store(GitRepo repo, KeyHome home, StoreOptions options) {
        this.repo = repo;
        this.home = home;
        this.index = PredicateIndex.open(repo);
        this.writer = new Writer(repo, index, options);
        this.receipts = new Receipts(this, repo, index);
        if (repo.head() != null && index.hasUnpersisted()) {
            writer.persistIndex();
        }
    }

    /**
     * Creates a store at {@code dir} (absent, an empty folder, or an empty bare repository as
     * {@code git init --bare} makes it): a bare repository whose genesis
     * commit holds the config and the first actor's public key, signed by that actor. The actor's
     * secret key is taken from {@code home}, or generated there (owner-only, not passphrase-protected)
     * when absent: {@link KeyHome#hasKey} before the call tells which.
     *
     * @param email the e-mail of a newly generated key's user id; null means {@code <actor>@palimpsest.local}
     * @throws RejectedException when {@code dir} is not empty, or the key home is open to group or
     *     others; nothing is written
     */
    public static Store init(Path dir, KeyHome home, ActorName actor, String email, StoreOptions options)
            throws RejectedException, ConflictException {
        boolean emptyRepository = GitRepo.isEmptyRepository(dir);
        if (Files.exists(dir) && !emptyRepository && (!Files.isDirectory(dir) || !isEmptyDir(dir))) {
            throw new RejectedException(Rule.STORE_EXISTS, "store " + dir,
                    "exists and is not an empty folder or an empty bare repository");
        }
        if (email != null && !email.matches("[^<>\\s@]+@[^<>\\s@]+")) {
            throw new RejectedException(Rule.INVALID_EMAIL, "email", "'" + email + "' is not an e-mail address");
        }
        SecretKeyFiles keys = new SecretKeyFiles(home.dir());
        keys.checkPermissions(actor);
        PGPSecretKeyRing ring = keys.load(actor);
        if (ring == null) {
            ring = keys.create(actor, email == null ? actor.value() + "@palimpsest.local" : email);
        }
        String publicKey = OpenPgpKeys.armor(OpenPgpKeys.publicRing(ring));
        GitRepo repo;
        try {
            repo = emptyRepository ? GitRepo.adoptEmpty(dir, options.fsync()) : GitRepo.create(dir, options.fsync());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot create repository at " + dir, e);
        }
        Store store = new Store(repo, home, options);
        try {
            store.writer.write(actor, new BcCommitSigner(ring), List.of(new Operation.Init(actor, publicKey)));
            return store;
        } catch (RejectedException | ConflictException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Opens the store at {@code dir}.
     *
     * @throws NotFoundException when {@code dir} is not an initialised store
     */
    public static Store open(Path dir, KeyHome home, StoreOptions options) throws NotFoundException {
        GitRepo repo;
        try {
            repo = GitRepo.open(dir, options.fsync());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot open repository at " + dir, e);
        }
        if (repo == null) {
            throw new NotFoundException("no store at " + dir + " (not a bare git repository; run init first)");
        }
        ObjectId head = repo.head();
        if (head == null) {
            repo.close();
            throw new NotFoundException("no store at " + dir + " (" + GitRepo.MAIN + " has no commit)");
        }
        try (Snapshot s = Snapshot.of(repo, head)) {
            if (s.blobAt(StorePaths.CONFIG) == null) {
                repo.close();
                throw new NotFoundException("no store at " + dir + " (" + StorePaths.CONFIG + " is missing on main)");
            }
        }
        return new Store(repo, home, options);
    }

    /**
     * Starts a transaction signed by {@code actor}, whose secret key must be in the key home.
     *
     * @throws RejectedException when the key home has no key for the actor
     */
    public Transaction begin(ActorName actor) throws RejectedException {
        CommitSigner signer = signers.get(actor);
        if (signer == null) {
            SecretKeyFiles keys = new SecretKeyFiles(home.dir());
            keys.checkPermissions(actor);
            PGPSecretKeyRing ring = keys.load(actor);
            if (ring == null) {
                throw new RejectedException(Rule.NO_SECRET_KEY, "actor " + actor,
                        "has no secret key in " + keys.path(actor));
            }
            signer = new BcCommitSigner(ring);
            signers.put(actor, signer);
        }
        return new Transaction(writer, actor, signer);
    }

    /** Receipts of derived artifacts: ingest, liveness per layer, withdrawals with their cascade. */
    public Receipts receipts() {
        return receipts;
    }

    /** The tip of {@code main}. */
    public CommitId head() {
        return CommitId.of(repo.head().name());
    }

    /**
     * Resolves a revision ({@code main}, a full or abbreviated commit id, {@code main~2}) to a commit.
     *
     * @throws NotFoundException when it names no commit of this store
     */
    public CommitId resolve(String revision) throws NotFoundException {
        return Revisions.resolve(repo, revision);
    }

    /** Reads a fact as of {@code at}: found, retracted (with its last valid version) or missing. */
    public FactRead read(FactId id, CommitId at) throws NotFoundException {
        try (Snapshot s = snapshot(at)) {
            Versions v = new Versions(index, s);
            Versions.Located loc = v.locate(id);
            if (loc != null) {
                FactVersion version = v.existsAt(id).orElseThrow();
                return new FactRead.Found(version, decode(s, loc.blob(), loc.path()));
            }
            RetractionRecord r = v.retraction(id);
            if (r != null) {
                ObjectId blob = ObjectId.fromString(r.version().blob().hex());
                return new FactRead.Retracted(id, v.retractedAt(id), r.reason(), r.version(),
                        decode(s, blob, r.version().id().value()));
            }
            return new FactRead.Missing(id, at);
        }
    }

    /**
     * factLiveAtCommit: true when the fact is present, un-retracted, at {@code at}. Answered from the
     * predicate index in O(log versions).
     */
    public boolean factLiveAtCommit(FactId id, CommitId at) throws NotFoundException {
        FactState st = index.state(id, commit(at));
        return st != null && st.live();
    }

    /**
     * factExistsAt: the last navigable version at or before {@code at} (ancestry, not time),
     * stepping over retractions; empty if never written in its ancestry. Answered from the index.
     */
    public Optional<FactVersion> factExistsAt(FactId id, CommitId at) throws NotFoundException {
        FactState st = index.existing(id, commit(at));
        if (st == null) {
            return Optional.empty();
        }
        return Optional.of(new FactVersion(id, CommitId.of(st.versionCommit().name()), BlobId.of(st.blob().name())));
    }

    /**
     * The fact versions live at {@code at} that cite {@code target}, each with the referrer's version
     * commit and the pinned target version; with {@code all}, also referrer versions in the ancestry
     * of {@code at} that are no longer live. Live ones first.
     */
    public List<InboundRef> inbound(FactId target, CommitId at, boolean all) throws NotFoundException {
        return Dependents.inbound(repo, index, target, commit(at), all);
    }

    /**
     * How each ref of the fact's version at {@code at} (live, or its last navigable version) stands
     * at {@code at}: current, revised, superseded or retracted.
     *
     * @throws NotFoundException when the fact was never written in the ancestry of {@code at}
     */
    public List<RefStatus> stale(FactId id, CommitId at) throws NotFoundException {
        ObjectId c = commit(at);
        FactState st = index.state(id, c);
        if (st == null) {
            throw new NotFoundException(id + " does not exist at " + at.hex());
        }
        return Dependents.stale(index, st, c);
    }

    /** The evidence weight of a fact at {@code at} (see the README for the formula). */
    public Weight weight(FactId id, CommitId at) throws NotFoundException {
        commit(at);
        return Lineage.weight(repo, index, id, at);
    }

    /** Every change to the fact's file reachable from {@code main}, newest first. */
    public List<HistoryEntry> history(FactId id) {
        List<HistoryEntry> out = new ArrayList<>();
        List<String> paths = StorePaths.candidatePaths(id);
        History.changes(repo, repo.head(), paths, c -> {
            ObjectId blob = blobAt(c, paths);
            String change;
            if (blob == null) {
                change = "retracted";
            } else {
                change = c.getParentCount() == 0 || blobAt(c.getParent(0), paths) == null ? "added" : "revised";
            }
            out.add(new HistoryEntry(id, CommitId.of(c.name()), change, blob == null ? null : BlobId.of(blob.name()),
                    c.getAuthorIdent().getName(), c.getAuthorIdent().getWhenAsInstant()));
        });
        return out;
    }

    /** The timeline from {@code main}, newest first; {@code limit} 0 means all. */
    public List<LogEntry> log(int limit) {
        return History.log(repo, repo.head(), limit);
    }

    /** The armored public key of {@code actor} as committed at {@code at}, or empty. */
    public Optional<String> publicKey(ActorName actor, CommitId at) throws NotFoundException {
        try (Snapshot s = snapshot(at)) {
            byte[] b = s.readPath(StorePaths.keyPath(actor));
            return b == null ? Optional.empty() : Optional.of(new String(b, StandardCharsets.US_ASCII));
        }
    }

    /** The keys trusted at {@code at} (the {@code keys/} folder of its tree), sorted by actor name. */
    public List<ActorKey> keys(CommitId at) throws NotFoundException {
        try (Snapshot s = snapshot(at)) {
            return Keys.list(s);
        }
    }

    /** The git directory of this store. */
    public Path gitDir() {
        return repo.gitDir();
    }

    @Override
    public void close() {
        repo.close();
    }

    private ObjectId blobAt(org.eclipse.jgit.revwalk.RevCommit c, List<String> paths) {
        try (Snapshot s = Snapshot.of(repo, c)) {
            for (String p : paths) {
                ObjectId b = s.blobAt(p);
                if (b != null) {
                    return b;
                }
            }
            return null;
        }
    }

    private ObjectId commit(CommitId at) throws NotFoundException {
        ObjectId c = ObjectId.fromString(at.hex());
        try {
            index.catchUp(c);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException(e.getMessage());
        }
        return c;
    }

    private Snapshot snapshot(CommitId at) throws NotFoundException {
        try {
            return Snapshot.of(repo, ObjectId.fromString(at.hex()));
        } catch (IllegalArgumentException e) {
            throw new NotFoundException(e.getMessage());
        }
    }

    private static Fact decode(Snapshot s, ObjectId blob, String what) {
        try {
            return FactCodec.decodeFact(s.read(blob), what);
        } catch (FormatException e) {
            throw new PalimpsestInternalException("corrupt fact file: " + e.getMessage());
        }
    }

    private static boolean isEmptyDir(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
