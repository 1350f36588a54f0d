package dev.palimpsest.internal.git;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
    /**
     * The ref a hub advertises to pushers (at its genesis commit, never updated): a push to it asks
     * the hub to audit the pushed commit and merge it into main (see store-layout.md, "Merge requests").
     */
    public static final String MERGE = "refs/palimpsest/merge";

    private static final int POOL_SIZE = 32;

    private final Repository repository;
    private final Path gitDir;
    private FilePool pool;
    private BackgroundRepack repack;
    private ChangedPaths changedPaths;
    /** Merged packs whose retirement waits for the background merge to end; guarded by the writer lock. */
    private final java.util.List<org.eclipse.jgit.internal.storage.file.Pack> unretired = new java.util.ArrayList<>();
    /** False when opened through a hook's quarantine: nothing derived is written then. */
    private final boolean writable;
    /** How long {@link #close} waits for a background merge to give up or finish retiring packs. */
    private static final long REPACK_WAIT_MILLIS = 10_000;
    /** How long {@link #close} waits for a commit-graph rewrite to finish, and then again for it to give up. */
    private static final long GRAPH_WAIT_MILLIS = 5_000;
    private final TreeCache trees = new TreeCache(64L << 20);
    private dev.palimpsest.internal.vault.Vault vault;

    static {
        // One process-wide pack cache, sized so a large store's hot trees stay in memory.
        org.eclipse.jgit.storage.file.WindowCacheConfig wc = new org.eclipse.jgit.storage.file.WindowCacheConfig();
        wc.setPackedGitLimit(512L << 20);
        wc.setPackedGitWindowSize(64 << 10);
        wc.setDeltaBaseCacheLimit(64 << 20);
        wc.setPackedGitOpenFiles(512);
        wc.install();
    }

    private GitRepo(Repository repository, Path gitDir) {
        this(repository, gitDir, true);
    }

    private GitRepo(Repository repository, Path gitDir, boolean writable) {
        this.repository = repository;
        this.gitDir = gitDir;
        this.writable = writable;
    }

    /** Creates a new bare repository at {@code dir}, whose HEAD points at {@code refs/heads/main}. */
    public static GitRepo create(Path dir, boolean fsync) throws IOException {
        Files.createDirectories(dir);
        Repository r = FileRepositoryBuilder.create(dir.toFile());
        r.create(true);
        configure(r, fsync);
        return new GitRepo(r, dir.toAbsolutePath().normalize());
    }

    private static void configure(Repository r, boolean fsync) throws IOException {
        StoredConfig cfg = r.getConfig();
        cfg.setBoolean("core", null, "logAllRefUpdates", false);
        cfg.setInt("gc", null, "auto", 0);
        cfg.save();
        RefUpdate head = r.updateRef(Constants.HEAD);
        head.disableRefLog();
        head.link(MAIN);
        applyFsync(r, fsync);
    }

    /**
     * True when {@code dir} is a bare repository without any object or ref (HEAD aside), as
     * {@code git init --bare} leaves it: a store may be created there.
     */
    public static boolean isEmptyRepository(Path dir) {
        if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve("HEAD"))
                || !Files.isDirectory(dir.resolve("objects")) || !Files.isDirectory(dir.resolve("refs"))) {
            return false;
        }
        try {
            Path packed = dir.resolve("packed-refs");
            if (Files.exists(packed) && Files.readAllLines(packed).stream()
                    .anyMatch(l -> !l.isBlank() && !l.startsWith("#"))) {
                return false;
            }
            try (var refs = Files.walk(dir.resolve("refs"));
                    var objects = Files.walk(dir.resolve("objects"))) {
                return refs.noneMatch(Files::isRegularFile)
                        && objects.filter(Files::isRegularFile).allMatch(p -> dir.resolve("objects/info").equals(p.getParent()));
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Makes the empty bare repository at {@code dir} (see {@link #isEmptyRepository}) a store's: HEAD to main. */
    public static GitRepo adoptEmpty(Path dir, boolean fsync) throws IOException {
        Repository r = new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true).build();
        configure(r, fsync);
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

    /**
     * Opens an existing repository for reading as a git hook sees it: {@code GIT_OBJECT_DIRECTORY}
     * and {@code GIT_ALTERNATE_OBJECT_DIRECTORIES} in {@code env}, when set, name the object folders
     * (during {@code pre-receive} the objects of the push sit in a quarantine folder named there).
     * Relative paths are resolved against the working directory. Returns null when {@code dir} is
     * not a repository.
     */
    public static GitRepo openForReading(Path dir, Map<String, String> env) throws IOException {
        if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve("HEAD"))
                || !Files.isDirectory(dir.resolve("objects"))) {
            return null;
        }
        FileRepositoryBuilder b = new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true);
        String objects = env.get("GIT_OBJECT_DIRECTORY");
        if (objects != null && !objects.isEmpty()) {
            b.setObjectDirectory(Path.of(objects).toAbsolutePath().toFile());
        }
        String alternates = env.get("GIT_ALTERNATE_OBJECT_DIRECTORIES");
        if (alternates != null) {
            for (String alt : alternates.split(File.pathSeparator)) {
                if (!alt.isEmpty()) {
                    b.addAlternateObjectDirectory(Path.of(alt).toAbsolutePath().toFile());
                }
            }
        }
        return new GitRepo(b.build(), dir.toAbsolutePath().normalize(), false);
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

    /** A new object reader that serves trees from this repository's tree cache. */
    public org.eclipse.jgit.lib.ObjectReader newReader() {
        return trees.wrap(repository.newObjectReader());
    }

    /** The cache of inflated trees shared by this repository's readers and writer. */
    public TreeCache trees() {
        return trees;
    }

    /**
     * The small packs an inline compaction merged and has not retired yet, because a background merge
     * was running (see {@link PackCompactor#compact}); only used under the writer lock.
     */
    public java.util.List<org.eclipse.jgit.internal.storage.file.Pack> unretired() {
        return unretired;
    }

    /** The changed-path filters of this repository's commit-graph file. */
    public synchronized ChangedPaths changedPaths() {
        if (changedPaths == null) {
            changedPaths = new ChangedPaths(this, writable);
        }
        return changedPaths;
    }

    /** The background repack of this repository's large packs. */
    public synchronized BackgroundRepack repack() {
        if (repack == null) {
            repack = new BackgroundRepack(this);
        }
        return repack;
    }

    /** The key vault beside this repository (sealed facts' data keys); keys are fsynced when the repository is. */
    public synchronized dev.palimpsest.internal.vault.Vault vault() {
        if (vault == null) {
            vault = new dev.palimpsest.internal.vault.Vault(gitDir,
                    repository.getConfig().getBoolean("core", null, "fsyncObjectFiles", true));
        }
        return vault;
    }

    /** The pool of pre-created files for the write path, started on first use. */
    public synchronized FilePool pool() {
        if (pool == null) {
            pool = new FilePool(gitDir, POOL_SIZE);
        }
        return pool;
    }

    /**
     * The tip of main, or null when the store has no commit yet. The loose ref file is read
     * directly (no cache can hide another process's update); a packed ref is read through JGit.
     */
    public ObjectId head() {
        try {
            String loose = Files.readString(gitDir.resolve(MAIN), java.nio.charset.StandardCharsets.US_ASCII).trim();
            if (ObjectId.isId(loose)) {
                return ObjectId.fromString(loose);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // not loose: packed, or absent
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + MAIN + " in " + gitDir, e);
        }
        try {
            Ref ref = repository.exactRef(MAIN);
            return ref == null ? null : ref.getObjectId();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + MAIN + " in " + gitDir, e);
        }
    }

    /**
     * Closes the repository: a background merge of packs gives up first (or finishes retiring the
     * packs it replaced; at most {@value #REPACK_WAIT_MILLIS} ms are waited) and a rewrite of the
     * commit-graph file finishes (or gives up after {@value #GRAPH_WAIT_MILLIS} ms), so that no thread of
     * this process changes the object folder once it is closed.
     */
    @Override
    public void close() {
        BackgroundRepack merging;
        ChangedPaths graph;
        synchronized (this) {
            merging = repack;
            graph = changedPaths;
        }
        if (merging != null) { // outside the monitor: the merging thread may need it to finish retiring
            merging.close(REPACK_WAIT_MILLIS);
        }
        if (graph != null) {
            graph.close(GRAPH_WAIT_MILLIS);
        }
        synchronized (this) {
            if (pool != null) {
                pool.close();
            }
            repository.close();
        }
    }
}
