package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.audit.SignaturePrecheck;
import dev.palimpsest.internal.audit.VerifiedSignatures;
import dev.palimpsest.internal.git.GitRepo;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.internal.storage.pack.PackWriter;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.storage.pack.PackConfig;
import org.eclipse.jgit.transport.PackParser;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.util.FS;

/**
 * A fetch from a remote that is a repository on this machine (a path or a {@code file://} URL),
 * without JGit's in-process upload-pack, whose pipe hands the pack over 1 KiB at a time between two
 * threads and whose pack writer searches for deltas. Here JGit's pack writer reads the remote
 * repository and writes the objects main lacks (no delta search; deltas already stored are reused;
 * never thin) to a temporary file, and JGit's pack parser indexes it into this repository,
 * hashing every object, exactly as a fetch over the wire does. Not thread-safe.
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
     * verifying the incoming commits' signatures meanwhile ({@link SignaturePrecheck}); returns the
     * remote's main and those signatures, or null when it has no main.
     */
    static Transport.Fetched fetch(GitRepo repo, File remoteGitDir, ProgressMonitor monitor) throws IOException {
        try (Repository remote = new FileRepositoryBuilder().setGitDir(remoteGitDir).setMustExist(true).build()) {
            Ref main = remote.exactRef(GitRepo.MAIN);
            if (main == null || main.getObjectId() == null) {
                return null;
            }
            ObjectId tip = main.getObjectId().copy();
            if (repo.repository().getObjectDatabase().has(tip)) {
                return new Transport.Fetched(tip, VerifiedSignatures.NONE);
            }
            List<ObjectId> have = new ArrayList<>();
            for (Ref r : repo.repository().getRefDatabase().getRefs()) {
                ObjectId id = r.getObjectId();
                if (id != null && remote.getObjectDatabase().has(id)) {
                    have.add(id);
                }
            }
            SignaturePrecheck precheck = SignaturePrecheck.start(remote, tip, have,
                    SignaturePrecheck.keysAt(repo.repository(), repo.head()));
            try {
                copy(repo, remote, tip, have, monitor);
            } finally {
                precheck.await();
            }
            return new Transport.Fetched(tip, precheck);
        }
    }

    private static void copy(GitRepo repo, Repository remote, ObjectId tip, List<ObjectId> have, ProgressMonitor monitor)
            throws IOException {
        PackConfig config = new PackConfig(remote);
        config.setDeltaCompress(false);
        config.setReuseDeltas(true);
        config.setReuseObjects(true);
        Path tmp = Files.createTempFile(repo.gitDir(), "fetch-", ".pack");
        try {
            try (PackWriter pw = new PackWriter(config, remote.newObjectReader());
                    OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                pw.setThin(false);
                pw.setUseBitmaps(true);
                pw.preparePack(monitor, Set.of(tip), Set.copyOf(have));
                pw.writePack(monitor, monitor, out);
            }
            try (ObjectInserter ins = repo.repository().newObjectInserter();
                    InputStream in = new java.io.BufferedInputStream(Files.newInputStream(tmp), 1 << 16)) {
                PackParser parser = ins.newPackParser(in);
                parser.setAllowThin(false);
                parser.parse(monitor);
                ins.flush();
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
