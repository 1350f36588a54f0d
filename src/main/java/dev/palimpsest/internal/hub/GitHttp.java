package dev.palimpsest.internal.hub;

import dev.palimpsest.internal.audit.AuditEngine;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Consumer;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.http.server.resolver.AsIsFileService;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.PreReceiveHook;
import org.eclipse.jgit.transport.ReceiveCommand;
import org.eclipse.jgit.transport.ReceivePack;
import org.eclipse.jgit.transport.UploadPack;
import org.eclipse.jgit.transport.resolver.ServiceNotAuthorizedException;
import org.eclipse.jgit.transport.resolver.ServiceNotEnabledException;

/**
 * Git smart HTTP over one store's repository, on JGit's {@code GitServlet}: clone and fetch for any
 * authenticated caller, push only for a caller allowed to write. The caller's rights come from the
 * request attribute {@link #ACCESS} set by the container's authentication ({@link Access}); a request
 * without it is refused. A push is held to what a pull adopts: only {@code refs/heads/main} may
 * change, never deleted nor rewritten (non-fast-forward), and every commit it brings is audited with
 * the audit a pull runs (signatures by keys trusted at the parent, identities, dates, trailers,
 * files, the rule book replayed); a push with violations is refused with them printed to the git
 * client ({@code remote: ...}) and main is left untouched. A push to {@link GitRepo#MERGE} (advertised
 * at the genesis commit, never updated) is a merge request: the pushed commit is handed to the
 * {@link Merger}, which audits the commits main lacks and joins them into main (fast-forward, or a
 * merge commit signed by the pusher's actor), so a replica whose push raced other writers need not
 * pull and retry; the ref itself is never written. The dumb protocol is off. Thread-safe.
 */
public final class GitHttp implements AutoCloseable {
    /** The request attribute carrying the caller's {@link Access}. */
    public static final String ACCESS = "dev.palimpsest.hub.GitAccess";
    /** Violations printed to the pusher, at most (the rest are counted). */
    static final int MAX_PRINTED = 50;

    /** The request attribute carrying the caller's actor ({@link ActorName}), for merge requests. */
    public static final String ACTOR = "dev.palimpsest.hub.GitActor";

    /** What the caller of a git request may do. */
    public enum Access { READ, WRITE }

    /**
     * Joins a pushed commit into main for {@code actor}, auditing every commit main lacks first.
     * Called one push at a time.
     */
    public interface Merger {
        /** The pull-shaped outcome: refused (with the audit's report), up to date, fast-forward or merged. */
        dev.palimpsest.model.PullResult merge(ObjectId commit, ActorName actor)
                throws dev.palimpsest.model.PalimpsestException;
    }

    private final GitRepo repo;
    private final GitServlet servlet;
    private final java.util.concurrent.locks.ReentrantLock pushing = new java.util.concurrent.locks.ReentrantLock(true);

    private final Merger merger;
    /** Main's root commit once main exists (main is never rewritten, so it never changes). */
    private final java.util.concurrent.atomic.AtomicReference<ObjectId> genesis = new java.util.concurrent.atomic.AtomicReference<>();

    private GitHttp(GitRepo repo, Merger merger, Consumer<String> pushes) {
        this.repo = repo;
        this.merger = merger;
        GitServlet s = new GitServlet();
        s.setRepositoryResolver((HttpServletRequest req, String name) -> {
            if (!name.equals(NAME)) {
                throw new org.eclipse.jgit.errors.RepositoryNotFoundException(name);
            }
            repo.repository().incrementOpen();
            return repo.repository();
        });
        s.setAsIsFileService(AsIsFileService.DISABLED);
        s.setUploadPackFactory((req, db) -> {
            access(req);
            UploadPack up = new UploadPack(db);
            up.setTimeout(0);
            return up;
        });
        s.setReceivePackFactory((req, db) -> {
            if (access(req) != Access.WRITE) {
                throw new ServiceNotEnabledException("this token may read and fetch, not push (rule read-only-token)");
            }
            ReceivePack rp = new ReceivePack(db);
            rp.setAllowCreates(true);
            rp.setAllowDeletes(false);
            // the gate refuses a rewrite itself, so the refusal says why and the push's pack is discarded
            rp.setAllowNonFastForwards(true);
            rp.setAtomic(true);
            rp.setCheckReceivedObjects(true);
            // set here, not in an advertise hook: the push's second request (stateless HTTP) reads its refs
            // without calling the hook, and must see the merge ref at the same commit as the first
            advertise(rp);
            rp.setPreReceiveHook(new Gate(req.getAttribute(ACTOR) instanceof ActorName a ? a : null));
            rp.setPostReceiveHook((pack, commands) -> {
                for (ReceiveCommand c : commands) {
                    if (c.getResult() == ReceiveCommand.Result.OK) {
                        pushes.accept(c.getRefName().equals(GitRepo.MERGE) ? "merge request " + c.getNewId().name()
                                : c.getOldId().name() + ".." + c.getNewId().name());
                    }
                }
            });
            return rp;
        });
        this.servlet = s;
    }

