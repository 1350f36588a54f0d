package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.audit.AuditStream;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.transport.FetchResult;
import org.eclipse.jgit.transport.PushResult;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteConfig;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.URIish;

/**
 * The git side of replication through JGit's transports (file, git, ssh, smart http): the remotes
 * recorded in the repository's config, a fetch of a remote's {@code main} into the quarantine ref
 * {@code refs/palimpsest/quarantine/<remote>}, and a push of {@code main} that never forces.
 * Thread-safe as far as JGit's repository is.
 */
public final class Transport {
    /** The prefix of quarantine refs. */
    public static final String QUARANTINE = "refs/palimpsest/quarantine/";

    private final GitRepo repo;

    public Transport(GitRepo repo) {
        this.repo = repo;
    }

    /** The remotes, sorted by name. */
    public List<Remote> remotes() {
        try {
            List<Remote> out = new ArrayList<>();
            for (RemoteConfig rc : RemoteConfig.getAllRemoteConfigs(repo.repository().getConfig())) {
                if (!rc.getURIs().isEmpty()) {
                    out.add(new Remote(rc.getName(), rc.getURIs().get(0).toString()));
                }
            }
            return out; // JGit lists the remotes by name (RemotesAndQuarantineTest pins it)
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new PalimpsestInternalException("the repository's remotes are malformed: " + e.getMessage(), e);
        }
    }

    /** The URL of {@code name}. */
    public Remote remote(String name) throws NotFoundException {
        for (Remote r : remotes()) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        throw new NotFoundException("no remote named '" + name + "' (add it with: remote add " + name + " URL)");
    }

