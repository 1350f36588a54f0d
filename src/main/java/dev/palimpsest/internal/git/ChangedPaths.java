package dev.palimpsest.internal.git;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jgit.internal.storage.commitgraph.ChangedPathFilter;
import org.eclipse.jgit.internal.storage.commitgraph.CommitGraph;
import org.eclipse.jgit.internal.storage.commitgraph.CommitGraphLoader;
import org.eclipse.jgit.internal.storage.commitgraph.CommitGraphWriter;
import org.eclipse.jgit.internal.storage.commitgraph.GraphCommits;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The changed-path Bloom filters of the repository's commit-graph file ({@code objects/info/commit-graph},
 * git's own format, which git reads too): for a commit in the file, a filter that proves a path did
 * not change against the commit's first parent (a root: against the empty tree), so a path-limited
 * walk skips that commit's tree diff. The file is derived from the commits alone and only ever
 * speeds a walk up: a commit it does not hold (newer than the file, or in a commit of more than 512
 * changed paths) is diffed as before, and a missing or unreadable file is no file.
 *
 * <p>Loaded on first use and again whenever the file changes (its size, time or file key; checked
 * once per {@link #view()}). Rewritten on a daemon thread when a walk met {@value #STALE_AFTER}
 * or more commits the file lacks ({@link #walked}): one writer at a time across processes holds
 * {@code palimpsest-commit-graph.lock}, reuses the filters already in the file, writes a temporary
 * file beside it and renames it over the old one, so a reader sees the old file or the new one.
 * Thread-safe.
 */
public final class ChangedPaths {
    /** The commits a walk may meet outside the file before a rewrite starts. */
    public static final int STALE_AFTER = 64;
    static final String FILE = "objects/info/commit-graph";
    private static final String TEMP_PREFIX = "commit-graph.palimpsest-";
    /** A temporary file older than this is a dead writer's and is deleted by the next writer. */
    private static final long STALE_TEMP_MILLIS = 10 * 60_000L;

    private final GitRepo repo;
    private final boolean writable;
    private final Path file;
    private final Path lockFile;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean closing;
    private volatile Thread thread;
    private volatile Loaded loaded = Loaded.NONE;
    /** Tells JGit's writer to stop once the repository is closing. */
    private final ProgressMonitor cancel = new Cancel(() -> closing);

    private record Stamp(long size, long modified, Object key) {}

    private record Loaded(Stamp stamp, CommitGraph graph) {
        static final Loaded NONE = new Loaded(null, CommitGraph.EMPTY);
    }

    /** The filters as one walk sees them: the file as it was when the view was taken. Not thread-safe. */
    public static final class View {
        private final CommitGraph graph;
        private int uncovered;

        private View(CommitGraph graph) {
            this.graph = graph;
        }

        /**
         * True when {@code commit}'s filter proves that none of {@code paths} (UTF-8, no leading or
         * trailing slash) changed against its first parent; false when one may have, or when the file
         * holds no filter for the commit (counted, see {@link #uncovered()}).
         */
        public boolean surelyUnchanged(AnyObjectId commit, List<byte[]> paths) {
            int pos = graph.findGraphPosition(commit);
            ChangedPathFilter f = pos < 0 ? null : graph.getChangedPathFilter(pos);
            if (f == null) {
                uncovered++;
                return false;
            }
            for (byte[] p : paths) {
                if (f.maybeContains(p)) {
                    return false;
                }
            }
            return true;
        }

        /** How many commits asked about had no filter in the file. */
        public int uncovered() {
            return uncovered;
        }
    }

    ChangedPaths(GitRepo repo, boolean writable) {
        this.repo = Objects.requireNonNull(repo, "repo");
        this.writable = writable;
        this.file = repo.gitDir().resolve(FILE);
        this.lockFile = repo.gitDir().resolve("palimpsest-commit-graph.lock");
    }

    /** The paths as the filters hash them: UTF-8 bytes. */
    public static List<byte[]> encode(List<String> paths) {
        return paths.stream().map(p -> p.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** The filters of the file as it is now (reloaded when it changed since the last view). */
    public View view() {
        return new View(current().graph());
    }

    /** How many commits the file as it is now holds. */
    public long commits() {
        return current().graph().getCommitCnt();
    }

    /**
     * After a walk: starts a rewrite on a daemon thread when the walk met {@value #STALE_AFTER} or
     * more commits without a filter and at least 1/256 as many as the file holds (so a rewrite of a
     * long history is paid for by as many new commits), unless one runs here already or the repository is read through
     * a hook's quarantine.
     */
    public void walked(View view) {
        if (view.uncovered() >= Math.max(STALE_AFTER, view.graph.getCommitCnt() / 256)) {
            maybeStart();
        }
    }

    /** Starts a rewrite of the file on a daemon thread, unless one runs here or the repository is closing. */
    public void maybeStart() {
        if (!writable || closing || !running.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                write();
            } catch (IOException | RuntimeException e) {
                // the file stays as it was (or absent); a later walk tries again
            } finally {
                thread = null;
                running.set(false);
            }
        }, "palimpsest-commit-graph");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * Rewrites the file now, in the calling thread, to hold every commit reachable from the
     * repository's refs with its filter; returns false without writing when another writer (of any
     * process) holds the lock, when the file already holds every ref's commit, or when closing.
     */
    public boolean write() throws IOException {
        if (!writable) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException writingHere) {
                return false;
            }
            if (lock == null) {
                return false;
            }
            try {
                return writeLocked();
            } finally {
                lock.release();
            }
        }
    }

    private boolean writeLocked() throws IOException {
        deleteDeadTemporaries();
        CommitGraph old = current().graph();
        Set<ObjectId> wants = new HashSet<>();
        for (Ref r : repo.repository().getRefDatabase().getRefs()) {
            ObjectId id = r.getPeeledObjectId() != null ? r.getPeeledObjectId() : r.getObjectId();
            if (id != null) {
                wants.add(id);
            }
        }
        if (wants.isEmpty() || wants.stream().allMatch(w -> old.findGraphPosition(w) >= 0)) {
            return false;
        }
        Files.createDirectories(file.getParent());
        Path temp = Files.createTempFile(file.getParent(), TEMP_PREFIX, ".tmp");
        boolean moved = false;
        try (ObjectReader reader = withGraph(repo.repository().newObjectReader(), old);
                RevWalk walk = new RevWalk(reader)) {
            GraphCommits commits = GraphCommits.fromWalk(cancel, wants, walk);
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    OutputStream out = new java.io.BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
                new CommitGraphWriter(commits, true).write(cancel, out);
                out.flush();
                ch.force(true);
            }
            if (closing) {
                return false;
            }
            readOnlyForAll(temp);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
            return true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Before the repository closes: waits at most {@code waitMillis} for a rewrite to finish (one
     * that reuses the file's filters takes a fraction of a second, so a short-lived process still
     * leaves its file behind), then makes it give up (its temporary file deleted) and waits as long
     * again. No rewrite starts afterwards.
     */
    void close(long waitMillis) {
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            join(t, waitMillis);
        }
        closing = true;
        t = thread;
        if (t != null && t != Thread.currentThread()) {
            join(t, waitMillis);
        }
    }

    private static void join(Thread t, long millis) {
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Loaded current() {
        Stamp now = stamp();
        Loaded l = loaded;
        if (Objects.equals(now, l.stamp())) {
            return l;
        }
        CommitGraph g = CommitGraph.EMPTY;
        if (now != null) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                g = CommitGraphLoader.read(in, true);
            } catch (IOException | RuntimeException unreadable) {
                g = CommitGraph.EMPTY; // corrupt, truncated or replaced while read: as if absent
            }
        }
        Loaded fresh = new Loaded(now, g);
        loaded = fresh;
        return fresh;
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(a.size(), a.lastModifiedTime().toMillis(), a.fileKey());
        } catch (IOException absent) {
            return null;
        }
    }

    /** As git leaves its own: readable by all, written by none (the file is replaced, never changed). */
    private static void readOnlyForAll(Path p) throws IOException {
        if (Files.getFileStore(p).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--"));
        }
    }

    private void deleteDeadTemporaries() {
        long cutoff = System.currentTimeMillis() - STALE_TEMP_MILLIS;
        try (var files = Files.newDirectoryStream(file.getParent(), TEMP_PREFIX + "*")) {
            for (Path p : files) {
                if (Files.getLastModifiedTime(p).toMillis() < cutoff) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException ignored) {
            // nothing to clean, or cleaned by another writer
        }
    }

    /** A reader that hands JGit's walk and writer the loaded graph, so the writer reuses its filters. */
    private static ObjectReader withGraph(ObjectReader base, CommitGraph graph) {
        return new ObjectReader.Filter() {
            @Override
            protected ObjectReader delegate() {
                return base;
            }

            @Override
            public Optional<CommitGraph> getCommitGraph() {
                return Optional.of(graph);
            }
        };
    }
}
