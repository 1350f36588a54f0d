package dev.palimpsest.internal.git;

import dev.palimpsest.api.PalimpsestInternalException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * A bare git repository holding one store, whose timeline is {@code refs/heads/main}.
 * Thread-safe (JGit's repository is); close once.
 */
public final class GitRepo implements AutoCloseable {
    public static final String MAIN = "refs/heads/main";

    private final Repository repository;
    private final Path gitDir;

    private GitRepo(Repository repository, Path gitDir) {
        this.repository = repository;
        this.gitDir = gitDir;
    }

    /** Creates a new bare repository at {@code dir}, whose HEAD points at {@code refs/heads/main}. */
    public static GitRepo create(Path dir, boolean fsync) throws IOException {
        Files.createDirectories(dir);
        Repository r = FileRepositoryBuilder.create(dir.toFile());
        r.create(true);
        StoredConfig cfg = r.getConfig();
        cfg.setBoolean("core", null, "logAllRefUpdates", false);
        cfg.setInt("gc", null, "auto", 0);
        cfg.save();
        RefUpdate head = r.updateRef(Constants.HEAD);
        head.disableRefLog();
        head.link(MAIN);
        applyFsync(r, fsync);
        return new GitRepo(r, dir.toAbsolutePath().normalize());
    }

    /** Opens an existing bare repository; returns null when {@code dir} is not one. */
    public static GitRepo open(Path dir, boolean fsync) throws IOException {
        File f = dir.toFile();
        if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve("HEAD"))
                || !Files.isDirectory(dir.resolve("objects"))) {
            return null;
        }
        Repository r = new FileRepositoryBuilder().setGitDir(f).setMustExist(true).build();
        applyFsync(r, fsync);
        return new GitRepo(r, dir.toAbsolutePath().normalize());
    }

    private static void applyFsync(Repository r, boolean fsync) {
        StoredConfig cfg = r.getConfig();
        cfg.setBoolean("core", null, "fsyncObjectFiles", fsync);
        cfg.setBoolean("core", null, "fsyncRefFiles", fsync);
    }

    public Repository repository() {
        return repository;
    }

    public Path gitDir() {
        return gitDir;
    }

    /** The tip of main, or null when the store has no commit yet. */
    public ObjectId head() {
        try {
            Ref ref = repository.exactRef(MAIN);
            return ref == null ? null : ref.getObjectId();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + MAIN + " in " + gitDir, e);
        }
    }

    @Override
    public void close() {
        repository.close();
    }
}
