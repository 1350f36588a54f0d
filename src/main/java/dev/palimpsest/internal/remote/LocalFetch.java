package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.audit.AuditStream;
import dev.palimpsest.internal.git.GitRepo;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.util.FS;

/**
 * A fetch from a remote that is a repository on this machine (a path or a {@code file://} URL),
 * without JGit's in-process upload-pack, whose pipe hands the pack over 1 KiB at a time between two
 * threads and whose pack writer searches for deltas, and without any pack stream at all:
 * {@link ObjectCopy} reads each object main lacks from the remote, hashes it (collision-detecting
 * SHA-1) and keeps it only when it is the object of its id, as a fetch over the wire hashes every
 * object it indexes. The incoming commits are audited while they are copied ({@link AuditStream}).
 * Not thread-safe.
 */
final class LocalFetch {
    private LocalFetch() {}

    /** The remote's git directory when {@code url} names a repository on this machine, else null. */
    static File localGitDir(String url) {
        try {
            URIish u = new URIish(url);
            if (u.getHost() != null || u.getScheme() != null && !"file".equals(u.getScheme())) {
                return null;
            }
            File dir = new File(u.getPath());
            File git = RepositoryCache.FileKey.resolve(dir, FS.DETECTED);
            return git;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Copies the objects of the remote's {@code main} that {@code repo} lacks into {@code repo},
     * offering each copied commit to {@code audit} as soon as it and what it reaches are readable
     * (through {@code unflushed} until their pack is written), so the audit runs during the copy;
     * returns the remote's main, or null when it has no main.
     */
    static Transport.Fetched fetch(GitRepo repo, File remoteGitDir, ProgressMonitor monitor, AuditStream audit,
            Unflushed unflushed) throws IOException {
        try (Repository remote = new FileRepositoryBuilder().setGitDir(remoteGitDir).setMustExist(true).build()) {
            Ref main = remote.exactRef(GitRepo.MAIN);
            if (main == null || main.getObjectId() == null) {
                return null;
            }
            ObjectId tip = main.getObjectId().copy();
            if (repo.repository().getObjectDatabase().has(tip)) {
                return new Transport.Fetched(tip, false);
            }
            List<ObjectId> have = new ArrayList<>();
            for (Ref r : repo.repository().getRefDatabase().getRefs()) {
                ObjectId id = r.getObjectId();
                if (id != null && remote.getObjectDatabase().has(id)) {
                    have.add(id);
                }
            }
            ObjectCopy.copy(repo, remote, tip, have, monitor, unflushed, audit::offer);
            return new Transport.Fetched(tip, true);
        }
    }
}
