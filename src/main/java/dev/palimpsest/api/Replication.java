package dev.palimpsest.api;

import dev.palimpsest.internal.audit.AuditEngine;
import dev.palimpsest.internal.audit.AuditStream;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.Signers;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.MainReflog;
import dev.palimpsest.internal.git.RefCas;
import dev.palimpsest.internal.merge.ConvergentMerge;
import dev.palimpsest.internal.remote.AuditedChanges;
import dev.palimpsest.internal.remote.Transport;
import dev.palimpsest.internal.remote.Unflushed;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.PushResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;

/**
 * Replication of a store through any git remote: the remotes, an audited pull (the remote's
 * {@code main} is fetched into {@code refs/palimpsest/quarantine/<remote>}, every commit main lacks
 * is audited, and only a clean range is adopted: by fast-forward, or by a signed convergent merge
 * commit when both sides advanced; each such move of main, and each by {@link #adopt}, is recorded in
 * main's local reflog, which {@link Store#timeline} reads as the commit's
 * {@link dev.palimpsest.model.Arrival}), a push that never forces, and {@link #cloneStore}. Obtained
 * from {@link Store#replication()}. Thread-safe; arguments must be non-null unless stated (only the
 * deprecated v1 forms state a null).
 */
public final class Replication {
    /** The progress task of adopting an audited range (moving main, the merge, the indexes' catch-up). */
    public static final String ADOPT = "adopt";

    private final GitRepo repo;
    private final Writer writer;
    private final Signers signers;
    private final Transport transport;
    private final Receipts receipts;
    private final Erasure erasure;

    Replication(GitRepo repo, Writer writer, Signers signers, Receipts receipts, Erasure erasure) {
        this.receipts = receipts;
        this.erasure = erasure;
        this.repo = repo;
        this.writer = writer;
        this.signers = signers;
        this.transport = new Transport(repo);
    }

    /** The store's remotes, sorted by name. */
    public List<Remote> remotes() {
        return transport.remotes();
    }

    /**
     * Records a remote.
     *
     * @throws ConflictException when a remote of that name exists
     * @throws RejectedException when the URL is not a git URL
     */
    public void addRemote(Remote remote) throws ConflictException, RejectedException {
        transport.add(Objects.requireNonNull(remote, "remote"));
    }

    /**
     * Forgets a remote (its quarantine and tracking refs too).
     *
     * @throws NotFoundException when there is no such remote
     */
    public void removeRemote(String name) throws NotFoundException {
        transport.remove(Objects.requireNonNull(name, "name"));
    }

    /**
     * Fetches the remote's {@code main} into quarantine, audits every incoming commit main lacks,
     * and adopts it only when the audit is clean. {@code actor} signs the merge commit when both
     * sides advanced (may be null when the caller can only fast-forward: a merge is then rejected).
     *
     * @throws NotFoundException when the remote is unknown, no git repository answers at its URL, or it has
     *     no main
     * @throws RejectedException when a merge is needed and {@code actor} cannot sign it; a
     *     {@link dev.palimpsest.model.MergeRefusedException} when the merge commit would break a rule
     *     the audit holds merge commits to (nothing is written)
     * @throws ConflictException when the remote holds another store, or local writers kept moving main
     * @deprecated a null actor meant fast-forward only; use {@link #pull(String, TransferProgress)} for
     *     that and {@link #pullAs(String, ActorName, TransferProgress)} when {@code actor} signs a merge.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public PullResult pull(String remote, ActorName actor, TransferProgress progress)
            throws NotFoundException, RejectedException, ConflictException {
        return pulled(remote, actor, progress);
    }

    /**
     * Fetches the remote's {@code main} into quarantine, audits every incoming commit main lacks,
     * and adopts it only when the audit is clean and main can be fast-forwarded to it: when both
     * sides advanced, the pull is rejected (a merge needs a signer: {@link #pullAs}).
     *
     * @throws NotFoundException when the remote is unknown, no git repository answers at its URL, or it has
     *     no main
     * @throws RejectedException when a merge is needed
     * @throws ConflictException when the remote holds another store, or local writers kept moving main
     */
    public PullResult pull(String remote, TransferProgress progress)
            throws NotFoundException, RejectedException, ConflictException {
        return pulled(Objects.requireNonNull(remote, "remote"), null, progress);
    }

