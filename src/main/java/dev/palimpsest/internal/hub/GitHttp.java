package dev.palimpsest.internal.hub;

import dev.palimpsest.internal.audit.AuditEngine;
import dev.palimpsest.internal.git.GitRepo;
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
 * client ({@code remote: ...}) and main is left untouched. The dumb protocol is off. Thread-safe.
 */
public final class GitHttp implements AutoCloseable {
    /** The request attribute carrying the caller's {@link Access}. */
    public static final String ACCESS = "dev.palimpsest.hub.GitAccess";
    /** Violations printed to the pusher, at most (the rest are counted). */
    static final int MAX_PRINTED = 50;

    /** What the caller of a git request may do. */
    public enum Access { READ, WRITE }

    private final GitRepo repo;
    private final GitServlet servlet;
    private final java.util.concurrent.locks.ReentrantLock pushing = new java.util.concurrent.locks.ReentrantLock(true);

    private GitHttp(GitRepo repo, Consumer<String> pushes) {
        this.repo = repo;
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
            rp.setPreReceiveHook(new Gate());
            rp.setPostReceiveHook((pack, commands) -> {
                for (ReceiveCommand c : commands) {
                    if (c.getResult() == ReceiveCommand.Result.OK) {
                        pushes.accept(c.getOldId().name() + ".." + c.getNewId().name());
                    }
                }
            });
            return rp;
        });
        this.servlet = s;
    }

    /**
     * Serves the repository at {@code gitDir} (a store's bare repository); {@code pushes} hears the
     * range of every accepted push ({@code OLD..NEW}).
     *
     * @throws NotFoundException when {@code gitDir} is not a repository
     */
    public static GitHttp open(Path gitDir, boolean fsync, Consumer<String> pushes) throws NotFoundException {
        Objects.requireNonNull(gitDir, "gitDir");
        Objects.requireNonNull(pushes, "pushes");
        try {
            GitRepo repo = GitRepo.open(gitDir, fsync);
            if (repo == null) {
                throw new NotFoundException("no store at " + gitDir + " (not a git repository)");
            }
            return new GitHttp(repo, pushes);
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

    /** The pre-receive check: refs, direction, then the pull's audit of the incoming commits. */
    private final class Gate implements PreReceiveHook {
        @Override
        public void onPreReceive(ReceivePack rp, Collection<ReceiveCommand> commands) {
            boolean any = false;
            for (ReceiveCommand c : commands) {
                if (c.getResult() != ReceiveCommand.Result.NOT_ATTEMPTED) {
                    any = true;
                    continue;
                }
                String why = refused(rp, c);
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
                for (String ext : new String[] {".bitmap", ".rev", ".idx", ".pack"}) {
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
