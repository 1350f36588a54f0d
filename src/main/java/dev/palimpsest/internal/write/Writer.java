package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.merge.ConvergentMerge;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.git.PackCompactor;
import dev.palimpsest.internal.git.PackObjectWriter;
import dev.palimpsest.internal.git.MainReflog;
import dev.palimpsest.internal.git.RefCas;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.git.TreeEditor;
import dev.palimpsest.internal.git.WriterLock;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.TimeRules;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.Deflater;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * The commit pipeline, the only code that writes to {@code refs/heads/main}: under the writer lock
 * it reads the tip, runs the {@link ReferenceGate} against it, writes objects, signs the commit and
 * moves the ref by compare-and-swap on the tip it read, retrying (gate included) a bounded number
 * of times when another writer moved it. A commit is acknowledged only after the ref moved (and, with
 * fsync, objects, ref file and its folder reached the disk). Thread-safe.
 */
public final class Writer {
    private static final long STALE_REF_LOCK_MILLIS = 2_000;

    private final GitRepo repo;
    private final PredicateIndex index;
    private final StoreOptions options;
    private final WriterLock lock;
    private final MergeWriter merges;
    private final Map<ObjectId, String> keyFingerprints = new ConcurrentHashMap<>();
    /** Each commit adds one pack; tiers are checked once per MERGE commits of this writer. */
    private int commitsSinceCompaction;
    /** Claimed pool files older than this, seen under the writer and repack locks, were a dead writer's. */
    static final java.time.Duration ABANDONED = java.time.Duration.ofMinutes(10);
    private boolean reclaimed;
    private final List<CommitListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Told of every commit this writer lands, under the writer lock, with the changes it made
     * (path to new blob, null for a removal) and the facts it encoded (by path): what derived
     * indexes need to catch up without diffing. A listener must not take the writer lock.
     */
    public interface CommitListener {
        void committed(ObjectId commit, ObjectId parent, ActorName actor, Map<String, ObjectId> changes,
                Map<String, dev.palimpsest.model.Fact> facts);
    }

    /** Registers {@code l} for every later commit of this writer. */
    public void addListener(CommitListener l) {
        listeners.add(l);
    }

    /** Stops telling {@code l} of commits. */
    public void removeListener(CommitListener l) {
        listeners.remove(l);
    }

    public Writer(GitRepo repo, PredicateIndex index, StoreOptions options) {
        this.repo = repo;
        this.index = index;
        this.options = options;
        this.lock = new WriterLock(repo.gitDir());
        this.merges = new MergeWriter(repo, options);
        this.watch = new dev.palimpsest.internal.forget.TombstoneWatch(repo);
    }

    private final dev.palimpsest.internal.forget.TombstoneWatch watch;

    /** This process's view of what main has forgotten, checked under the lock before every write. */
    public dev.palimpsest.internal.forget.TombstoneWatch watch() {
        return watch;
    }

    /** Runs {@code r} holding the writer lock (reentrant): no other writer, in any process, lands a commit meanwhile. */
    public void underLock(Runnable r) {
        try (WriterLock.Held held = lock.acquire()) {
            r.run();
        }
    }

    private dev.palimpsest.internal.forget.Forgetting forgetting;

    /** What forgetting knows of history (tombstones, closures), shared by this writer's gate and its callers. */
    public synchronized dev.palimpsest.internal.forget.Forgetting forgetting() {
        if (forgetting == null) {
            dev.palimpsest.internal.derive.Derivation d = new dev.palimpsest.internal.derive.Derivation(repo, index);
            addListener((commit, parent, actor, changes, facts) -> d.committed(changes, facts));
            forgetting = new dev.palimpsest.internal.forget.Forgetting(repo, index, d);
        }
        return forgetting;
    }

    /** The predicate index this writer keeps current. */
    public PredicateIndex index() {
        return index;
    }

