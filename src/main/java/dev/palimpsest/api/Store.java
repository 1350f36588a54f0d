package dev.palimpsest.api;

import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.Signers;
import dev.palimpsest.internal.forget.Forgetting;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Commits;
import dev.palimpsest.internal.query.Queries;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TimelineEntry;
import dev.palimpsest.model.Validity;
import dev.palimpsest.model.Weight;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Opens a Palimpsest store — a bare git repository whose {@code main} is a timeline of signed
 * commits, one YAML file per fact — and answers questions about it at any commit. Writes go
 * through {@link Transaction}s ({@link #begin}); a new store is made by {@link #initializer}.
 *
 * <p><b>What does not exist.</b> One rule for every method that takes a commit: a {@link CommitId}
 * the repository does not hold is a {@link NotFoundException}. One rule for every read of a fact
 * ({@link #read}, {@link #factLiveAtCommit}, {@link #factExistsAt}, {@link #inbound}, {@link #stale},
 * {@link #weight}, {@link #history}): a fact never written in the ancestry of the asked commit (for
 * {@code history}: of {@code main}) is a {@link NotFoundException}, never an empty answer; a fact
 * written and later retracted is an answer (not live, its last version, ...). Writes report
 * unknown ids as violations of a {@link RejectedException} (see {@link Transaction}).
 *
 * <p><b>Latest or at a commit.</b> Every read has a form without a commit, which answers at the tip
 * of {@code main} when it is called, and a form whose last argument is the {@link CommitId} to
 * answer at. No argument means "latest" by being null: see {@code docs/java-api.md}.
 *
 * <p><b>Throwing or optional.</b> {@link #read} throws {@link NotFoundException} for a fact never
 * written; {@link #find(FactId)} answers {@link Optional#empty()} instead and throws nothing checked,
 * so {@code ids.stream().map(store::find)} compiles.
 *
 * <p>Thread-safe: any number of threads may read and write through one instance; writers of one
 * repository are serialised, within the process and across processes. Arguments must not be null
 * ({@link NullPointerException} naming the argument). Close the store to release the repository.
 */
public final class Store implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Store.class);
    private final GitRepo repo;
    private final PredicateIndex index;
    private final Writer writer;
    private final Signers signers;
    private final Queries queries;
    private final dev.palimpsest.internal.query.AsOf asOf;
    private final dev.palimpsest.internal.audit.Timeline timeline;
    private final Receipts receipts;
    private final Claims claims;
    private final Derivations derivations;
    private final ProducedFiles files;
    private final Recall recall;
    private final Replication replication;
    private final Erasure erasure;
    private final Bulk bulk;
    private final Governance governance;

    Store(GitRepo repo, Signers signers, StoreOptions options) {
        this.repo = repo;
        this.signers = signers;
        this.index = PredicateIndex.open(repo);
        this.writer = new Writer(repo, index, options);
        this.queries = new Queries(repo, index, (id, head) -> writer.forgetting().tombstoneCommit(id, head));
        this.asOf = new dev.palimpsest.internal.query.AsOf(repo);
        this.timeline = new dev.palimpsest.internal.audit.Timeline(repo);
        this.receipts = new Receipts(this, repo, index);
        this.claims = new Claims(this, repo, writer);
        this.derivations = new Derivations(this, repo, index, writer);
        this.files = new ProducedFiles(this, repo, index, writer, options.fsync(), signers.home());
        this.recall = new Recall(this, repo, writer, Embedders.resolve(options.embedder()));
        this.erasure = new Erasure(this, repo, writer);
        this.governance = new Governance(this, repo);
        this.replication = new Replication(repo, writer, signers, receipts, erasure);
        this.bulk = new Bulk(this, repo);
        writer.watch().check(); // tombstones that reached this replica while no process ran: their keys go first
        if (repo.head() != null && index.hasUnpersisted()) {
            writer.persistIndex();
        }
        this.watching = MainWatcher.watch(this, Store::catchUpWithForgets);
    }

    private final MainWatcher.Watching watching;

    /**
     * What every read does first, and a background thread twice a second: learns the facts main
     * has forgotten since this process last looked (whichever process or replica forgot them),
     * destroying keys still held and dropping every cache of decoded content, so no answer and no
     * saved index holds what a forget erased.
     */
    void catchUpWithForgets() {
        writer.watch().check();
        claims.dropIfStale();
        recall.dropIfStale();
    }

    /**
     * Starts describing a new store at {@code dir}; {@link StoreInitializer#create()} makes it.
     *
     * <pre>{@code
     * Store store = Store.initializer(dir).home(home).actor(ActorName.of("alice")).create();
     * }</pre>
     */
    public static StoreInitializer initializer(Path dir) {
        return new StoreInitializer(Objects.requireNonNull(dir, "dir"));
    }

    /** Opens the store at {@code dir} with {@link StoreOptions#defaults()}. */
    public static Store open(Path dir, KeyHome home) throws NotFoundException {
        return open(dir, home, StoreOptions.defaults());
    }

    /**
     * Opens the store at {@code dir}; transactions are signed with the secret keys of {@code home}.
     *
     * @throws NotFoundException when {@code dir} is not an initialised store
     */
    public static Store open(Path dir, KeyHome home, StoreOptions options) throws NotFoundException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(options, "options");
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
        List<FactId> settled = Forgetting.settleInterrupted(repo);
        if (!settled.isEmpty()) {
            LOG.warn("finished an interrupted forget: destroyed the data keys of {} forgotten fact(s) and scrubbed the caches",
                    settled.size());
        }
        return new Store(repo, new Signers(home.dir()), options);
    }

    /**
     * Starts a transaction signed by {@code actor}, whose secret key must be in the key home.
     *
     * @throws RejectedException when the key home has no key for the actor
     */
    public Transaction begin(ActorName actor) throws RejectedException {
        CommitSigner signer = signers.signer(Objects.requireNonNull(actor, "actor"));
        return new Transaction(writer, actor, signer);
    }

    /** The receipts of this store's derived artifacts: ingest, liveness per layer, withdrawals. */
    public Receipts receipts() {
        return receipts;
    }

    /** Claims about entities: write with detection, current, chain, dead ends, contradictions. */
    public Claims claims() {
        return claims;
    }

    /** What derives from what: dependents and provenance trees. */
    public Derivations derivations() {
        return derivations;
    }

    /** Checks that ask a model: the fail-closed claim reviewer and verifier scoring. */
    public Verification verification() {
        return new Verification(this);
    }

    /** The re-derivation audit of cleanup plans against an oracle. */
    public Rederivations rederivations() {
        return new Rederivations(receipts);
    }

    /** Remotes, push, and audited pull of this store. */
    public Replication replication() {
        return replication;
    }

    /** Erasure of sealed content: forget, expire, and the unlearning check. */
    public Erasure erasure() {
        return erasure;
    }

    /** What agent keys may do beyond the default ({@code agents_may}): read at a commit, changed by a human key. */
    public Governance governance() {
        return governance;
    }

    /** Produced files: content-addressed bytes with a provenance record per name. */
    public ProducedFiles files() {
        return files;
    }

    /** Bulk loading and unloading: markdown notes imported as facts, live facts exported as JSON lines. */
    public Bulk bulk() {
        return bulk;
    }

    /** Recall: ranked search and token-budgeted briefs, at any commit. */
    public Recall recall() {
        return recall;
    }

    /** The tip of {@code main}. */
    public CommitId head() {
        writer.watch().check();
        return CommitId.of(repo.head().name());
    }

    /**
     * Resolves a revision ({@code main}, a full or abbreviated commit id, {@code main~2}) to a commit.
     *
     * @throws NotFoundException when it names no commit of this store
     */
    public CommitId resolve(String revision) throws NotFoundException {
        return Commits.resolve(repo, Objects.requireNonNull(revision, "revision"));
    }

    /**
     * Wall-clock "as of" (transaction time by the clock): the last commit of {@code main}'s
     * first-parent chain whose committer time is at or before {@code instant}, so that every read
     * taking a commit can be asked "as the store stood at that time"; empty when the store's first
     * commit is dated after {@code instant} (or it has none). Commits are dated in whole seconds and
     * never before their parent.
     */
    public Optional<CommitId> commitAsOf(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        ObjectId c = asOf.commitAt(instant);
        return c == null ? Optional.empty() : Optional.of(CommitId.of(c.name()));
    }

    /**
     * Reads a fact as of {@code at}: found, or retracted with its last valid version.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public FactRead read(FactId id, CommitId at) throws NotFoundException {
        writer.watch().check();
        return queries.read(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * Reads a fact at the tip of {@code main}: found, or retracted with its last valid version.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public FactRead read(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return read(id, head());
    }

    /**
     * The fact at the tip of {@code main} (found, or retracted with its last valid version); empty
     * when it was never written on {@code main}.
     */
    public Optional<FactRead> find(FactId id) {
        Objects.requireNonNull(id, "id");
        CommitId tip = head();
        try {
            return Optional.of(queries.read(id, tip));
        } catch (NotFoundException e) {
            return Optional.empty(); // the tip is a commit of this store: only the fact can be missing
        }
    }

    /**
     * The fact as of {@code at} (found, or retracted with its last valid version); empty when it was
     * never written in the ancestry of {@code at}.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public Optional<FactRead> find(FactId id, CommitId at) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        commit(Objects.requireNonNull(at, "at"));
        try {
            return Optional.of(queries.read(id, at));
        } catch (NotFoundException e) {
            return Optional.empty(); // the commit was checked above: only the fact can be missing
        }
    }

    /**
     * Whether the fact is present, un-retracted, at the tip of {@code main}.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public boolean factLiveAtCommit(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return factLiveAtCommit(id, head());
    }

    /** The ids of the facts live at the tip of {@code main} that start with {@code prefix}; see {@link #factIds(String, int, CommitId)}. */
    public List<FactId> factIds(String prefix, int limit) {
        Objects.requireNonNull(prefix, "prefix");
        return atTip(at -> factIds(prefix, limit, at));
    }

    /**
     * The ids of the facts live at {@code at} that start with {@code prefix} (empty: any), in id
     * order, at most {@code limit}: what an id being typed can complete to. Answered from the index.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public List<FactId> factIds(String prefix, int limit, CommitId at) throws NotFoundException {
        Objects.requireNonNull(prefix, "prefix");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        writer.watch().check();
        return queries.liveIds(prefix, Objects.requireNonNull(at, "at"), limit);
    }

    /**
     * factLiveAtCommit: whether the fact is present, un-retracted, at {@code at}; false for a fact
     * retracted there. Answered from the predicate index in O(log versions).
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public boolean factLiveAtCommit(FactId id, CommitId at) throws NotFoundException {
        return queries.live(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * Whether the fact is live at the tip of {@code main} and was valid in the world at {@code
     * instant}; see {@link #factValidAt(FactId, Instant, CommitId)}.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public boolean factValidAt(FactId id, Instant instant) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(instant, "instant");
        return factValidAt(id, instant, head());
    }

    /**
     * FactValidAt: whether the fact is live at commit {@code at} (transaction time) and valid at
     * {@code instant} (valid time): its version at {@code at} has {@code valid_from <= instant <
     * valid_until} (open bounds always hold), and no succession closed it before {@code instant} — a
     * claim live at {@code at} that {@code invalidates} it and starts at or before {@code instant},
     * or one it is {@code invalidated_by}. Answered from the predicate index, derived from git.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public boolean factValidAt(FactId id, Instant instant, CommitId at) throws NotFoundException {
        return queries.validAt(Objects.requireNonNull(id, "id"), Objects.requireNonNull(instant, "instant"),
                Objects.requireNonNull(at, "at"));
    }

    /** The validity its version at {@code at} states (live or last navigable), epoch seconds; null when never written. */
    long[] ownValidity(String id, CommitId at) {
        dev.palimpsest.internal.index.FactState st = index.state(FactId.of(id), ObjectId.fromString(at.hex()));
        return st == null ? null : new long[] {st.validFrom(), st.validUntil()};
    }

    /** The effective validity of {@code id} at {@code at} in epoch seconds, or null when not live there (for the claim questions). */
    long[] effectiveValidity(String id, CommitId at) {
        return index.effectiveValidity(id, ObjectId.fromString(at.hex()));
    }

    /** Every fact's effective validity at {@code at} (null when not live there): what each valid-at question filters by. */
    dev.palimpsest.internal.claims.ClaimQueries.Validities validities(CommitId at) {
        return id -> effectiveValidity(id, at);
    }

    /**
     * The fact's validity at commit {@code at} with succession applied (its {@code valid_until}
     * closed early by the claims that invalidate it there); empty when the fact is not live at
     * {@code at}.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public Optional<Validity> validity(FactId id, CommitId at) throws NotFoundException {
        return queries.validity(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * The fact's last navigable version on {@code main}, and whether it is live at the tip.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public ExistsAt factExistsAt(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return factExistsAt(id, head());
    }

    /**
     * factExistsAt: the fact's last navigable version at or before {@code at} (ancestry, not time),
     * stepping over retractions, and whether it is live at {@code at}. Answered from the index.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public ExistsAt factExistsAt(FactId id, CommitId at) throws NotFoundException {
        return queries.existsAt(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * The fact versions live at the tip of {@code main} that cite {@code target}; see {@link
     * #inbound(FactId, CommitId)}.
     *
     * @throws NotFoundException when the target was never written on {@code main}
     */
    public List<InboundRef> inbound(FactId target) throws NotFoundException {
        Objects.requireNonNull(target, "target");
        return inbound(target, head(), false);
    }

    /**
     * The fact versions live at {@code at} that cite {@code target}, each with the referrer's version
     * commit and the pinned target version; empty when none does.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the target was never
     *     written in its ancestry
     */
    public List<InboundRef> inbound(FactId target, CommitId at) throws NotFoundException {
        return inbound(target, at, false);
    }

    /**
     * As {@link #inbound(FactId, CommitId)}; with {@code all}, also referrer versions in the ancestry
     * of {@code at} that are no longer live. Live ones first.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the target was never
     *     written in its ancestry
     */
    public List<InboundRef> inbound(FactId target, CommitId at, boolean all) throws NotFoundException {
        writer.watch().check();
        return queries.inbound(Objects.requireNonNull(target, "target"), Objects.requireNonNull(at, "at"), all);
    }

    /**
     * How each ref of the fact's version at the tip of {@code main} stands there; see {@link
     * #stale(FactId, CommitId)}.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public List<RefStatus> stale(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return stale(id, head());
    }

    /**
     * How each ref of the fact's version at {@code at} (live, or its last navigable version) stands
     * at {@code at}: current, revised, superseded or retracted; empty for a fact without refs.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public List<RefStatus> stale(FactId id, CommitId at) throws NotFoundException {
        writer.watch().check();
        return queries.stale(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * The evidence weight of a fact at the tip of {@code main}; zero for a retracted fact.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public Weight weight(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return weight(id, head());
    }

    /**
     * The evidence weight of a fact at {@code at} (see the README for the formula); zero for a fact
     * retracted there.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or the fact was never
     *     written in its ancestry
     */
    public Weight weight(FactId id, CommitId at) throws NotFoundException {
        return queries.weight(Objects.requireNonNull(id, "id"), Objects.requireNonNull(at, "at"));
    }

    /**
     * Every change to the fact's file reachable from {@code main}, newest first.
     *
     * @throws NotFoundException when the fact was never written on {@code main}
     */
    public List<HistoryEntry> history(FactId id) throws NotFoundException {
        return queries.history(Objects.requireNonNull(id, "id"));
    }

    /** The timeline from {@code main}, newest first; {@code limit} 0 means all. */
    public List<LogEntry> log(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        return History.log(repo, repo.head(), limit);
    }

    /**
     * The timeline from {@code from}, newest first (by commit time, children before their parents):
     * each commit with how its signature stands (checked as the audit checks it), its operations
     * counted by verb, the facts it names and, for a commit a pull or an adopted push moved this
     * repository's main to, its arrival (from main's local reflog, read once a call; see
     * {@link Replication}). Skips the first {@code skip} commits and answers at most {@code limit}
     * ({@code 0}: all), so a viewer can page through a long history at the cost of the pages read.
     *
     * @throws NotFoundException when {@code from} is no commit of the store
     * @throws IllegalArgumentException when {@code skip} or {@code limit} is negative
     */
    public List<TimelineEntry> timeline(CommitId from, int skip, int limit) throws NotFoundException {
        Objects.requireNonNull(from, "from");
        if (skip < 0 || limit < 0) {
            throw new IllegalArgumentException("skip and limit must not be negative, were " + skip + " and " + limit);
        }
        return timeline.entries(commit(from), skip, limit);
    }

    /**
     * The timeline entry of one commit: its signature status, operations, the facts it names and its arrival (see
     * {@link #timeline(CommitId, int, int)}).
     *
     * @throws NotFoundException when {@code commit} is no commit of the store
     */
    public TimelineEntry timelineEntry(CommitId commit) throws NotFoundException {
        Objects.requireNonNull(commit, "commit");
        return timeline.entry(commit(commit));
    }

    /**
     * True when {@code ancestor} is {@code descendant} or one of its ancestors (through any parent).
     *
     * @throws NotFoundException when either is no commit of the store
     */
    public boolean isAncestor(CommitId ancestor, CommitId descendant) throws NotFoundException {
        Objects.requireNonNull(ancestor, "ancestor");
        Objects.requireNonNull(descendant, "descendant");
        return History.isAncestorOrSelf(repo, commit(ancestor), commit(descendant));
    }

    /** The armored public key of {@code actor} at the tip of {@code main}; empty when it has none. */
    public Optional<String> publicKey(ActorName actor) {
        Objects.requireNonNull(actor, "actor");
        return atTip(at -> publicKey(actor, at));
    }

    /**
     * The armored public key of {@code actor} as committed at {@code at}; empty when the actor has
     * no key there.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public Optional<String> publicKey(ActorName actor, CommitId at) throws NotFoundException {
        return queries.publicKey(Objects.requireNonNull(actor, "actor"), Objects.requireNonNull(at, "at"));
    }

    /** The keys trusted at the tip of {@code main}, sorted by actor name. */
    public List<ActorKey> keys() {
        return atTip(this::keys);
    }

    /**
     * The keys trusted at {@code at} (the {@code keys/} folder of its tree), sorted by actor name.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public List<ActorKey> keys(CommitId at) throws NotFoundException {
        return queries.keys(Objects.requireNonNull(at, "at"));
    }

    /** The git directory of this store. */
    public Path gitDir() {
        return repo.gitDir();
    }

    /**
     * Releases the repository, first letting the search index's running merges finish so they are
     * saved (a merge started by this process's first question can take seconds at 100k facts); the
     * store must not be used afterwards.
     */
    @Override
    public void close() {
        watching.stop();
        recall.finishMerges();
        // under the writer lock no forget lands: a search index saved now holds nothing a forget erased
        writer.underLock(recall::close);
        repo.close();
    }

    /** A read that throws {@link NotFoundException} only for an unknown commit, asked at the tip. */
    interface AtCommit<T> {
        T at(CommitId at) throws NotFoundException;
    }

    /** Asks {@code read} at the tip of main, which is a commit of this store. */
    <T> T atTip(AtCommit<T> read) {
        CommitId tip = head();
        try {
            return read.at(tip);
        } catch (NotFoundException e) {
            throw new PalimpsestInternalException("the tip of main " + tip.hex() + " was not found", e);
        }
    }

    Writer writer() {
        return writer;
    }

    /** The signer of {@code actor} from the key home. */
    CommitSigner signer(ActorName actor) throws RejectedException {
        return signers.signer(Objects.requireNonNull(actor, "actor"));
    }

    /** The commit {@code at}, checked, with the index caught up. */
    ObjectId commit(CommitId at) throws NotFoundException {
        writer.watch().check();
        return queries.commit(at);
    }
}