    /** Records a new remote. */
    public void add(Remote r) throws ConflictException, RejectedException {
        for (Remote have : remotes()) {
            if (have.name().equals(r.name())) {
                throw new ConflictException("a remote named '" + r.name() + "' exists (" + have.url() + ")");
            }
        }
        try {
            URIish uri = new URIish(r.url());
            StoredConfig cfg = repo.repository().getConfig();
            RemoteConfig rc = new RemoteConfig(cfg, r.name());
            rc.addURI(uri);
            rc.addFetchRefSpec(new RefSpec("+" + GitRepo.MAIN + ":" + Constants.R_REMOTES + r.name() + "/main"));
            rc.setTagOpt(TagOpt.NO_TAGS);
            rc.update(cfg);
            cfg.save();
        } catch (URISyntaxException e) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "url", "'" + r.url() + "' is not a git URL: "
                    + e.getMessage());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the repository's config: " + e.getMessage(), e);
        }
    }

    /** Forgets a remote and its quarantine ref. */
    public void remove(String name) throws NotFoundException {
        remote(name);
        try {
            StoredConfig cfg = repo.repository().getConfig();
            cfg.unsetSection("remote", name);
            cfg.save();
            deleteRef(QUARANTINE + name);
            deleteRef(Constants.R_REMOTES + name + "/main");
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the repository's config: " + e.getMessage(), e);
        }
    }

    /**
     * What a fetch brought: the remote's main, and whether it is known to have been absent from the
     * object database before the fetch (so it cannot be main or one of its ancestors; false when not
     * known).
     */
    public record Fetched(ObjectId tip, boolean arrived) {}

    /**
     * Fetches the remote's {@code main} into {@code refs/palimpsest/quarantine/<name>}; from a
     * remote on this machine every copied commit is offered to
     * {@code audit} while the copy goes on, its objects readable through {@code unflushed} (a
     * fetch over a transport offers nothing: {@link AuditStream#finish} then audits all of it).
     *
     * @throws NotFoundException when there is no remote of that name, no git repository at its URL,
     *     or no {@code main} in it
     */
    public Fetched fetchAuditing(String name, TransferProgress progress, AuditStream audit, Unflushed unflushed)
            throws NotFoundException {
        Remote remote = remote(name);
        String quarantine = QUARANTINE + name;
        java.io.File local = LocalFetch.localGitDir(remote.url());
        if (local != null) {
            try {
                Fetched got = LocalFetch.fetch(repo, local, new Monitor(progress), audit, unflushed);
                if (got == null) {
                    throw new NotFoundException("remote '" + name + "' has no " + GitRepo.MAIN + " (an empty hub: push to it)");
                }
                RefUpdate u = repo.repository().updateRef(quarantine);
                u.setNewObjectId(got.tip());
                u.setForceUpdate(true);
                u.disableRefLog();
                u.update();
                return got;
            } catch (IOException e) {
                throw failure("fetch from", remote, e);
            }
        }
        try {
            FetchResult r = Git.wrap(repo.repository()).fetch().setRemote(name)
                    .setRefSpecs(new RefSpec("+" + GitRepo.MAIN + ":" + quarantine)).setTagOpt(TagOpt.NO_TAGS)
                    .setProgressMonitor(new Monitor(progress)).setRemoveDeletedRefs(false)
                    .setCredentialsProvider(credentials()).call();
            Ref advertised = r.getAdvertisedRef(GitRepo.MAIN);
            if (advertised == null || advertised.getObjectId() == null) {
                throw new NotFoundException("remote '" + name + "' has no " + GitRepo.MAIN + " (an empty hub: push to it)");
            }
            return new Fetched(advertised.getObjectId().copy(), false);
        } catch (GitAPIException e) {
            throw failure("fetch from", remote, e);
        }
    }

    /**
     * The credentials a hub asks for ({@code palimpsest serve}: its token as the HTTP password): the
     * token in {@code $PALIMPSEST_TOKEN} when set, else null (JGit's default: the user and password
     * in the remote's URL, if any).
     */
    static org.eclipse.jgit.transport.CredentialsProvider credentials() {
        String token = System.getenv("PALIMPSEST_TOKEN");
        if (token == null || token.isBlank()) {
            return null;
        }
        return new org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider("palimpsest", token.strip());
    }

    /** Deletes a ref (the quarantine after adoption); absent is fine. */
    public void deleteRef(String ref) throws IOException {
        if (repo.repository().exactRef(ref) == null) {
            return;
        }
        RefUpdate u = repo.repository().updateRef(ref);
        u.setForceUpdate(true);
        u.delete(); // a deleted ref's reflog goes with it
    }

    /**
     * What a push did: the remote's main before it (null: none; as advertised) and after it, and
     * whether the remote (a hub) merged the pushed commit rather than moving main to it.
     */
    public record Pushed(ObjectId old, ObjectId head, boolean merged) {}

    /**
     * Pushes {@code local} to the remote's {@code main}, never forcing. When the remote's main has
     * commits {@code local} lacks and the remote is a hub (it advertises {@link GitRepo#MERGE}), the
     * push asks it to merge instead: the hub audits {@code local}'s commits and joins them into its
     * main (fast-forward, or a merge commit signed by the pusher's actor) and says where main is now.
     *
     * @throws NotFoundException when there is no remote of that name or no git repository at its URL
     * @throws ConflictException when the remote's main has commits {@code local} lacks (pull first)
     *     and it merges no pushes
     * @throws RejectedException when the remote refused the update (its pre-receive hook, the hub's audit)
     */
    public Pushed push(String name, ObjectId local, TransferProgress progress)
            throws NotFoundException, ConflictException, RejectedException {
        Remote remote = remote(name);
        PushResult r = pushOnce(remote, local, GitRepo.MAIN, progress);
        RemoteRefUpdate u = r.getRemoteUpdate(GitRepo.MAIN);
        switch (u.getStatus()) {
            case OK:
            case UP_TO_DATE:
                return new Pushed(advertisedOld(r), local.copy(), false);
            case REJECTED_NONFASTFORWARD:
            case REJECTED_REMOTE_CHANGED:
                return merge(remote, r, local, progress, "has commits main lacks");
            case REJECTED_OTHER_REASON:
                if (movedMeanwhile(u.getMessage())) {
                    // the remote's main moved between its advertisement (or the push's audit) and the update
                    return merge(remote, r, local, progress, "main moved during the push");
                }
                throw refused(remote, r, u, GitRepo.MAIN);
            default:
                throw refused(remote, r, u, GitRepo.MAIN);
        }
    }

    /** The push to a hub's merge ref, after {@code first} found main moved; a conflict when it is no hub. */
    private Pushed merge(Remote remote, PushResult first, ObjectId local, TransferProgress progress, String why)
            throws NotFoundException, ConflictException, RejectedException {
        if (first.getAdvertisedRef(GitRepo.MERGE) == null) {
            throw new ConflictException("remote '" + remote.name() + "' " + why + ": pull first");
        }
        PushResult r = pushOnce(remote, local, GitRepo.MERGE, progress);
        RemoteRefUpdate u = r.getRemoteUpdate(GitRepo.MERGE);
        if (u.getStatus() != RemoteRefUpdate.Status.OK) {
            throw refused(remote, r, u, GitRepo.MERGE);
        }
        java.util.regex.Matcher m = MAIN_NOW.matcher(r.getMessages() == null ? "" : r.getMessages());
        if (!m.find()) {
            throw new PalimpsestInternalException("remote '" + remote.name() + "' took the merge request without saying"
                    + " where its main is now");
        }
        ObjectId head = ObjectId.fromString(m.group(1));
        return new Pushed(advertisedOld(r), head, m.group(2).equals("merged"));
    }

    /** The line a hub sends after taking a merge request: {@code palimpsest: main is now HEX (KIND)}. */
    public static final java.util.regex.Pattern MAIN_NOW =
            java.util.regex.Pattern.compile("palimpsest: main is now ([0-9a-f]{40}) \\((merged|fast-forward|up to date)\\)");

    private PushResult pushOnce(Remote remote, ObjectId local, String ref, TransferProgress progress)
            throws NotFoundException {
        try {
            for (PushResult r : Git.wrap(repo.repository()).push().setRemote(remote.name())
                    .setRefSpecs(new RefSpec(local.name() + ":" + ref))
                    .setProgressMonitor(new Monitor(progress)).setCredentialsProvider(credentials()).call()) {
                if (r.getRemoteUpdate(ref) != null) {
                    return r;
                }
            }
            throw new PalimpsestInternalException("the push to '" + remote.name() + "' reported nothing for " + ref);
        } catch (GitAPIException e) {
            throw failure("push to", remote, e);
        }
    }

    private static RejectedException refused(Remote remote, PushResult r, RemoteRefUpdate u, String ref) {
        String messages = r.getMessages() == null ? "" : r.getMessages().strip();
        return new RejectedException(Rule.REMOTE_REJECTED, "remote " + remote.name(), "refused the update of "
                + ref + " (" + u.getStatus() + (u.getMessage() == null ? "" : ": " + u.getMessage()) + ")"
                + (messages.isEmpty() ? "" : "; it said: " + messages));
    }

    /**
     * Why a transfer with {@code remote} failed: not found when no git repository answers at its
     * URL (thrown), else an internal failure naming the cause (returned, for the caller to throw).
     */
    private static PalimpsestInternalException failure(String verb, Remote remote, Exception e)
            throws NotFoundException {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof NoRemoteRepositoryException) {
                throw new NotFoundException("remote '" + remote.name() + "' (" + remote.url()
                        + ") has no git repository at its URL");
            }
        }
        return new PalimpsestInternalException("cannot " + verb + " remote '" + remote.name() + "': " + e.getMessage(), e);
    }

    /**
     * Whether a receive-pack refusal says the ref moved under the push (JGit's messages when the old
     * id sent no longer matches, or the ref's lock was held by a concurrent update): a race, not a
     * refusal of the commits.
     */
    private static boolean movedMeanwhile(String message) {
        return message != null && (message.equals("invalid old id sent") || message.equals("failed to lock"));
    }

    private static ObjectId advertisedOld(PushResult r) {
        Ref old = r.getAdvertisedRef(GitRepo.MAIN);
        return old == null || old.getObjectId() == null ? null : old.getObjectId().copy();
    }

    /** JGit's progress monitor over a {@link TransferProgress}. */
    static final class Monitor implements ProgressMonitor {
        private final TransferProgress out;
        private String task = "";
        private int total;
        private int done;

        Monitor(TransferProgress out) {
            this.out = out;
        }

        @Override
        public void start(int totalTasks) {
        }

        @Override
        public void beginTask(String title, int totalWork) {
            task = title;
            total = totalWork == UNKNOWN ? 0 : totalWork;
            done = 0;
            out.update(task, done, total);
        }

        @Override
        public void update(int completed) {
            done += completed;
            out.update(task, done, total);
        }

        @Override
        public void endTask() {
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public void showDuration(boolean enabled) {
        }
    }
}