    /** Appends what this process indexed to the persisted index, under the writer lock. */
    public void persistIndex() {
        try (WriterLock.Held held = lock.acquire()) {
            index.persist();
        }
    }

    /** Lands {@code ops} as one commit signed by {@code actor}, or throws and writes nothing. */
    public CommitResult write(ActorName actor, CommitSigner signer, List<Operation> ops)
            throws RejectedException, ConflictException {
        return write(actor, signer, ops, Map.of());
    }

    /**
     * As {@link #write(ActorName, CommitSigner, List)}, also placing {@code blobs} (path to a blob
     * already in the object database, e.g. produced files' content under {@code files/}) in the
     * commit's tree beside what the gate planned.
     */
    public CommitResult write(ActorName actor, CommitSigner signer, List<Operation> ops, Map<String, ObjectId> blobs)
            throws RejectedException, ConflictException {
        WriteLimits.checkOperations(ops);
        SecretRules.check(ops);
        try (WriterLock.Held held = lock.acquire()) {
            reclaimOnce();
            for (int attempt = 0; attempt <= options.maxRetries(); attempt++) {
                ObjectId tip = current();
                CommitResult landed = attempt(actor, signer, ops, blobs, tip, held);
                if (landed != null) {
                    return landed;
                }
                backoff(attempt);
            }
        }
        throw new ConflictException("could not update " + GitRepo.MAIN + " after " + (options.maxRetries() + 1)
                + " attempts: other writers kept moving it");
    }

    /** What {@link #integrate} did: the kind, main's commit afterwards, and the fact versions a merge lost. */
    public record Integration(Kind kind, ObjectId head, List<ConvergentMerge.Lost> lost, List<String> settled) {
        public Integration(Kind kind, ObjectId head, List<ConvergentMerge.Lost> lost) {
            this(kind, head, lost, List.of());
        }

        /** Nothing to do, main moved forward to the incoming commit, or a merge commit was written. */
        public enum Kind { UP_TO_DATE, FAST_FORWARD, MERGED }
    }

    /**
     * Joins the (already audited) commit {@code incoming} into main, under the writer lock: when main
     * is absent or an ancestor of it, main moves to it by compare-and-swap; when it is an ancestor of
     * main, nothing changes; otherwise the {@link ConvergentMerge} of main and it is written as a
     * commit with parents (main, incoming), signed by {@code actor} (trusted at main, its secret key
     * the trusted one), through the audit's merge rules ({@link MergeWriter}: a violation throws
     * {@link dev.palimpsest.model.MergeRefusedException} and writes nothing), and main moves to it.
     * Retries when a local writer moved main meanwhile.
     * The predicate index catches up taking what {@code known} already read of the incoming range.
     */
    public Integration integrate(ActorName actor, CommitSigner signer, ObjectId incoming,
            dev.palimpsest.internal.index.KnownChanges known)
            throws RejectedException, ConflictException, ConvergentMerge.UnrelatedException {
        return integrate(actor, signer, incoming, known, null);
    }

    /**
     * What the caller knows of the incoming commit's ancestry: whether {@code commit} (main when the
     * incoming range was audited) is an ancestor of it. Spares a walk of the history while main is
     * still that commit.
     */
    public record KnownAncestry(ObjectId commit, boolean ancestor) {
        public KnownAncestry {
            java.util.Objects.requireNonNull(commit, "commit");
        }
    }

    /** As {@link #integrate(ActorName, CommitSigner, ObjectId, dev.palimpsest.internal.index.KnownChanges)}, with {@code hint} (null: none). */
    public Integration integrate(ActorName actor, CommitSigner signer, ObjectId incoming,
            dev.palimpsest.internal.index.KnownChanges known, KnownAncestry hint)
            throws RejectedException, ConflictException, ConvergentMerge.UnrelatedException {
        return integrate(actor, signer, incoming, known, hint, null);
    }

