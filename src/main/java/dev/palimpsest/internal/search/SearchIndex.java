package dev.palimpsest.internal.search;

import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The search index: one Lucene document per fact version ({@link FactDocs}) with its validity
 * interval in commit numbers of main's first-parent chain (the numbering of the {@link
 * ClaimsIndex}), so a question at commit C filters on {@code from <= C < to}.
 *
 * <p>Derived from git, persisted in {@code <gitdir>/palimpsest-index/search-v1/}; each Lucene commit
 * carries the manifest (format, genesis, indexed commit and its number) as commit user data, so the
 * documents and the commit they describe are saved atomically. On open the index is reused when the
 * manifest names this store's genesis and a commit on main's first-parent chain at its number, then
 * caught up from there; it is rebuilt from git, saying so through its logger (with progress on the
 * logger {@code dev.palimpsest.progress}), when missing, unreadable, of another format or store, or off main's history. Writes of
 * this process are applied from the writer's own changes ({@link Writer.CommitListener}); the Lucene
 * commit follows at most every second and on {@link #close}, which also saves the merges {@link
 * #finishMerges} waited for (a crash loses only what the next open catches up from git). When another process holds the index, this one keeps an in-memory index
 * rebuilt from git. Thread-safe (synchronized writes; searches use refreshed searchers).
 */
public final class SearchIndex implements Writer.CommitListener, AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SearchIndex.class);
    /** Where catch-up progress goes: a logger of its own, so a program can show it (or not) apart from notices. */
    private static final org.slf4j.Logger PROGRESS = org.slf4j.LoggerFactory.getLogger("dev.palimpsest.progress");
    static final String DIR = "search-v1";
    static final String FORMAT = "palimpsest-search-8";
    /** Write-ups per embedding batch while catching up: texts of many commits go to the model at once. */
    static final int EMBED_BATCH = 256;
    private static final long COMMIT_EVERY_NANOS = 1_000_000_000L;

    private final GitRepo repo;
    private final ClaimsIndex claims;
    private final Path path;
    private Directory directory;
    private IndexWriter writer;
    private SearcherManager searchers;
    private boolean persistent;
    private ObjectId indexed;
    private int indexedSeq = -1;
    /** Fact id -> first commit number of its live (open) version. */
    private final Map<String, Integer> openFrom = new HashMap<>();
    private int rebuilds;
    private boolean changed;
    private long lastCommit = System.nanoTime();
    private final Map<ObjectId, Long> times = new HashMap<>();
    /** The semantic channel's embedder ({@link dev.palimpsest.model.Embedder#NONE}: none). */
    private final dev.palimpsest.model.Embedder embedder;
    /** The documents live at the commits asked about lately, shared by every reader of this index. */
    private final LiveSets live = new LiveSets();
    /** Its vectors by blob id (null without an embedder). */
    private dev.palimpsest.internal.embed.VectorCache vectors;

    private SearchIndex(GitRepo repo, ClaimsIndex claims, dev.palimpsest.model.Embedder embedder) {
        this.repo = repo;
        this.claims = claims;
        this.path = repo.gitDir().resolve("palimpsest-index").resolve(DIR);
        this.embedder = java.util.Objects.requireNonNull(embedder, "embedder");
    }

    /** Opens (reusing, or rebuilding) the index of {@code repo} without a semantic channel and catches it up with main. */
    public static SearchIndex open(GitRepo repo, ClaimsIndex claims) {
        return open(repo, claims, dev.palimpsest.model.Embedder.NONE);
    }

    /**
     * Opens (reusing, or rebuilding) the index of {@code repo} whose semantic channel is {@code
     * embedder} (a model, not a built-in name; {@link dev.palimpsest.model.Embedder#NONE}: none) and
     * catches it up with main, embedding what its vector cache lacks.
     */
    public static SearchIndex open(GitRepo repo, ClaimsIndex claims, dev.palimpsest.model.Embedder embedder) {
        SearchIndex idx = new SearchIndex(repo, claims, embedder);
        idx.awaitClosingHolder(); // without the writer lock: the holder takes it to save its merges
        if (embedder.dimensions() > 0) {
            idx.vectors = dev.palimpsest.internal.embed.VectorCache.open(repo.gitDir(), embedder);
        }
        // under the writer lock: no process deletes the folder (Scrub) while this one creates or opens it
        try (dev.palimpsest.internal.git.WriterLock.Held held = new dev.palimpsest.internal.git.WriterLock(repo.gitDir())
                .acquire()) {
            idx.start();
            idx.saveUnderWriterLock();
        } catch (IOException | RuntimeException e) {
            idx.closeQuietly();
            idx.closeVectors();
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new PalimpsestInternalException("cannot open the search index " + idx.path, e);
        }
        return idx;
    }

    private void start() throws IOException {
        int headSeq = claims.headSeq();
        String problem;
        try {
            if (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path)) {
                TreeChanges.deleteTree(path); // something else at its path: the caller holds the writer lock
            }
            problem = Files.isDirectory(path) && hasCommit() ? null : "missing";
            Files.createDirectories(path);
            directory = FSDirectory.open(path);
            try {
                // the writer takes Lucene's lock before anything in the folder is judged or changed
                writer = new IndexWriter(directory, config(IndexWriterConfig.OpenMode.CREATE_OR_APPEND));
            } catch (LockObtainFailedException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                closeQuietly();
                problem = "unreadable: " + e.getMessage();
                clearHeld();
                directory = FSDirectory.open(path);
                writer = new IndexWriter(directory, config(IndexWriterConfig.OpenMode.CREATE));
            }
            persistent = true;
            Files.deleteIfExists(closingMarker()); // a holder that wrote it holds the lock no more
            if (problem == null) {
                problem = check();
            }
            if (problem == null) {
                try {
                    loadOpen();
                } catch (IOException | RuntimeException e) {
                    problem = "unreadable: " + e.getMessage();
                }
            }
            if (problem != null) {
                notice((problem.equals("missing") ? "building the search index " : "discarded the search index ")
                        + path + " (" + problem + "); rebuilding it from git");
                rebuilds = 1;
                writer.deleteAll();
                openFrom.clear();
                indexed = null;
                indexedSeq = -1;
            }
        } catch (LockObtainFailedException e) {
            inMemory("another process holds " + path);
            problem = "in memory";
        }
        searchers = new SearcherManager(writer, SEARCHERS);
        if (headSeq >= 0) {
            catchUpTo(headSeq, problem != null);
        }
    }

    /** True when the folder holds a Lucene commit point. */
    private boolean hasCommit() {
        try (Directory d = FSDirectory.open(path)) {
            return SegmentInfos.getLastCommitGeneration(d) >= 0;
        } catch (IOException | RuntimeException e) {
            return true; // let the open say what is wrong
        }
    }

    /** Deletes every file of a folder Lucene cannot open, holding its lock (none: {@link LockObtainFailedException}). */
    private void clearHeld() throws IOException {
        try (Directory d = FSDirectory.open(path);
                org.apache.lucene.store.Lock held = d.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            for (String f : d.listAll()) {
                if (!f.equals(IndexWriter.WRITE_LOCK_NAME)) {
                    d.deleteFile(f);
                }
            }
        }
    }

    /**
     * Catches up with main's tip and saves, under the writer lock, where no forget lands: what is
     * saved describes a tip no tombstone follows yet. Only while no other thread can hold this
     * object's monitor (on open): the writer takes the monitor under the writer lock.
     */
    private void saveUnderWriterLock() throws IOException {
        try (dev.palimpsest.internal.git.WriterLock.Held held = new dev.palimpsest.internal.git.WriterLock(repo.gitDir())
                .acquire()) {
            int now = claims.headSeq();
            if (now >= 0 && writer != null) {
                catchUpTo(now, false);
            }
            commitNow();
        }
    }

    /** Starts over in memory (its writer could not take the lock); no version was loaded, so none is open. */
    private void inMemory(String why) throws IOException {
        closeQuietly();
        notice("keeping the search index in memory (" + why + "); building it from git");
        directory = new ByteBuffersDirectory();
        writer = new IndexWriter(directory, config(IndexWriterConfig.OpenMode.CREATE));
        persistent = false;
        indexed = null;
        indexedSeq = -1;
    }

    /** Searchers without Lucene's query cache: every query here is a one-off (its filters name a commit). */
    private static final SearcherFactory SEARCHERS = new SearcherFactory() {
        @Override
        public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
            return new UncachedSearcher(reader);
        }
    };

    private static final class UncachedSearcher extends IndexSearcher {
        @dev.palimpsest.model.DoNotMutate("speed only: Lucene's query cache changes no hit")
        UncachedSearcher(IndexReader reader) {
            super(reader);
            setQueryCache(null);
        }
    }

    /**
     * The documents buffered before Lucene writes a segment: an eighth of the heap, from 64 to 512
     * MB. A rebuild of 100,000 facts with vectors (about 2.6 kB each while buffered) then writes one
     * segment: its one HNSW graph answers a question in 1.2 ms where four graphs of a quarter the size
     * took 3.0 ms, for half as much again graph building. A question's refresh writes what is
     * buffered whatever its size.
     */
    static final double RAM_BUFFER_MB = Math.max(64, Math.min(512, Runtime.getRuntime().maxMemory() / 8.0 / (1 << 20)));

    /**
     * Segments under this size count as this size in Lucene's tiered merges (Lucene 9's default is 2
     * MB; 16 MB, about 9,000 documents with vectors of the local model, is Lucene's own default since
     * 10.2): a store grown by writes then keeps few small segments, each of which costs every
     * question an HNSW graph and a term lookup. Measured growing an index to 100k facts by writes
     * (docs/recall.md): 10-12 segments whose largest holds 72-87k documents, warm search 3.9-4.3 ms,
     * against 13-18 segments (the largest 35-42k) and 4.7-4.8 ms.
     */
    static final double FLOOR_SEGMENT_MB = 16;

    static IndexWriterConfig config(IndexWriterConfig.OpenMode mode) {
        IndexWriterConfig c = new IndexWriterConfig(FactDocs.analyzer());
        c.setOpenMode(mode);
        c.setSimilarity(new BM25Similarity());
        c.setRAMBufferSizeMB(RAM_BUFFER_MB);
        c.setCommitOnClose(false);
        org.apache.lucene.index.TieredMergePolicy merges = new org.apache.lucene.index.TieredMergePolicy();
        merges.setFloorSegmentMB(FLOOR_SEGMENT_MB);
        c.setMergePolicy(merges);
        // a commit saves the index under the writer lock, so it does not wait for merges of what it flushed
        // (Lucene waits up to 500 ms by default); those run on Lucene's merge threads like any other
        c.setMaxFullFlushMergeWaitMillis(0);
        return c;
    }

    /** Null when the persisted manifest describes a commit of this store's main at its number; else why not. */
    private String check() {
        Map<String, String> data;
        try (Directory d = FSDirectory.open(path)) {
            data = SegmentInfos.readLatestCommit(d).getUserData();
        } catch (IOException | RuntimeException e) {
            return "unreadable: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (!FORMAT.equals(data.get("format"))) {
            return "its format is " + data.get("format") + ", not " + FORMAT;
        }
        if (!embedder.name().equals(data.get("embedder"))) {
            return "its vectors are of embedder " + data.get("embedder") + ", not " + embedder.name();
        }
        ObjectId genesis = claims.genesis();
        if (genesis == null || !genesis.name().equals(data.get("genesis"))) {
            return "it belongs to the store whose genesis is " + data.get("genesis");
        }
        try {
            ObjectId c = ObjectId.fromString(data.get("commit"));
            int seq = Integer.parseInt(data.get("seq"));
            if (claims.indexedSeq(c) != seq) {
                return "its commit " + c.name() + " is not on main's history at number " + seq;
            }
            indexed = c;
            indexedSeq = seq;
        } catch (RuntimeException e) {
            return "its manifest is damaged: " + e.getMessage();
        }
        return null;
    }

    /** Reads which versions are open (to == OPEN) from the doc values. */
    private void loadOpen() throws IOException {
        try (DirectoryReader r = DirectoryReader.open(writer)) {
            for (LeafReaderContext leaf : r.leaves()) {
                NumericDocValues to = leaf.reader().getNumericDocValues(FactDocs.TO);
                NumericDocValues from = leaf.reader().getNumericDocValues(FactDocs.FROM);
                SortedDocValues ids = leaf.reader().getSortedDocValues(FactDocs.ID);
                if (to == null) {
                    continue;
                }
                for (int doc = to.nextDoc(); doc != NumericDocValues.NO_MORE_DOCS; doc = to.nextDoc()) {
                    if (to.longValue() == FactDocs.OPEN && from.advanceExact(doc) && ids.advanceExact(doc)) {
                        openFrom.put(ids.lookupOrd(ids.ordValue()).utf8ToString(), (int) from.longValue());
                    }
                }
            }
        }
    }

    private static void notice(String message) {
        LOG.info(message);
    }

    /** How many times the index was rebuilt from git on open (0 or 1). */
    public synchronized int rebuilds() {
        return rebuilds;
    }

    /** Whether the index lives on disk (false: another process held it, kept in memory). */
    public synchronized boolean persistent() {
        return persistent;
    }

    /** The commit number the index reached. */
    public synchronized int indexedSeq() {
        return indexedSeq;
    }

    /** The claims index whose commit numbering this index shares. */
    public ClaimsIndex claims() {
        return claims;
    }

    /** Catches up with main from git (as a question would); returns how many commits were applied. */
    public synchronized int catchUpToHead() throws IOException {
        int before = indexedSeq;
        int head = claims.headSeq();
        if (head >= 0) {
            catchUpTo(head, false);
        }
        return indexedSeq - before;
    }

    /** A searcher over every version indexed up to {@code seq} at least (catching up from git first). */
    synchronized IndexSearcher acquire(int seq) throws IOException {
        if (searchers == null) {
            throw new IllegalStateException("the search index " + path + " was dropped (a forget was seen); ask again");
        }
        catchUpTo(seq, false);
        searchers.maybeRefreshBlocking();
        return searchers.acquire();
    }

    synchronized void release(IndexSearcher s) throws IOException {
        s.getIndexReader().decRef(); // what SearcherManager.release does, also after the index was closed or discarded
    }

    /** Brings the index up to commit number {@code target} of main, from git. */
    private void catchUpTo(int asked, boolean progress) throws IOException {
        // the numbers are judged and the commits taken under the claims index's lock: a catch-up of
        // another thread that starts it again (main's chain changed) cannot renumber them in between
        List<ObjectId> range = claims.atomically(() -> {
            if (indexed != null && (indexedSeq >= claims.commitCount() || !claims.commitAt(indexedSeq).equals(indexed))) {
                return null; // main's first-parent chain is another now (a push of a replica's merge): its numbers changed
            }
            int to = asked;
            if (to >= claims.commitCount()) {
                // the claims index started again from git since the caller took its number (a forget
                // crossed, main's chain changed): let it catch up, and never index past its chain; the
                // caller sees its epoch moved and asks again
                to = Math.min(to, claims.headSeq());
            }
            return to <= indexedSeq || to < 0 ? List.<ObjectId>of() : claims.commits(indexedSeq + 1, to);
        });
        if (range == null) {
            restart();
            return;
        }
        if (range.isEmpty()) {
            return;
        }
        int target = indexedSeq + range.size();
        if (indexed != null && dev.palimpsest.internal.forget.Tombstones.addedBetween(repo, indexed, range.get(range.size() - 1))) {
            restart(); // its documents of the facts forgotten since may hold plaintext: start again from git
            return;
        }
        Progress shown = progress && PROGRESS.isInfoEnabled() ? new Progress(indexedSeq + 1, target) : null;
        try (CommitReads reads = new CommitReads(repo, range, indexedSeq + 1);
                ObjectReader reader = repo.newReader()) {
            List<Decoded> chunk = new ArrayList<>();
            int writes = 0;
            for (CommitReads.Read r = reads.next(); r != null; r = reads.next()) {
                Decoded d = decode(r.commit(), r.changes(), r.facts(), reader);
                chunk.add(d);
                writes += d.writes().size();
                if (writes >= EMBED_BATCH) {
                    applyAll(chunk, shown);
                    chunk.clear();
                    writes = 0;
                }
            }
            applyAll(chunk, shown);
        }
        if (shown != null) {
            shown.done();
        }
    }

    /**
     * A catch-up's progress, logged to {@code dev.palimpsest.progress} at info every 2000 commits and at
     * the end (the CLI shows it on a terminal only).
     */
    @dev.palimpsest.model.DoNotMutate("a log line only, and tests run with the progress logger off")
    private static final class Progress {
        private final int first;
        private final int total;
        private final long started = System.nanoTime();

        Progress(int first, int target) {
            this.first = first;
            this.total = target - first + 1;
        }

        void at(int seq) {
            if ((seq - first + 1) % 2000 == 0) {
                PROGRESS.info("search index: {}/{} commits", seq - first + 1, total);
            }
        }

        void done() {
            PROGRESS.info("search index: {}/{} commits in {} s", total, total,
                    String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9));
        }
    }

    /** One commit's changes to the fact folder, decoded: the facts it ends and the versions it writes (with their blobs). */
    private record Decoded(RevCommit commit, List<String> ended, List<Map.Entry<Fact, ObjectId>> writes) {}

    /** Decodes the fact files {@code c} writes (a malformed or forgotten one states nothing to find). */
    private Decoded decode(RevCommit c, Map<String, ObjectId> changes, Map<String, Fact> known, ObjectReader reader)
            throws IOException {
        List<String> ended = new ArrayList<>();
        List<Map.Entry<Fact, ObjectId>> writes = new ArrayList<>();
        for (Map.Entry<String, ObjectId> e : changes.entrySet()) {
            FactId fid = TreeChanges.inFactFolder(e.getKey()) ? StorePaths.idFromPath(e.getKey()) : null;
            if (fid == null) {
                continue;
            }
            ended.add(fid.value());
            if (e.getValue() == null) {
                continue;
            }
            Fact f = known.get(e.getKey());
            if (f == null) {
                try {
                    f = CanonicalFacts.fact(reader.open(e.getValue()).getCachedBytes(Snapshot.MAX_READ), e.getKey(),
                            repo.vault());
                } catch (FormatException | RuntimeException ex) {
                    continue; // a malformed file states nothing to find; the audit reports it
                }
            }
            if (f.contentUnavailable()) {
                continue; // sealed content without its key (forgotten): nothing to find
            }
            writes.add(Map.entry(f, e.getValue().copy()));
        }
        return new Decoded(c, ended, writes);
    }

    /** Applies decoded commits in order (numbered from {@code indexedSeq + 1}), their texts embedded in one batch. */
    private void applyAll(List<Decoded> chunk, Progress shown) throws IOException {
        if (chunk.isEmpty()) {
            return;
        }
        Map<Fact, float[]> vs = vectorsOf(chunk);
        for (Decoded d : chunk) {
            int seq = indexedSeq + 1;
            apply(seq, d, vs);
            if (shown != null) {
                shown.at(seq);
            }
            indexed = d.commit().copy();
            indexedSeq = seq;
        }
    }

    /**
     * The vector of each version {@code chunk} writes, by its decoded fact (identity; empty without an
     * embedder), looked up or embedded by {@link FactDocs#vectorKey}.
     */
    private Map<Fact, float[]> vectorsOf(List<Decoded> chunk) {
        if (vectors == null) {
            return Map.of();
        }
        List<dev.palimpsest.internal.embed.VectorCache.Item> items = new ArrayList<>();
        List<Fact> of = new ArrayList<>();
        for (Decoded d : chunk) {
            for (Map.Entry<Fact, ObjectId> w : d.writes()) {
                String sentence = FactDocs.sentenceOf(w.getKey());
                items.add(new dev.palimpsest.internal.embed.VectorCache.Item(
                        FactDocs.vectorKey(w.getValue().name(), sentence), w.getKey().id().value(),
                        FactDocs.textOf(w.getKey(), sentence)));
                of.add(w.getKey());
            }
        }
        if (items.isEmpty()) {
            return Map.of();
        }
        Map<String, float[]> byKey = vectors.vectors(items);
        Map<Fact, float[]> out = new java.util.IdentityHashMap<>(items.size() * 2);
        for (int i = 0; i < items.size(); i++) {
            out.put(of.get(i), byKey.get(items.get(i).blob()));
        }
        return out;
    }

    /** Ends the intervals of the facts {@code d} changes and adds a document per version it writes. */
    private void apply(int seq, Decoded d, Map<Fact, float[]> vs) throws IOException {
        for (String id : d.ended()) {
            Integer from = openFrom.remove(id);
            if (from != null) {
                writer.updateNumericDocValue(FactDocs.versionKey(id, from), FactDocs.TO, seq);
            }
        }
        RevCommit c = d.commit();
        String actor = c.getAuthorIdent() == null ? "" : c.getAuthorIdent().getName();
        long time = c.getAuthorIdent() == null ? c.getCommitTime() * 1000L
                : c.getAuthorIdent().getWhenAsInstant().toEpochMilli();
        for (Map.Entry<Fact, ObjectId> w : d.writes()) {
            Fact f = w.getKey();
            String id = f.id().value();
            Integer from = openFrom.remove(id);
            if (from != null) {
                writer.updateNumericDocValue(FactDocs.versionKey(id, from), FactDocs.TO, seq);
            }
            writer.addDocument(FactDocs.of(f, seq, c.name(), actor, time, vs.get(f)));
            openFrom.put(id, seq);
        }
        changed = true;
    }

    /** How many recent questions' vectors are kept: an agent asks the same question of search and brief. */
    static final int ASKED = 256;
    /** Recent questions' vectors by text, least recently asked dropped first; guarded by itself. */
    private final Map<String, float[]> asked = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > ASKED;
        }
    };

    /**
     * Threads that embed questions while the words are searched; daemons, shared by every index of
     * the process, at most two (the model uses the cores itself).
     */
    private static final java.util.concurrent.ExecutorService QUESTIONS = daemons(2, "palimpsest-question-embedder");

    /** A fixed pool of {@code threads} daemon threads named {@code name}, for the searches of every index of the process. */
    static java.util.concurrent.ExecutorService daemons(int threads, String name) {
        return java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** The vector of {@code text} for a question (null without an embedder), from the recent ones when asked lately. */
    float[] embedQuery(String text) {
        if (vectors == null) {
            return null;
        }
        synchronized (asked) {
            float[] v = asked.get(text);
            if (v != null) {
                return v.clone();
            }
        }
        float[] v = embedder.embed(List.of(text)).get(0);
        synchronized (asked) {
            asked.put(text, v.clone());
        }
        return v;
    }

    /**
     * Starts embedding {@code text} for a question on a background thread, so that the words can be
     * searched meanwhile; the future fails as {@link #embedQuery} would throw. Null without an embedder.
     */
    java.util.concurrent.Future<float[]> embedQueryAsync(String text) {
        if (vectors == null) {
            return null;
        }
        synchronized (asked) {
            float[] v = asked.get(text);
            if (v != null) {
                return java.util.concurrent.CompletableFuture.completedFuture(v.clone());
            }
        }
        return QUESTIONS.submit(() -> embedQuery(text));
    }

    /** Whether the index has a semantic channel. */
    boolean semantic() {
        return vectors != null;
    }

    /** The vector cache of the semantic channel, when there is one. */
    public java.util.Optional<dev.palimpsest.internal.embed.VectorCache> vectorCache() {
        return java.util.Optional.ofNullable(vectors);
    }

    /** The kept sets of documents live at a commit: the one place the liveness rule is applied. */
    LiveSets live() {
        return live;
    }

    // ---- the writer's own commits ----

    @Override
    public synchronized void committed(ObjectId commit, ObjectId parent, ActorName actor,
            Map<String, ObjectId> changes, Map<String, Fact> facts) {
        if (writer == null) {
            return;
        }
        try {
            if (forgets(changes)) {
                restart();
            } else if (java.util.Objects.equals(parent, indexed)) { // a root commit follows an empty index
                try (RevWalk walk = new RevWalk(repo.repository()); ObjectReader reader = repo.newReader()) {
                    RevCommit c = walk.parseCommit(commit);
                    applyAll(List.of(decode(c, changes, facts, reader)), null);
                }
            } else {
                catchUpTo(claims.seq(commit), false);
            }
            if (System.nanoTime() - lastCommit >= COMMIT_EVERY_NANOS) {
                commitNow();
            }
        } catch (IOException | RuntimeException e) {
            // the commit landed; the next question catches the index up from git
            LOG.warn("could not update the search index after " + commit.name() + ": " + e.getMessage());
        }
    }

    /** True when {@code changes} add a tombstone. */
    private static boolean forgets(Map<String, ObjectId> changes) {
        for (Map.Entry<String, ObjectId> e : changes.entrySet()) {
            if (e.getValue() != null && e.getKey().startsWith(StorePaths.TOMBSTONES + "/")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Drops every document and builds the index again from git, up to main's tip, in place (the
     * same Lucene lock and folder), then saves it: what a forgotten fact's versions said is gone
     * from memory and, with the old commit point's files, from disk; its key is gone, so the
     * rebuilt documents cannot hold it.
     */
    private void restart() throws IOException {
        if (vectors != null) {
            ObjectId head = repo.head();
            List<String> gone = new ArrayList<>();
            if (head != null) {
                dev.palimpsest.internal.forget.Forgetting.tombstoned(repo, head).forEach(id -> gone.add(id.value()));
            }
            vectors.prune(gone);
        }
        writer.deleteAll();
        openFrom.clear();
        times.clear();
        indexed = null;
        indexedSeq = -1;
        changed = true;
        int head = claims.headSeq();
        if (head >= 0) {
            catchUpTo(head, false);
        }
        commitNow(); // the new commit point lets Lucene delete the files of the old one at once
    }

    /** Saves the documents with the manifest of the commit they describe (a Lucene commit). */
    public synchronized void commitNow() {
        if (vectors != null) {
            vectors.commit();
        }
        if (writer == null || indexed == null || !(changed || writer.hasUncommittedChanges())) {
            return; // nothing new: neither documents nor a merge Lucene finished since the last save
        }
        try {
            Map<String, String> data = new HashMap<>();
            data.put("format", FORMAT);
            data.put("embedder", embedder.name());
            ObjectId genesis = claims.genesis();
            if (genesis == null) {
                return; // the claims index is starting again: the next commit point saves
            }
            data.put("genesis", genesis.name());
            data.put("commit", indexed.name());
            data.put("seq", Integer.toString(indexedSeq));
            writer.setLiveCommitData(data.entrySet());
            writer.commit();
            changed = false;
            lastCommit = System.nanoTime();
        } catch (IOException e) {
            LOG.warn("cannot save the search index " + path + ": " + e.getMessage());
        }
    }

    /** The author time of {@code commit} in milliseconds (cached). */
    synchronized long timeOf(ObjectId commit) {
        Long t = times.get(commit);
        if (t == null) {
            try (RevWalk walk = new RevWalk(repo.repository())) {
                RevCommit c = walk.parseCommit(commit);
                t = c.getAuthorIdent() == null ? c.getCommitTime() * 1000L
                        : c.getAuthorIdent().getWhenAsInstant().toEpochMilli();
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot read commit " + commit.name(), e);
            }
            times.put(commit.copy(), t);
        }
        return t;
    }

    /**
     * Releases the index without saving and deletes its folder when this process held it: for an
     * index that may hold what a forget erased.
     */
    public void discard() {
        boolean wasPersistent;
        synchronized (this) {
            wasPersistent = persistent;
            closeQuietly();
            closeVectors();
        }
        unmarkClosing();
        if (wasPersistent) { // outside this monitor: the deletion takes the writer lock, whose holder may want it
            dev.palimpsest.internal.forget.Scrub.searchIndex(repo.gitDir(), new ArrayList<>());
        }
    }

    /**
     * Waits until Lucene's merges of this process's index have finished, so the {@link #close} that
     * follows saves them; call it without the writer lock (writers go on meanwhile). Closing without
     * it aborts them: an abort lands only between a merge's steps (not inside an HNSW graph's
     * building), so the work done so far is lost and the next process starts the same merge again,
     * and a store searched only by short-lived processes gains a segment per process. The wait can
     * be long (seconds per ten thousand vectors merged); it is said on the progress logger. Does
     * nothing for an index kept in memory. Thread-safe; not while another thread writes to this
     * index.
     */
    public void finishMerges() {
        IndexWriter w;
        synchronized (this) {
            w = persistent ? writer : null;
        }
        if (w == null || !(w.getConfig().getMergeScheduler() instanceof ConcurrentMergeScheduler cms)) {
            return;
        }
        boolean said = false;
        try {
            for (int round = 0; round < MERGE_ROUNDS; round++) {
                if (!w.hasPendingMerges() && w.getMergingSegments().isEmpty() && cms.mergeThreadCount() == 0) {
                    return;
                }
                if (!said) {
                    said = true;
                    markClosing();
                    PROGRESS.info("finishing a merge of the search index " + path + " before closing it");
                }
                cms.sync();
                if (w.hasPendingMerges()) {
                    w.maybeMerge(); // merges waiting for a thread get one
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not finish the merges of the search index " + path + ": " + e.getMessage());
        }
    }

    /** Rounds of waiting for merges and the merges they start in turn (a tiered policy cascades a few levels at most). */
    private static final int MERGE_ROUNDS = 32;

    /** How long an opener waits for a holder finishing its merges before keeping its own index in memory. */
    static final long CLOSING_WAIT_MILLIS = 120_000;

    /** What this process wrote in the closing marker (null: none written): only that is deleted. */
    private String closingToken;

    /**
     * The file beside the index folder that its holder keeps while it finishes merges before
     * releasing it: an opener that finds the index held waits for it, where keeping an index of its
     * own in memory would mean embedding or reading every version again.
     */
    private Path closingMarker() {
        return path.resolveSibling(DIR + ".closing");
    }

    private void markClosing() {
        String token = ProcessHandle.current().pid() + " " + System.nanoTime() + "\n";
        try {
            Files.writeString(closingMarker(), token);
            synchronized (this) {
                closingToken = token;
            }
        } catch (IOException e) {
            LOG.debug("cannot write " + closingMarker() + ": " + e.getMessage());
        }
    }

    /** Deletes the closing marker when it is still the one this process wrote (after the Lucene lock is released). */
    private void unmarkClosing() {
        String token;
        synchronized (this) {
            token = closingToken;
            closingToken = null;
        }
        if (token == null) {
            return;
        }
        try {
            if (token.equals(Files.readString(closingMarker()))) {
                Files.delete(closingMarker());
            }
        } catch (IOException e) {
            // gone already, or another holder's: the next holder clears it on open
        }
    }

    /**
     * Waits, up to {@link #CLOSING_WAIT_MILLIS}, while another process holds the index and says it is
     * finishing its merges before releasing it (a holder that lives on is not waited for). Called
     * without the writer lock.
     */
    private void awaitClosingHolder() {
        long deadline = System.nanoTime() + CLOSING_WAIT_MILLIS * 1_000_000L;
        boolean said = false;
        while (Files.exists(closingMarker()) && heldByAnother() && System.nanoTime() < deadline) {
            if (!said) {
                said = true;
                notice("waiting for the process holding the search index " + path + " to finish its merges and release it");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** True when another holder has Lucene's lock on the index folder now. */
    private boolean heldByAnother() {
        if (!Files.isDirectory(path)) {
            return false;
        }
        try (Directory d = FSDirectory.open(path);
                org.apache.lucene.store.Lock held = d.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            return false;
        } catch (LockObtainFailedException e) {
            return true;
        } catch (IOException e) {
            return false; // the open says what is wrong
        }
    }

    /** Saves and releases the index (and its Lucene lock). */
    @Override
    public synchronized void close() {
        commitNow();
        closeQuietly();
        closeVectors();
        unmarkClosing();
    }

    /** Saves and releases the vector cache. */
    private void closeVectors() {
        if (vectors != null) {
            vectors.close();
            vectors = null;
        }
    }

    private void closeQuietly() {
        try {
            if (writer != null) {
                writer.rollback(); // releases the lock
            }
        } catch (IOException | RuntimeException ignored) {
            // closing
        }
        org.apache.lucene.util.IOUtils.closeWhileHandlingException(searchers, directory);
        searchers = null;
        writer = null;
        directory = null;
    }
}
