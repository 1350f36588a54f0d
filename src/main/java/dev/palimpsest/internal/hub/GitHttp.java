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

    private GitHttp(GitRepo repo, Consumer<String> pushes) {
        this.repo = repo;
        GitServlet s = new GitServlet();
        s.setRepositoryResolver((HttpServletRequest req, String name) -> {
            if (!name.isEmpty() && !name.equals("/")) {
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
            rp.setAllowNonFastForwards(false);
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

    /** The servlet to mount under the hub's git path ({@code /git/*}); the repository is the path's root. */
    public HttpServlet servlet() {
        return servlet;
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
            for (ReceiveCommand c : commands) {
                if (c.getResult() != ReceiveCommand.Result.NOT_ATTEMPTED) {
                    continue;
                }
                String why = refused(rp, c);
                if (why != null) {
                    c.setResult(ReceiveCommand.Result.REJECTED_OTHER_REASON, why);
                }
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

    /** Closes the repository (the container stops the servlet). */
    @Override
    public void close() {
        repo.close();
    }

}