    /**
     * As {@link #integrate(ActorName, CommitSigner, ObjectId, dev.palimpsest.internal.index.KnownChanges,
     * KnownAncestry)}; with an {@code arrival} ({@link MainReflog#pull} or {@link MainReflog#mergeRequest};
     * null: none), the move of main is recorded in main's reflog with its mode.
     */
    public Integration integrate(ActorName actor, CommitSigner signer, ObjectId incoming,
            dev.palimpsest.internal.index.KnownChanges known, KnownAncestry hint, String arrival)
            throws RejectedException, ConflictException, ConvergentMerge.UnrelatedException {
        try (WriterLock.Held held = lock.acquire()) {
            reclaimOnce();
            for (int attempt = 0; attempt <= options.maxRetries(); attempt++) {
                ObjectId tip = current();
                Boolean ancestor = hint != null && hint.commit().equals(tip) ? hint.ancestor() : null;
                Integration done = integrateOnce(actor, signer, incoming, tip, ancestor, held, arrival);
                if (done != null) {
                    if (done.kind() != Integration.Kind.UP_TO_DATE) {
                        index.catchUp(done.head(), known);
                        index.persist();
                    }
                    return done;
                }
                backoff(attempt);
            }
        }
        throw new ConflictException("could not update " + GitRepo.MAIN + " after " + (options.maxRetries() + 1)
                + " attempts: other writers kept moving it");
    }

    /**
     * Main's tip, read under the writer lock, with what this process knows caught up to it: the
     * facts forgotten since it last looked (keys destroyed, caches of decoded content dropped) and
     * the predicate index, so every precondition the gate checks is checked on the head the commit
     * lands on, whichever process moved it there.
     */
    private ObjectId current() {
        watch.check();
        ObjectId tip = repo.head();
        if (tip != null) {
            index.catchUp(tip);
        }
        return tip;
    }

