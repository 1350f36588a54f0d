package dev.palimpsest.internal.search;

import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.git.TreeDiff;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Reads commits numbered {@code from..to} of main's first-parent chain from git, in order: each
 * commit, the fact files it changed ({@link TreeChanges#diff}) and those files decoded (a file that
 * does not decode is left out: it states nothing to find, and the audit reports it). A long range
 * is read on a worker thread, a bounded queue ahead of the caller, so diffing and decoding overlap
 * the caller's indexing; a short one on the caller's thread, a reader per commit. Not thread-safe:
 * one caller iterates with {@link #next}, then closes.
 */
final class CommitReads implements AutoCloseable {
    /** Ranges at least this long are read ahead on a worker thread. */
    static final int AHEAD_FROM = 64;
    private static final int QUEUE = 256;

    /** One commit as read: its number, the commit, its changes (path to new blob or null) and decoded facts by path. */
    record Read(int seq, RevCommit commit, Map<String, ObjectId> changes, Map<String, Fact> facts) {}

    private static final Read END = new Read(-1, null, Map.of(), Map.of());

    private final GitRepo repo;
    private final java.util.List<ObjectId> commits;
    private final int from;
    private final int to;
    private int next;
    private final BlockingQueue<Object> ahead;
    private final Thread worker;
    private volatile boolean stop;

    CommitReads(GitRepo repo, ClaimsIndex claims, int from, int to) {
        this(repo, claims.commits(from, to), from);
    }

    /** Reads {@code commits}, numbered from {@code from} (a copy the claims index gave at one moment). */
    CommitReads(GitRepo repo, java.util.List<ObjectId> commits, int from) {
        this.repo = repo;
        this.commits = java.util.List.copyOf(commits);
        this.from = from;
        this.next = from;
        this.to = from + commits.size() - 1;
        ahead = queue(from, to);
        if (ahead != null) {
            worker = new Thread(this::readAhead, "palimpsest-search-reads");
            worker.setDaemon(true);
            worker.start();
        } else {
            worker = null;
        }
    }

    /** The queue of a range long enough to read on a worker thread; null for a short one. */
    @dev.palimpsest.model.DoNotMutate("speed only: either way the same commits are read, in order")
    private static BlockingQueue<Object> queue(int from, int to) {
        return to - from + 1 >= AHEAD_FROM ? new ArrayBlockingQueue<>(QUEUE) : null;
    }

    /** The next commit of the range, or null after the last. */
    Read next() throws IOException {
        if (ahead == null) {
            if (next > to) {
                return null;
            }
            try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
                return read(next++, reader, walk, TreeChanges.differ(reader));
            }
        }
        Object o;
        try {
            o = ahead.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading commits for the search index", e);
        }
        if (o instanceof IOException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (o instanceof RuntimeException e) {
            throw new PalimpsestInternalException("cannot read commits for the search index: " + e.getMessage(), e);
        }
        return o == END ? null : (Read) o;
    }

    private void readAhead() {
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
            TreeDiff differ = TreeChanges.differ(reader);
            for (int seq = next; seq <= to && !stop; seq++) {
                ahead.put(read(seq, reader, walk, differ));
            }
            ahead.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            ahead.offer(e);
        }
    }

    private Read read(int seq, ObjectReader reader, RevWalk walk, TreeDiff differ) throws IOException {
        RevCommit c = walk.parseCommit(commits.get(seq - from));
        Map<String, ObjectId> changes = TreeChanges.diff(differ, walk, c);
        Map<String, Fact> facts = new HashMap<>();
        for (Map.Entry<String, ObjectId> e : changes.entrySet()) {
            if (e.getValue() == null || !TreeChanges.inFactFolder(e.getKey())) {
                continue;
            }
            try {
                facts.put(e.getKey(), CanonicalFacts.fact(reader.open(e.getValue()).getCachedBytes(Snapshot.MAX_READ),
                        e.getKey(), repo.vault()));
            } catch (FormatException | RuntimeException ex) {
                // a malformed file states nothing to find; the audit reports it
            }
        }
        return new Read(seq, c, changes, facts);
    }

    @Override
    public void close() {
        if (worker == null) {
            return;
        }
        stop = true; // not an interrupt: an interrupted channel would close a pack file under JGit
        boolean interrupted = false;
        while (worker.isAlive()) {
            ahead.clear();
            try {
                worker.join(10);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