    /**
     * Fetches the remote's {@code main} into quarantine, audits every incoming commit main lacks,
     * and adopts it only when the audit is clean: by fast-forward, or, when both sides advanced, by a
     * convergent merge commit that {@code actor} signs.
     *
     * @throws NotFoundException when the remote is unknown, no git repository answers at its URL, or it has
     *     no main
     * @throws RejectedException when a merge is needed and {@code actor} cannot sign it; a
     *     {@link dev.palimpsest.model.MergeRefusedException} when the merge commit would break a rule
     *     the audit holds merge commits to (nothing is written)
     * @throws ConflictException when the remote holds another store, or local writers kept moving main
     */
    public PullResult pullAs(String remote, ActorName actor, TransferProgress progress)
            throws NotFoundException, RejectedException, ConflictException {
        Objects.requireNonNull(remote, "remote");
        return pulled(remote, Objects.requireNonNull(actor, "actor"), progress);
    }

    private PullResult pulled(String remote, ActorName actor, TransferProgress progress)
            throws NotFoundException, RejectedException, ConflictException {
        Objects.requireNonNull(progress, "progress (use TransferProgress.none())");
        Objects.requireNonNull(remote, "remote");
        return adopting(remote, actor, progress,
                in -> transport.fetchAuditing(remote, progress, in.audit, in.unflushed));
    }

    /** Where the incoming commit comes from: a fetch feeding the audit as it copies, or the repository itself. */
    private interface Source {
        Transport.Fetched get(Incoming in) throws NotFoundException, RejectedException, ConflictException;
    }

    /** Audits and adopts what {@code source} brings; {@code remote} is null for a commit already here. */
    private PullResult adopting(String remote, ActorName actor, TransferProgress progress, Source source)
            throws NotFoundException, RejectedException, ConflictException {
        ObjectId before = repo.head();
        PullResult r;
        // A pull may bring tombstones: its intent lets the next open finish destroying their keys after a crash.
        dev.palimpsest.internal.vault.Vault.Intent intent = null;
        try (Incoming in = new Incoming(repo, before)) {
            Transport.Fetched fetched = source.get(in);
            intent = repo.vault().intendForget();
            r = adoptFetched(repo, writer, receipts, remote, fetched, in, actor,
                    () -> actor == null ? null : signers.signer(actor), progress);
            if (!(r instanceof PullResult.Refused) && !(r instanceof PullResult.UpToDate)) {
                erasure.forgetPulled(before, repo.head());
            }
        } catch (RejectedException | ConflictException | RuntimeException e) {
            if (intent == null) {
                throw e;
            }
            if (java.util.Objects.equals(before, repo.head())) {
                intent.done();
            } else {
                intent.release();
            }
            throw e;
        }
        intent.done();
        return r;
    }