    /** {@code ancestor}: whether tip is known to be an ancestor of incoming (null: not known, walk). */
    private Integration integrateOnce(ActorName actor, CommitSigner signer, ObjectId incoming, ObjectId tip,
            Boolean ancestor, WriterLock.Held held, String arrival)
            throws RejectedException, ConvergentMerge.UnrelatedException {
        try {
            if (tip == null || (ancestor != null ? ancestor : History.isAncestorOrSelf(repo, tip, incoming))) {
                if (incoming.equals(tip)) {
                    return new Integration(Integration.Kind.UP_TO_DATE, tip, List.of());
                }
                forgetArriving(tip, incoming);
                return moveRef(tip, incoming, held, reflogLine(arrival, tip, incoming, false))
                        ? new Integration(Integration.Kind.FAST_FORWARD, incoming.copy(),
                        List.of()) : null;
            }
            if (History.isAncestorOrSelf(repo, incoming, tip)) {
                return new Integration(Integration.Kind.UP_TO_DATE, tip, List.of());
            }
            if (actor == null || signer == null) {
                throw new RejectedException(Rule.UNKNOWN_ACTOR, "actor",
                        "both sides advanced: a merge commit is needed, and no actor was given to sign it");
            }
            try (Snapshot parent = Snapshot.of(repo, tip); var reader = repo.newReader()) {
                checkSigner(parent, actor, signer);
                ConvergentMerge.Result merged = ConvergentMerge.merge(reader, tip, incoming);
                ObjectId commit = merges.write(parent, incoming, merged, actor, signer);
                forgetArriving(tip, commit);
                return moveRef(tip, commit, held, reflogLine(arrival, tip, commit, true))
                        ? new Integration(Integration.Kind.MERGED, commit, merged.lost(), merged.settled())
                        : null;
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write to " + repo.gitDir() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Destroys the data keys of the facts tombstoned at {@code next} and not at {@code tip}, before
     * main moves there: once a tombstone is on main, no process can open what it forgot.
     */
    private void forgetArriving(ObjectId tip, ObjectId next) {
        List<dev.palimpsest.model.FactId> ids = dev.palimpsest.internal.forget.Tombstones.addedBetweenCommits(repo, tip, next);
        if (!ids.isEmpty()) {
            repo.vault().forgotten(ids);
        }
    }

    /**
     * Once per writer, under the writer lock: deletes the pool files dead writers or mergers
     * claimed and never renamed into place (when no merge is running).
     */
    private void reclaimOnce() {
        if (!reclaimed) {
            reclaimed = true;
            repo.repack().whileIdle(() -> repo.pool().reclaimAbandoned(ABANDONED));
        }
    }

    private CommitResult attempt(ActorName actor, CommitSigner signer, List<Operation> ops,
            Map<String, ObjectId> blobs, ObjectId tip, WriterLock.Held held) throws RejectedException {
        Snapshot parent = tip == null ? null : Snapshot.of(repo, tip);
        ReferenceGate gate = null;
        boolean landed = false;
        try {
            if (parent != null) {
                checkSigner(parent, actor, signer);
            }
            gate = new ReferenceGate(repo, index, parent, forgetting());
            gate.message.run(options.run());
            Plan plan = gate.check(actor, ops);
            WriteLimits.checkFiles(plan.files);
            List<dev.palimpsest.model.Violation> fileRecords = FileGate.check(plan.facts,
                    p -> blobs.containsKey(p) || parent != null && parent.blobAt(p) != null);
            if (!fileRecords.isEmpty()) {
                throw new RejectedException(fileRecords);
            }
            Map<String, ObjectId> edits = new HashMap<>(plan.files.size() * 2);
            edits.putAll(blobs);
            ObjectId commit = writeObjects(plan, parent, actor, signer, edits);
            if (!plan.forgotten.isEmpty()) {
                // before main shows the tombstones: no process can read the content once they are visible
                repo.vault().forgotten(plan.forgotten);
            }
            if (!moveRef(tip, commit, held)) {
                return null;
            }
            landed = true;
            index.indexOwnCommit(commit, tip, edits, plan.facts);
            index.persist();
            for (CommitListener l : listeners) {
                l.committed(commit, tip, actor, edits, plan.facts);
            }
            return new CommitResult(CommitId.of(commit.name()), plan.written, plan.retracted, plan.forgotten);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write to " + repo.gitDir() + ": " + e.getMessage(), e);
        } finally {
            if (!landed && gate != null) {
                gate.createdKeys.forEach(repo.vault()::destroy); // a key without its commit must not outlive the attempt
            }
            if (parent != null) {
                parent.close();
            }
        }
    }

    private void checkSigner(Snapshot parent, ActorName actor, CommitSigner signer) throws RejectedException {
        String keyPath = StorePaths.keyPath(actor);
        ObjectId blob = parent.blobAt(keyPath);
        if (blob == null) {
            throw new RejectedException(Rule.UNKNOWN_ACTOR, "actor " + actor,
                    "has no key in this store (" + keyPath + " is missing at " + parent.commit().name() + ")");
        }
        String fp = keyFingerprints.computeIfAbsent(blob, b -> OpenPgpKeys.fingerprint(OpenPgpKeys
                .parsePublic(new String(parent.read(b), StandardCharsets.US_ASCII)).getPublicKey()));
        if (!fp.equals(signer.fingerprint())) {
            throw new RejectedException(Rule.KEY_MISMATCH, "actor " + actor, "the secret key in the key home ("
                    + signer.fingerprint() + ") is not the key in " + keyPath + " (" + fp + ")");
        }
    }

    /** Writes the plan's blobs, trees and signed commit as one pack; fills {@code edits} (path to blob or null). */
    private ObjectId writeObjects(Plan plan, Snapshot parent, ActorName actor, CommitSigner signer,
            Map<String, ObjectId> edits) throws IOException {
        try (PackObjectWriter ins = new PackObjectWriter(repo, repo.pool(), options.fsync(), Deflater.BEST_SPEED);
                var reader = ins.newReader()) {
            for (Map.Entry<String, byte[]> f : plan.files.entrySet()) {
                edits.put(f.getKey(), f.getValue() == null ? null : ins.insert(Constants.OBJ_BLOB, f.getValue()));
            }
            ObjectId tree = TreeEditor.apply(reader, ins, parent == null ? null : parent.tree(), edits);
            Instant now = TimeRules.commitTime(options.clock().instant(), parent == null ? null : commitTime(parent));
            PersonIdent who = new PersonIdent(actor.value(), signer.email(), now, ZoneOffset.UTC);
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(tree);
            if (parent != null) {
                cb.setParentId(parent.commit());
            }
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage(plan.message);
            cb.setGpgSignature(new GpgSignature(signer.sign(cb.build(), now).getBytes(StandardCharsets.US_ASCII)));
            ObjectId commit = ins.insert(cb);
            ins.flush();
            return commit;
        }
    }

    /** The committer time of the snapshot's commit, or null when its committer header is malformed. */
    private static Instant commitTime(Snapshot s) throws IOException {
        byte[] raw = s.reader().open(s.commit(), Constants.OBJ_COMMIT).getCachedBytes();
        PersonIdent committer = RevCommit.parse(raw).getCommitterIdent();
        return committer == null ? null : committer.getWhenAsInstant();
    }

    /**
     * Moves main by compare-and-swap. A held ref lock is waited out (it can only belong to a dead
     * writer or a foreign git process, since we hold the writer lock), up to the stale-lock grace
     * period plus a margin; returns false when main moved, so the caller re-plans on the new tip.
     */
    private boolean moveRef(ObjectId expected, ObjectId commit, WriterLock.Held held) throws IOException {
        return moveRef(expected, commit, held, null);
    }

    /** The reflog line of main's move by {@code arrival}; null without one. */
    private String reflogLine(String arrival, ObjectId tip, ObjectId next, boolean merge) {
        return arrival == null ? null : MainReflog.line(tip, next, options.clock().instant(), arrival, merge);
    }

    /** As {@link #moveRef(ObjectId, ObjectId, WriterLock.Held)}, appending {@code reflogLine} (null: none) to main's reflog. */
    private boolean moveRef(ObjectId expected, ObjectId commit, WriterLock.Held held, String reflogLine)
            throws IOException {
        RefCas cas = new RefCas(repo, repo.pool());
        long deadline = System.currentTimeMillis() + STALE_REF_LOCK_MILLIS + 3_000;
        while (true) {
            switch (cas.update(expected, commit, options.fsync(), reflogLine)) {
                case UPDATED:
                    if (++commitsSinceCompaction >= PackCompactor.MERGE) {
                        commitsSinceCompaction = 0;
                        PackCompactor.compact(repo, repo.pool(), options.fsync());
                        repo.repack().maybeStart();
                    }
                    return true;
                case MOVED:
                    return false;
                case LOCKED:
                default:
                    clearStaleRefLock(cas.lockFile());
                    if (System.currentTimeMillis() > deadline) {
                        return false;
                    }
                    backoff(6);
            }
        }
    }

    /**
     * Every palimpsest writer holds the writer lock while it holds {@code main.lock}, so a ref lock
     * file seen under our writer lock was left by a writer that died mid-update (or belongs to a
     * foreign git process); once it is older than a grace period it is removed.
     */
    private static void clearStaleRefLock(Path refLock) throws IOException {
        try {
            if (System.currentTimeMillis() - Files.getLastModifiedTime(refLock).toMillis() > STALE_REF_LOCK_MILLIS) {
                Files.deleteIfExists(refLock);
            }
        } catch (java.nio.file.NoSuchFileException gone) {
            // released meanwhile
        }
    }

    private static void backoff(int attempt) {
        long cap = Math.min(200, 1L << Math.min(attempt, 8));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, cap + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PalimpsestInternalException("interrupted while retrying a write", e);
        }
    }
}