    /**
     * Serves the repository at {@code gitDir} (a store's bare repository); {@code merger} takes merge
     * requests; {@code pushes} hears the range of every accepted push ({@code OLD..NEW}), or
     * {@code merge request NEW}.
     *
     * @throws NotFoundException when {@code gitDir} is not a repository
     */
    public static GitHttp open(Path gitDir, boolean fsync, Merger merger, Consumer<String> pushes)
            throws NotFoundException {
        Objects.requireNonNull(gitDir, "gitDir");
        Objects.requireNonNull(merger, "merger");
        Objects.requireNonNull(pushes, "pushes");
        try {
            GitRepo repo = GitRepo.open(gitDir, fsync);
            if (repo == null) {
                throw new NotFoundException("no store at " + gitDir + " (not a git repository)");
            }
            return new GitHttp(repo, merger, pushes);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot open repository at " + gitDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The servlet to mount under the hub's git path ({@code /git/*}); the repository is the path's
     * root (JGit's servlet wants a repository name in the path: the root is given the name {@value #NAME}).
     */
    public HttpServlet servlet() {
        return new Root();
    }

    /** The repository name the root of the git path stands for. */
    private static final String NAME = "store";

    /** Hands requests for the git path's root to JGit's servlet as requests for {@value #NAME}. */
    private final class Root extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        public void init(jakarta.servlet.ServletConfig config) throws jakarta.servlet.ServletException {
            super.init(config);
            servlet.init(config);
        }

        @Override
        protected void service(HttpServletRequest req, jakarta.servlet.http.HttpServletResponse res)
                throws jakarta.servlet.ServletException, IOException {
            String info = req.getPathInfo() == null ? "" : req.getPathInfo();
            HttpServletRequest named = new jakarta.servlet.http.HttpServletRequestWrapper(req) {
                @Override
                public String getPathInfo() {
                    return "/" + NAME + info;
                }
            };
            if (!info.equals("/git-receive-pack")) {
                servlet.service(named, res);
                return;
            }
            // one push at a time, so the pack a refused push brought is known by its .keep file
            pushing.lock();
            try {
                servlet.service(named, res);
            } finally {
                pushing.unlock();
            }
        }

        @Override
        public void destroy() {
            servlet.destroy();
        }
    }

    private static Access access(HttpServletRequest req) throws ServiceNotAuthorizedException {
        if (req.getAttribute(ACCESS) instanceof Access a) {
            return a;
        }
        throw new ServiceNotAuthorizedException("a token is required");
    }

    /**
     * Sets what receive-pack advertises and checks commands against: the repository's refs and
     * {@link GitRepo#MERGE} at main's root commit (a constant, so a merge request never races on
     * the old id it sends).
     */
    private void advertise(ReceivePack rp) throws ServiceNotEnabledException {
        try {
            java.util.Map<String, org.eclipse.jgit.lib.Ref> refs = new java.util.LinkedHashMap<>();
            for (org.eclipse.jgit.lib.Ref r : repo.repository().getRefDatabase().getRefs()) {
                refs.put(r.getName(), r);
            }
            refs.remove(GitRepo.MERGE);
            ObjectId root = genesis();
            if (root != null) {
                refs.put(GitRepo.MERGE, new org.eclipse.jgit.lib.ObjectIdRef.PeeledNonTag(
                        org.eclipse.jgit.lib.Ref.Storage.NETWORK, GitRepo.MERGE, root));
            }
            rp.setAdvertisedRefs(refs, recentMain());
        } catch (IOException e) {
            throw new ServiceNotEnabledException("cannot list the repository's refs: " + e.getMessage(), e);
        }
    }

    /** Commits on main's first-parent line advertised to pushers as {@code .have}s, at most. */
    static final int ADVERTISED_HAVES = 256;

    /**
     * The latest {@value #ADVERTISED_HAVES} commits of main's first-parent line: a pusher whose view
     * of main is behind (main moved since its pull, the case of a merge request) finds the commit it
     * last fetched among them and sends only what lies beyond it, not its whole history.
     */
    private java.util.Set<ObjectId> recentMain() throws IOException {
        java.util.Set<ObjectId> haves = new java.util.HashSet<>();
        ObjectId tip = repo.head();
        if (tip == null) {
            return haves;
        }
        try (RevWalk w = new RevWalk(repo.repository())) {
            w.setRetainBody(false);
            org.eclipse.jgit.revwalk.RevCommit c = w.parseCommit(tip);
            while (haves.size() < ADVERTISED_HAVES) {
                haves.add(c.copy());
                if (c.getParentCount() == 0) {
                    break;
                }
                c = w.parseCommit(c.getParent(0));
            }
        }
        return haves;
    }

    /** Main's root commit (null while there is no main), found once. */
    private ObjectId genesis() throws IOException {
        ObjectId known = genesis.get();
        if (known != null) {
            return known;
        }
        ObjectId tip = repo.head();
        if (tip == null) {
            return null;
        }
        try (RevWalk w = new RevWalk(repo.repository())) {
            w.setRetainBody(false);
            org.eclipse.jgit.revwalk.RevCommit c = w.parseCommit(tip);
            while (c.getParentCount() > 0) {
                c = w.parseCommit(c.getParent(0));
            }
            genesis.compareAndSet(null, c.copy());
            return genesis.get();
        }
    }

    /** The pre-receive check: refs, direction, then the pull's audit of the incoming commits. */
    private final class Gate implements PreReceiveHook {
        private final ActorName actor;

        Gate(ActorName actor) {
            this.actor = actor;
        }

        @Override
        public void onPreReceive(ReceivePack rp, Collection<ReceiveCommand> commands) {
            boolean any = false;
            boolean mergeRequest = commands.stream().anyMatch(c -> c.getRefName().equals(GitRepo.MERGE));
            for (ReceiveCommand c : commands) {
                if (c.getResult() != ReceiveCommand.Result.NOT_ATTEMPTED) {
                    any = true;
                    continue;
                }
                String why;
                if (mergeRequest && commands.size() > 1) {
                    why = "a merge request (" + GitRepo.MERGE + ") is pushed alone";
                    rp.sendMessage("palimpsest: rejected: " + why);
                } else if (c.getRefName().equals(GitRepo.MERGE)) {
                    why = merged(rp, c);
                } else {
                    why = refused(rp, c);
                }
                if (why != null) {
                    c.setResult(ReceiveCommand.Result.REJECTED_OTHER_REASON, why);
                    any = true;
                }
            }
            if (any) {
                // atomic: one refused command refuses the push; its pack goes too, before the client hears
                // the refusal (receive-pack reads no object of it past this hook, and removes the .keep itself)
                discard(keptPacks());
            }
        }

        private String refused(ReceivePack rp, ReceiveCommand c) {
            if (!c.getRefName().equals(GitRepo.MAIN)) {
                rp.sendMessage("palimpsest: rejected " + c.getRefName() + ": a store's timeline is " + GitRepo.MAIN + " only");
                return "a store's timeline is " + GitRepo.MAIN + " only";
            }
            if (c.getType() == ReceiveCommand.Type.DELETE) {
                rp.sendMessage("palimpsest: rejected: " + GitRepo.MAIN + " cannot be deleted");
                return GitRepo.MAIN + " cannot be deleted";
            }
            ObjectId old = c.getOldId();
            boolean fromGenesis = old.equals(ObjectId.zeroId());
            if (!fromGenesis && !descends(c.getNewId(), old)) {
                rp.sendMessage("palimpsest: rejected: " + c.getNewId().name() + " does not descend from " + old.name()
                        + "; main is never rewritten");
                return "main is never rewritten (non-fast-forward)";
            }
            rp.sendMessage("palimpsest: auditing " + (fromGenesis ? "" : old.name() + "..") + c.getNewId().name());
            AuditReport report;
            try {
                report = new AuditEngine(repo, AuditEngine.standardChecks(repo, false))
                        .run(fromGenesis ? null : old, c.getNewId(), AuditProgress.none());
            } catch (RuntimeException e) {
                rp.sendError("palimpsest: the audit failed: " + e.getMessage());
                return "the audit failed: " + e.getMessage();
            }
            if (report.clean()) {
                rp.sendMessage("palimpsest: audited " + report.commits() + " commits: clean");
                return null;
            }
            return failedAudit(rp, report);
        }

        /**
         * A merge request: the merger audits and joins the pushed commit; on success the command is
         * marked done (receive-pack then writes no ref), else the refusal is returned.
         */
        private String merged(ReceivePack rp, ReceiveCommand c) {
            if (c.getType() != ReceiveCommand.Type.UPDATE && c.getType() != ReceiveCommand.Type.CREATE) {
                rp.sendMessage("palimpsest: rejected: " + GitRepo.MERGE + " cannot be deleted");
                return GitRepo.MERGE + " cannot be deleted";
            }
            if (actor == null) {
                return "no actor to sign a merge";
            }
            rp.sendMessage("palimpsest: auditing the commits main lacks up to " + c.getNewId().name());
            dev.palimpsest.model.PullResult r;
            try {
                r = merger.merge(c.getNewId(), actor);
            } catch (dev.palimpsest.model.PalimpsestException | RuntimeException e) {
                rp.sendMessage("palimpsest: rejected: " + e.getMessage() + "; main is unchanged");
                return e.getMessage();
            }
            if (r instanceof dev.palimpsest.model.PullResult.Refused x) {
                return failedAudit(rp, x.report());
            }
            String kind = r instanceof dev.palimpsest.model.PullResult.Merged ? "merged"
                    : r instanceof dev.palimpsest.model.PullResult.FastForward ? "fast-forward" : "up to date";
            rp.sendMessage("palimpsest: main is now " + r.head().hex() + " (" + kind + ")");
            c.setResult(ReceiveCommand.Result.OK);
            return null;
        }

        /** Prints the violations (at most {@value #MAX_PRINTED}) and the refusal to the pusher; returns the refusal. */
        private String failedAudit(ReceivePack rp, AuditReport report) {
            int printed = 0;
            for (AuditViolation v : report.violations()) {
                if (printed++ == MAX_PRINTED) {
                    rp.sendMessage("palimpsest: ... and " + (report.violations().size() - MAX_PRINTED) + " more");
                    break;
                }
                rp.sendMessage("palimpsest: " + v);
            }
            rp.sendMessage("palimpsest: rejected: the pushed commits fail the audit (" + report.violations().size()
                    + " violation(s) in " + report.violatingCommits() + " commit(s)); main is unchanged");
            return "the pushed commits fail the audit";
        }

        private boolean descends(ObjectId tip, ObjectId old) {
            try (RevWalk w = new RevWalk(repo.repository())) {
                return w.isMergedInto(w.parseCommit(old), w.parseCommit(tip));
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** The packs that have a {@code .keep} file now: during a push, the push's own. */
    private java.util.List<String> keptPacks() {
        java.nio.file.Path dir = repo.gitDir().resolve("objects").resolve("pack");
        java.util.List<String> out = new java.util.ArrayList<>();
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("pack-") && n.endsWith(".keep"))
                    .forEach(n -> out.add(n.substring(0, n.length() - ".keep".length())));
        } catch (IOException e) {
            // nothing to discard then: the objects stay unreachable until gc
        }
        return out;
    }

    /**
     * Deletes the packs a refused push brought (under the writer lock, so no compaction reads them
     * meanwhile): they are reachable from no ref, and main never moved.
     */
    private void discard(java.util.List<String> packs) {
        if (packs.isEmpty()) {
            return;
        }
        java.nio.file.Path dir = repo.gitDir().resolve("objects").resolve("pack");
        try (dev.palimpsest.internal.git.WriterLock.Held held = new dev.palimpsest.internal.git.WriterLock(repo.gitDir())
                .acquire()) {
            for (String pack : packs) {
                // the .pack first: a reader that lists packs then sees none, never a pack without its index
                for (String ext : new String[] {".pack", ".idx", ".rev", ".bitmap"}) {
                    java.nio.file.Files.deleteIfExists(dir.resolve(pack + ext));
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot remove the pack of a refused push: {}", e.getMessage());
        }
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GitHttp.class);

    /** Closes the repository (the container stops the servlet). */
    @Override
    public void close() {
        repo.close();
    }

}