    /**
     * Audits every commit reachable from {@code commit} and not from main, objects already in this
     * store's repository (the pack a hub received from a push), and adopts it only when the audit
     * is clean, as {@link #pullAs} adopts a fetched main: by fast-forward, or, when main moved
     * meanwhile, by a convergent merge commit that {@code actor} signs (the commit main lacks goes in
     * as the second parent, so main's first-parent line keeps its commits). A refused range writes
     * nothing and is answered {@link PullResult.Refused}.
     *
     * @throws NotFoundException when {@code commit} is not a commit in this store's repository
     * @throws RejectedException when a merge is needed and {@code actor} cannot sign it; a
     *     {@link dev.palimpsest.model.MergeRefusedException} when the merge commit would break a rule
     *     the audit holds merge commits to (nothing is written)
     * @throws ConflictException when {@code commit} belongs to another store, or local writers kept moving main
     */
    public PullResult adopt(CommitId commit, ActorName actor, TransferProgress progress)
            throws NotFoundException, RejectedException, ConflictException {
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(progress, "progress (use TransferProgress.none())");
        ObjectId tip = ObjectId.fromString(commit.hex());
        try (org.eclipse.jgit.revwalk.RevWalk w = new org.eclipse.jgit.revwalk.RevWalk(repo.repository())) {
            w.parseCommit(tip);
        } catch (org.eclipse.jgit.errors.MissingObjectException | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            throw new NotFoundException("no commit " + commit.hex() + " in " + repo.gitDir());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + commit.hex() + ": " + e.getMessage(), e);
        }
        return adopting(null, actor, progress, in -> new Transport.Fetched(tip, true));
    }

    /**
     * Pushes main to the remote's main; never forces. When the remote's main has commits main
     * lacks and the remote is a hub ({@code palimpsest serve}), the hub is asked to merge instead:
     * it audits main's commits and merges them into its main, signed by the pusher's actor
     * ({@link PushResult.Merged}).
     *
     * @throws NotFoundException when the remote is unknown or no git repository answers at its URL
     * @throws ConflictException when the remote has commits main lacks (pull first) and is no hub
     * @throws RejectedException when the remote refused (e.g. its pre-receive hook found violations)
     */
    public PushResult push(String remote, TransferProgress progress)
            throws NotFoundException, ConflictException, RejectedException {
        Objects.requireNonNull(progress, "progress (use TransferProgress.none())");
        ObjectId head = repo.head();
        Transport.Pushed done = transport.push(Objects.requireNonNull(remote, "remote"), head, progress);
        CommitId h = CommitId.of(done.head().name());
        if (done.merged()) {
            return new PushResult.Merged(CommitId.of(head.name()), h);
        }
        if (done.head().equals(done.old())) {
            return new PushResult.UpToDate(h);
        }
        return new PushResult.Pushed(done.old() == null ? null : CommitId.of(done.old().name()), h);
    }

    /**
     * Makes a new store at {@code dir} (absent or an empty folder) from the store at {@code url}:
     * records it as remote {@code origin}, fetches its main into quarantine, audits all of it and
     * adopts it only when clean. On a refusal or failure the folder is removed again.
     *
     * @throws RejectedException when {@code dir} exists and is not empty
     * @throws NotFoundException when no git repository answers at {@code url}, or it has no main
     */
    public static PullResult cloneStore(String url, Path dir, StoreOptions options, TransferProgress progress)
            throws RejectedException, NotFoundException {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(progress, "progress (use TransferProgress.none())");
        if (Files.exists(dir) && (!Files.isDirectory(dir) || !isEmptyDir(dir))) {
            throw new RejectedException(Rule.STORE_EXISTS, "store " + dir, "exists and is not an empty folder");
        }
        boolean existed = Files.exists(dir);
        GitRepo repo = null;
        boolean keep = false;
        try {
            repo = GitRepo.create(dir, options.fsync());
            Transport t = new Transport(repo);
            t.add(new Remote("origin", url));
            PullResult r;
            try (Incoming in = new Incoming(repo, null)) {
                Transport.Fetched fetched = t.fetchAuditing("origin", progress, in.audit, in.unflushed);
                r = adoptFetched(repo, null, null, "origin", fetched, in, null, () -> null, progress);
            }
            keep = !(r instanceof PullResult.Refused);
            return r;
        } catch (ConflictException e) {
            throw new PalimpsestInternalException("a new clone cannot conflict: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot create repository at " + dir + ": " + e.getMessage(), e);
        } finally {
            if (repo != null) {
                repo.close();
            }
            if (!keep) {
                deleteTree(dir, existed);
            }
        }
    }

    private interface SignerSource {
        CommitSigner get() throws RejectedException;
    }

    /**
     * The audit of an incoming range, started before the fetch so that it runs while the objects are
     * copied, and what it read (for the predicate index); {@code base} is main before the fetch.
     */
    private static final class Incoming implements AutoCloseable {
        final AuditedChanges read;
        final Unflushed unflushed = new Unflushed();
        final AuditStream audit;
        final ObjectId base;

        Incoming(GitRepo repo, ObjectId base) {
            this.base = base;
            this.read = new AuditedChanges(base);
            this.audit = new AuditEngine(repo, AuditEngine.standardChecks(repo, false))
                    .stream(read, () -> unflushed.wrap(repo.newReader()));
        }

        @Override
        public void close() {
            audit.close();
        }
    }

    private static PullResult adoptFetched(GitRepo repo, Writer writer, Receipts receipts, String remote,
            Transport.Fetched got, Incoming in, ActorName actor, SignerSource signer, TransferProgress progress)
            throws RejectedException, ConflictException {
        ObjectId fetched = got.tip();
        Transport t = new Transport(repo);
        ObjectId local = repo.head();
        try {
            if (local != null && !got.arrived() && History.isAncestorOrSelf(repo, fetched, local)) {
                if (remote != null) {
                    t.deleteRef(Transport.QUARANTINE + remote);
                }
                return new PullResult.UpToDate(CommitId.of(local.name()));
            }
            AuditedChanges read = in.read;
            AuditReport report = in.audit.finish(local, fetched, (done, total) -> progress.update("audit", done, total));
            if (!report.clean()) {
                return new PullResult.Refused(local == null ? CommitId.of(ObjectId.zeroId().name())
                        : CommitId.of(local.name()), report);
            }
            PullResult result;
            if (writer == null) {
                if (new RefCas(repo, repo.pool()).update(null, fetched, false) != RefCas.Result.UPDATED) {
                    throw new ConflictException("another process created " + GitRepo.MAIN + " meanwhile");
                }
                result = new PullResult.FastForward(null, CommitId.of(fetched.name()), report.commits());
            } else {
                boolean known = local != null && local.equals(in.base);
                boolean merge = local != null && !(known ? read.extendsBase() : History.isAncestorOrSelf(repo, local, fetched));
                progress.update(ADOPT, 0, 1);
                Writer.Integration done = writer.integrate(actor, merge ? signer.get() : null, fetched, read,
                        known ? new Writer.KnownAncestry(local, !merge) : null,
                        remote != null ? MainReflog.pull(remote) : MainReflog.mergeRequest(actor));
                progress.update(ADOPT, 1, 1);
                CommitId head = CommitId.of(done.head().name());
                result = switch (done.kind()) {
                    case UP_TO_DATE -> new PullResult.UpToDate(head);
                    case FAST_FORWARD -> new PullResult.FastForward(local == null ? null : CommitId.of(local.name()),
                            head, report.commits());
                    case MERGED -> new PullResult.Merged(head, CommitId.of(local.name()), CommitId.of(fetched.name()),
                            report.commits(), done.lost().stream().map(ConvergentMerge.Lost::id).toList(),
                            done.settled(), cascade(receipts, actor, head, local, fetched));
                };
            }
            if (remote != null) {
                track(repo, remote, fetched);
                t.deleteRef(Transport.QUARANTINE + remote);
            }
            return result;
        } catch (ConvergentMerge.UnrelatedException e) {
            throw new ConflictException((remote == null ? "commit " + fetched.name() : "remote '" + remote + "'")
                    + " holds another store: " + e.getMessage());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot update refs of " + repo.gitDir() + ": " + e.getMessage(), e);
        }
    }

    /** The follow-up cascade commit a merge calls for, written by {@code actor}; null when none. */
    private static CommitId cascade(Receipts receipts, ActorName actor, CommitId merge, ObjectId ours, ObjectId theirs)
            throws RejectedException {
        dev.palimpsest.model.CommitResult r = receipts.cascadeAfterMerge(actor, merge,
                List.of(CommitId.of(ours.name()), CommitId.of(theirs.name())));
        return r == null ? null : r.id();
    }

    private static void track(GitRepo repo, String remote, ObjectId fetched) throws IOException {
        RefUpdate u = repo.repository().updateRef(Constants.R_REMOTES + remote + "/main");
        u.setNewObjectId(fetched);
        u.setForceUpdate(true);
        u.disableRefLog();
        u.update();
    }

    private static boolean isEmptyDir(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteTree(Path dir, boolean keepRoot) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                if (!keepRoot || !p.equals(dir)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot remove " + dir + " after a failed clone: " + e.getMessage(), e);
        }
    }
}
