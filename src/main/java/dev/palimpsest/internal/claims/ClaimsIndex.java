package dev.palimpsest.internal.claims;

import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.WriterLock;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The claims index: for every commit of main's first-parent chain (a sequence number each), the
 * versions of every claim (kind {@code entity-claim}) as intervals of commits, grouped by
 * normalised subject; the supersessions ({@code supersedes} refs of any live fact) as intervals;
 * and the multi-valued predicates of the config. Answers {@link ClaimQueries}' questions at any
 * indexed commit without reading git.
 *
 * <p>Derived from git: persisted as {@code palimpsest-index/claims-v1.log} (see {@link ClaimsLog}),
 * bound to the store's genesis, loaded and caught up with main on open, caught up with a commit
 * this process writes from the writer's own changes (as a {@link Writer.CommitListener}), and
 * caught up from git whenever a commit asked about is not indexed yet. A log that is missing,
 * corrupt, of another format or store, or disagrees with git is rebuilt from git, saying so in one
 * line logged (slf4j). The file is rewritten atomically (temporary file, then rename) or
 * appended to whole records, always under the writer lock. Thread-safe (synchronized).
 */
public final class ClaimsIndex implements Writer.CommitListener {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClaimsIndex.class);
    static final String FILE = "claims-v1.log";

    /** One version of a claim, live over commits [from, to). */
    static final class Version {
        final ClaimRecord claim;
        final int from;
        int to = Integer.MAX_VALUE;
        /** True when the version ended by a retraction (false: by a revision, or still live). */
        boolean retracted;

        Version(ClaimRecord claim, int from) {
            this.claim = claim;
            this.from = from;
        }

        boolean liveAt(int seq) {
            return from <= seq && seq < to;
        }
    }

    /** A supersession: {@code by} supersedes {@code target} over commits [from, to). */
    static final class Sup {
        final String by;
        final String target;
        final int from;
        int to = Integer.MAX_VALUE;

        Sup(String by, String target, int from) {
            this.by = by;
            this.target = target;
            this.from = from;
        }

        boolean liveAt(int seq) {
            return from <= seq && seq < to;
        }
    }

    private final GitRepo repo;
    private final Path file;
    private final WriterLock lock;
    private final List<ObjectId> commits = new ArrayList<>();
    private final Map<ObjectId, Integer> seqOf = new HashMap<>();
    private final List<String> actors = new ArrayList<>();
    private final List<byte[]> framed = new ArrayList<>();
    final Map<String, List<Version>> bySubject = new HashMap<>();
    private final Map<String, Version> liveVersion = new HashMap<>();
    private final Map<String, List<Sup>> supersededBy = new HashMap<>();
    private final Map<String, List<Sup>> supsOf = new HashMap<>();
    private final TreeMap<Integer, Set<String>> multiValued = new TreeMap<>();
    /** Records [0, persistedCount) are in the file, which was persistedLength bytes long. */
    private int persistedCount;
    private long persistedLength = -1;
    private boolean persistable = true;
    private int rebuilds;

    private ClaimsIndex(GitRepo repo) {
        this.repo = repo;
        this.file = repo.gitDir().resolve("palimpsest-index").resolve(FILE);
        this.lock = new WriterLock(repo.gitDir());
    }

    /** Loads the persisted index (rebuilding it when unusable), catches it up with main and saves it. */
    public static ClaimsIndex open(GitRepo repo) {
        ClaimsIndex idx = new ClaimsIndex(repo);
        if (Files.exists(idx.file, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(idx.file, LinkOption.NOFOLLOW_LINKS)) {
            idx.persistable = false;
            LOG.warn(idx.file + " is not a regular file; the claims index is kept in memory only");
        } else {
            String problem;
            try {
                problem = idx.load();
            } catch (IOException | RuntimeException e) {
                problem = "unreadable: " + e.getMessage();
            }
            if (problem != null) {
                idx = new ClaimsIndex(repo);
                idx.rebuilds = 1;
                notice((problem.equals("missing") ? "building the claims index " : "discarded the claims index ")
                        + idx.file + " (" + problem + "); rebuilding it from git");
            }
        }
        ObjectId head = repo.head();
        if (head != null) {
            synchronized (idx) {
                idx.catchUp(head);
            }
        }
        try (WriterLock.Held held = idx.lock.acquire()) {
            synchronized (idx) {
                // under the lock no forget lands: caught up to this tip, what is saved holds nothing one erased
                ObjectId now = repo.head();
                if (now != null) {
                    idx.catchUp(now);
                }
                idx.persistHeld();
            }
        }
        return idx;
    }

    private static void notice(String message) {
        LOG.info(message);
    }

    /** How many times this index was rebuilt from git on open (0 or 1). */
    public synchronized int rebuilds() {
        return rebuilds;
    }

    /** The number of commits indexed. */
    public synchronized int commitCount() {
        return commits.size();
    }

    /** The first commit indexed (the store's genesis), or null while nothing is indexed. */
    public synchronized ObjectId genesis() {
        return commits.isEmpty() ? null : commits.get(0);
    }

    /** The commits numbered {@code from..to} (indexed), a copy. */
    public synchronized List<ObjectId> commits(int from, int to) {
        return new ArrayList<>(commits.subList(from, to + 1));
    }

    /** Reads the log; null when it checks out against git, else why not ("missing" when absent). */
    private String load() throws IOException {
        if (!Files.exists(file)) {
            return "missing";
        }
        byte[] bytes = Files.readAllBytes(file);
        List<CacheLog.Framed<CommitRecord>> records;
        ObjectId genesis;
        try {
            genesis = ClaimsLog.genesis(bytes);
            records = ClaimsLog.records(bytes);
        } catch (CacheLog.Corrupt e) {
            return e.getMessage();
        }
        try (RevWalk walk = new RevWalk(repo.repository())) {
            RevCommit g = parse(walk, genesis);
            if (g == null || g.getParentCount() != 0) {
                return "its genesis " + genesis.name() + " is not a root commit of this store";
            }
            ObjectId prev = null;
            for (CacheLog.Framed<CommitRecord> r : records) {
                CommitRecord rec = r.record();
                if (prev == null ? !rec.commit().equals(genesis) || rec.parent() != null
                        : !prev.equals(rec.parent())) {
                    return "its records do not form one first-parent chain from the genesis";
                }
                apply(rec, r.bytes());
                prev = rec.commit();
            }
            if (prev != null) {
                RevCommit last = parse(walk, prev);
                CommitRecord rec = records.get(records.size() - 1).record();
                if (last == null) {
                    return "it names commit " + prev.name() + ", which this store does not have";
                }
                ObjectId first = last.getParentCount() == 0 ? null : last.getParent(0);
                if (first == null ? rec.parent() != null : !first.equals(rec.parent())) {
                    return "commit " + prev.name() + " has another first parent here";
                }
            }
        }
        persistedCount = framed.size();
        persistedLength = bytes.length;
        return null;
    }

    private static RevCommit parse(RevWalk walk, ObjectId id) {
        try {
            return walk.parseCommit(id);
        } catch (IOException e) {
            return null;
        }
    }

    /** Bumped whenever the index starts again (another first-parent chain, a forget crossed): commit numbers taken before may mean other commits. */
    private int epoch;

    /** The number of times this index started again; commit numbers are comparable only within one epoch. */
    public synchronized int epoch() {
        return epoch;
    }

    /** Work done under this index's lock. */
    @FunctionalInterface
    public interface Atomic<T, E extends Exception> {
        /** Does the work. */
        T run() throws E;
    }

    /**
     * Runs {@code work} holding this index's lock, so that the commit numbers it takes stay valid
     * throughout: no other thread's catch-up can start the index again (renumbering commits) in
     * between. The work must be short and must not wait for the writer lock (a writer holding it
     * waits for this lock to add its commit).
     */
    public synchronized <T, E extends Exception> T atomically(Atomic<T, E> work) throws E {
        return work.run();
    }

    /** The sequence number of {@code commit} when already indexed, else -1 (no catching up). */
    public synchronized int indexedSeq(ObjectId commit) {
        Integer s = seqOf.get(commit);
        return s == null ? -1 : s;
    }

    /** The sequence number of {@code commit} on main's first-parent chain, catching up; -1 if not there. */
    public synchronized int seq(ObjectId commit) {
        Integer s = seqOf.get(commit);
        if (s == null) {
            ObjectId head = repo.head();
            if (head != null) {
                catchUp(head);
            }
            s = seqOf.get(commit);
            if (s == null) {
                // a commit of main's past that main no longer reaches, or another branch: index from it
                return -1;
            }
        }
        return s;
    }

    /**
     * The sequence number of main's tip, read and caught up to under this index's lock, so a main
     * that moves meanwhile (even onto another first-parent chain) cannot make it unknown; -1 for a
     * store without commits.
     */
    public synchronized int headSeq() {
        ObjectId head = repo.head();
        if (head == null) {
            return -1;
        }
        catchUp(head);
        return seqOf.get(head);
    }

    /**
     * The commit with sequence number {@code seq} on main's first-parent chain, catching up to main's
     * tip first when {@code seq} is past what is indexed (another thread may have started the index
     * again from an older commit since the number was handed out).
     *
     * @throws IllegalStateException when main's first-parent chain is now shorter than {@code seq}:
     *     main moved onto another history, and the number belongs to an earlier {@link #epoch}
     */
    public synchronized ObjectId commitAt(int seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("commit numbers start at 0: " + seq);
        }
        if (seq >= commits.size()) {
            ObjectId head = repo.head();
            if (head != null) {
                catchUp(head);
            }
            if (seq >= commits.size()) {
                throw new IllegalStateException("commit number " + seq + " is past main's first-parent history ("
                        + commits.size() + " commits): main moved onto another history");
            }
        }
        return commits.get(seq);
    }

    /** Whether a live fact supersedes fact {@code id} at commit number {@code seq}. */
    public synchronized boolean supersededAt(String id, int seq) {
        return supersessionAt(id, seq) != null;
    }

    synchronized String actorAt(int seq) {
        return actors.get(seq);
    }

    /** The multi-valued predicate keys of the config at commit number {@code seq}. */
    public synchronized Set<String> multiValuedAt(int seq) {
        var e = multiValued.floorEntry(seq);
        return e == null ? Set.of() : e.getValue();
    }

    synchronized List<Version> aboutSubject(String subjectKey) {
        List<Version> vs = bySubject.get(subjectKey);
        return vs == null ? List.of() : vs;
    }

    synchronized Iterable<String> subjects() {
        return new ArrayList<>(bySubject.keySet());
    }

    /** The supersession of {@code id} live at {@code seq} (earliest, then smallest id), or null. */
    synchronized Sup supersessionAt(String id, int seq) {
        List<Sup> sups = supersededBy.get(id);
        if (sups == null) {
            return null;
        }
        Sup best = null;
        for (Sup s : sups) {
            if (s.liveAt(seq) && (best == null || s.from < best.from || (s.from == best.from
                    && s.by.compareTo(best.by) < 0))) {
                best = s;
            }
        }
        return best;
    }

    // ---- building ----

    private void apply(CommitRecord r, byte[] frame) {
        int seq = commits.size();
        ObjectId c = r.commit().copy();
        commits.add(c);
        seqOf.put(c, seq);
        actors.add(r.actor());
        framed.add(frame);
        if (r.multiValued() != null) {
            multiValued.put(seq, Set.copyOf(new TreeSet<>(r.multiValued())));
        }
        for (CommitRecord.Event e : r.events()) {
            if (e instanceof CommitRecord.Removed) {
                Version v = liveVersion.remove(e.id());
                if (v != null) {
                    v.to = seq;
                    v.retracted = true;
                }
                List<Sup> sups = supsOf.remove(e.id());
                if (sups != null) {
                    sups.forEach(s -> s.to = seq);
                }
            } else if (e instanceof CommitRecord.Written w) {
                Version old = liveVersion.remove(w.id());
                if (old != null) {
                    old.to = seq;
                }
                if (w.claim() != null) {
                    Version v = new Version(w.claim(), seq);
                    bySubject.computeIfAbsent(w.claim().subjectKey(), k -> new ArrayList<>()).add(v);
                    liveVersion.put(w.id(), v);
                }
                List<Sup> mine = supsOf.get(w.id());
                for (String t : w.supersedes()) {
                    if (mine != null && mine.stream().anyMatch(s -> s.target.equals(t))) {
                        continue;
                    }
                    Sup s = new Sup(w.id(), t, seq);
                    supersededBy.computeIfAbsent(t, k -> new ArrayList<>()).add(s);
                    mine = supsOf.computeIfAbsent(w.id(), k -> new ArrayList<>());
                    mine.add(s);
                }
            }
        }
    }

    private boolean tracked(String id) {
        return liveVersion.containsKey(id) || supsOf.containsKey(id);
    }

    /** Indexes main's first-parent chain up to {@code target}; rebuilds when it does not extend what is indexed. */
    private void catchUp(ObjectId target) {
        if (seqOf.containsKey(target)) {
            return;
        }
        if (last() != null && dev.palimpsest.internal.forget.Tombstones.addedBetween(repo, last(), target)) {
            forgetAll(); // what it holds of the facts forgotten since may be plaintext: start again from git
        }
        List<RevCommit> todo = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo.repository()); ObjectReader reader = repo.newReader()) {
            RevCommit c = walk.parseCommit(target);
            ObjectId last = last();
            while (true) {
                if (seqOf.containsKey(c)) {
                    if (!c.equals(last)) {
                        rebuildInMemory("main no longer extends the indexed history");
                        catchUp(target);
                        return;
                    }
                    break;
                }
                todo.add(c);
                if (c.getParentCount() == 0) {
                    if (!commits.isEmpty()) {
                        rebuildInMemory("the indexed history is not main's");
                        catchUp(target);
                        return;
                    }
                    break;
                }
                c = walk.parseCommit(c.getParent(0));
            }
            for (int i = todo.size() - 1; i >= 0; i--) {
                CommitRecord r = CommitRecords.fromGit(reader, walk, todo.get(i), repo.vault(), this::tracked);
                apply(r, ClaimsLog.frame(r));
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot index claims up to " + target.name(), e);
        }
    }

    /** The last commit indexed, or null. */
    private ObjectId last() {
        return commits.isEmpty() ? null : commits.get(commits.size() - 1);
    }

    private void rebuildInMemory(String why) {
        notice("discarded the claims index " + file + " (" + why + "); rebuilding it from git");
        rebuilds++;
        forgetAll();
    }

    /** Drops everything indexed (the file is rewritten whole at the next save). */
    private void forgetAll() {
        epoch++;
        commits.clear();
        seqOf.clear();
        actors.clear();
        framed.clear();
        bySubject.clear();
        liveVersion.clear();
        supersededBy.clear();
        supsOf.clear();
        multiValued.clear();
        persistedCount = 0;
        persistedLength = -1;
    }

    // ---- the writer's own commits ----

    @Override
    public synchronized void committed(ObjectId commit, ObjectId parent, ActorName actor,
            Map<String, ObjectId> changes, Map<String, Fact> facts) {
        try {
            if (Objects.equals(parent, last()) && !forgets(changes)) {
                try (ObjectReader reader = repo.newReader()) {
                    CommitRecord r = CommitRecords.of(reader, commit, parent, actor.value(), changes, facts, repo.vault(),
                            this::tracked);
                    apply(r, ClaimsLog.frame(r));
                }
            } else {
                catchUp(commit);
            }
            persistHeld();
        } catch (IOException | RuntimeException e) {
            // the commit landed; the next question catches the index up from git
            LOG.warn("could not update the claims index after " + commit.name() + ": " + e.getMessage());
        }
    }

    /** True when {@code changes} add a tombstone: the facts it forgets may be held here in plaintext. */
    private static boolean forgets(Map<String, ObjectId> changes) {
        for (Map.Entry<String, ObjectId> e : changes.entrySet()) {
            if (e.getValue() != null && e.getKey().startsWith(dev.palimpsest.internal.layout.StorePaths.TOMBSTONES + "/")) {
                return true;
            }
        }
        return false;
    }

    // ---- persistence ----

    /** Saves what is not in the file yet; the caller holds the writer lock. */
    private void persistHeld() {
        if (!persistable || commits.isEmpty() || persistedCount == framed.size()) {
            return;
        }
        try {
            persistedLength = CacheLog.save(file, ClaimsLog.header(commits.get(0)), framed, persistedCount,
                    persistedLength);
            persistedCount = framed.size();
        } catch (IOException e) {
            LOG.warn("cannot save the claims index " + file + ": " + e.getMessage());
        }
    }
}
