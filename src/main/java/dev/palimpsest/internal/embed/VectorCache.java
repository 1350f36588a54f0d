package dev.palimpsest.internal.embed;

import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The vectors one embedder gave, keyed by the git blob id of the fact file they were computed from,
 * so the same content is never embedded twice (not by a rebuilt search index, not after a forget):
 * a Lucene index in {@code <gitdir>/palimpsest-index/vectors-v1/<embedder name>/}, one document per
 * blob with its fact id (for erasure) and its vector. Derived data: deleting it costs only embedding
 * again. The process that takes its Lucene lock writes it (committed at most every second and on
 * close); another reads its last commit and keeps what it embeds itself in memory. {@link #prune}
 * erases the vectors of forgotten facts from every file. Thread-safe (synchronized).
 */
public final class VectorCache implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(VectorCache.class);
    /** The folder, under {@code palimpsest-index}, holding one cache per embedder name. */
    public static final String DIR = "vectors-v1";
    static final String BLOB = "blob";
    static final String FACT = "fact";
    static final String VEC = "v";
    private static final long COMMIT_EVERY_NANOS = 1_000_000_000L;

    /** A text to embed: the blob id of its fact file, the fact's id and the text. */
    public record Item(String blob, String fact, String text) {}

    private final Embedder embedder;
    private final Path path;
    private Directory directory;
    private IndexWriter writer;
    private DirectoryReader reader;
    private final Map<String, float[]> memory = new HashMap<>();
    private boolean changed;
    private long lastCommit = System.nanoTime();
    private long embedded;

    private VectorCache(Embedder embedder, Path path) {
        this.embedder = embedder;
        this.path = path;
    }

    /** The folder of {@code embedder}'s cache in the store whose git directory is {@code gitDir}. */
    public static Path folder(Path gitDir, String embedder) {
        return gitDir.resolve("palimpsest-index").resolve(DIR).resolve(embedder);
    }

    /** Opens (creating) the cache of {@code embedder}; writable when no other process holds it. */
    public static VectorCache open(Path gitDir, Embedder embedder) {
        VectorCache c = new VectorCache(embedder, folder(gitDir, embedder.name()));
        try {
            c.start();
        } catch (IOException e) {
            c.close();
            LOG.warn("cannot open the vector cache " + c.path + " (" + e.getMessage() + "); keeping vectors in memory");
            c.directory = null;
        }
        return c;
    }

    private void start() throws IOException {
        Files.createDirectories(path);
        directory = FSDirectory.open(path);
        try {
            IndexWriterConfig cfg = new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setCommitOnClose(false).setRAMBufferSizeMB(32);
            try {
                writer = new IndexWriter(directory, cfg);
            } catch (LockObtainFailedException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                LOG.info("discarded the vector cache " + path + " (unreadable: " + e.getMessage() + ")");
                writer = new IndexWriter(directory, new IndexWriterConfig()
                        .setOpenMode(IndexWriterConfig.OpenMode.CREATE).setCommitOnClose(false));
            }
            reader = DirectoryReader.open(writer);
        } catch (LockObtainFailedException e) {
            writer = null;
            try {
                reader = DirectoryReader.indexExists(directory) ? DirectoryReader.open(directory) : null;
            } catch (IOException | RuntimeException unreadable) {
                reader = null;
            }
        }
    }

    /** The embedder whose vectors this cache holds. */
    public Embedder embedder() {
        return embedder;
    }

    /** How many texts this cache asked its embedder for since it opened. */
    public synchronized long embedded() {
        return embedded;
    }

    /** Whether this process writes the cache on disk (false: another process holds it). */
    public synchronized boolean writable() {
        return writer != null;
    }

    /**
     * The vector of each item's blob, from the cache or, for those it lacks, embedded in one call to
     * the embedder and added to it.
     *
     * @throws dev.palimpsest.model.EmbedderUnavailableException the embedder failed
     */
    public synchronized Map<String, float[]> vectors(Collection<Item> items) {
        Map<String, float[]> out = new HashMap<>();
        List<Item> missing = new ArrayList<>();
        Map<String, Boolean> asked = new HashMap<>();
        for (Item it : items) {
            if (out.containsKey(it.blob()) || asked.containsKey(it.blob())) {
                continue;
            }
            float[] v = lookup(it.blob());
            if (v != null) {
                out.put(it.blob(), v);
            } else {
                asked.put(it.blob(), true);
                missing.add(it);
            }
        }
        if (!missing.isEmpty()) {
            List<String> texts = new ArrayList<>(missing.size());
            missing.forEach(m -> texts.add(m.text()));
            List<float[]> vs = embedder.embed(texts);
            if (vs.size() != texts.size()) {
                throw new dev.palimpsest.model.EmbedderUnavailableException("embedder " + embedder.name() + " gave "
                        + vs.size() + " vectors for " + texts.size() + " texts");
            }
            embedded += texts.size();
            for (int i = 0; i < missing.size(); i++) {
                float[] v = vs.get(i);
                if (v == null || v.length != embedder.dimensions()) {
                    throw new dev.palimpsest.model.EmbedderUnavailableException("embedder " + embedder.name()
                            + " gave a vector that is not " + embedder.dimensions() + " numbers long");
                }
                Item m = missing.get(i);
                out.put(m.blob(), v);
                add(m, v);
            }
            refresh();
            if (System.nanoTime() - lastCommit >= COMMIT_EVERY_NANOS) {
                commit();
            }
        }
        return out;
    }

    private void add(Item m, float[] v) {
        if (writer == null) {
            memory.put(m.blob(), v);
            return;
        }
        Document d = new Document();
        d.add(new StringField(BLOB, m.blob(), Field.Store.NO));
        d.add(new StringField(FACT, m.fact(), Field.Store.NO));
        d.add(new BinaryDocValuesField(VEC, new BytesRef(Vectors.bytes(v))));
        try {
            writer.addDocument(d);
            changed = true;
        } catch (IOException e) {
            memory.put(m.blob(), v);
        }
    }

    private void refresh() {
        if (writer == null) {
            return;
        }
        try {
            DirectoryReader r = DirectoryReader.openIfChanged(reader, writer);
            if (r != null) {
                reader.close();
                reader = r;
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the vector cache " + path + ": " + e.getMessage(), e);
        }
    }

    private float[] lookup(String blob) {
        float[] m = memory.get(blob);
        if (m != null || reader == null) {
            return m;
        }
        BytesRef term = new BytesRef(blob);
        try {
            for (LeafReaderContext leaf : reader.leaves()) {
                LeafReader lr = leaf.reader();
                Terms terms = lr.terms(BLOB);
                if (terms == null) {
                    continue;
                }
                TermsEnum te = terms.iterator();
                if (!te.seekExact(term)) {
                    continue;
                }
                PostingsEnum pe = te.postings(null, PostingsEnum.NONE);
                Bits live = lr.getLiveDocs();
                for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
                    if (live != null && !live.get(doc)) {
                        continue;
                    }
                    BinaryDocValues bv = lr.getBinaryDocValues(VEC);
                    if (bv != null && bv.advanceExact(doc)) {
                        BytesRef b = bv.binaryValue();
                        if (b.length == embedder.dimensions() * 4) {
                            return Vectors.of(b.bytes, b.offset, b.length);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the vector cache " + path + ": " + e.getMessage(), e);
        }
        return null;
    }

    /**
     * Erases the vectors of {@code facts} (fact ids) from memory and, when this process writes the
     * cache, from every file on disk (their segments are rewritten and the old files deleted); a
     * process that only reads the cache drops its reader and reads the cache's last commit again.
     */
    public synchronized void prune(Collection<String> facts) {
        memory.clear();
        if (writer == null) {
            reopenReadOnly();
            return;
        }
        try {
            List<Term> ts = new ArrayList<>();
            facts.forEach(f -> ts.add(new Term(FACT, f)));
            if (!ts.isEmpty()) {
                writer.deleteDocuments(ts.toArray(Term[]::new));
            }
            writer.forceMergeDeletes(true);
            changed = true;
            commit();
            reader.close();
            reader = DirectoryReader.open(writer);
            writer.deleteUnusedFiles();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot erase vectors from " + path + ": " + e.getMessage(), e);
        }
    }

    private void reopenReadOnly() {
        try {
            if (reader != null) {
                reader.close();
            }
            reader = directory != null && DirectoryReader.indexExists(directory) ? DirectoryReader.open(directory) : null;
        } catch (IOException | RuntimeException e) {
            reader = null;
        }
    }

    /** Saves what was added (a Lucene commit). */
    public synchronized void commit() {
        if (writer == null || !changed) {
            return;
        }
        try {
            writer.commit();
            changed = false;
            lastCommit = System.nanoTime();
        } catch (IOException e) {
            LOG.warn("cannot save the vector cache " + path + ": " + e.getMessage());
        }
    }

    /**
     * Erases the vectors of {@code facts} from the cache of every embedder under {@code gitDir}
     * whose Lucene lock no process holds (a holder prunes when it sees the forget); the folders it
     * could not prune.
     */
    public static List<Path> pruneUnheld(Path gitDir, Collection<String> facts) {
        Path root = gitDir.resolve("palimpsest-index").resolve(DIR);
        List<Path> held = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return held;
        }
        try (var dirs = Files.newDirectoryStream(root)) {
            for (Path p : dirs) {
                if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try (Directory d = FSDirectory.open(p);
                        IndexWriter w = new IndexWriter(d, new IndexWriterConfig()
                                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND).setCommitOnClose(false))) {
                    List<Term> ts = new ArrayList<>();
                    facts.forEach(f -> ts.add(new Term(FACT, f)));
                    if (!ts.isEmpty()) {
                        w.deleteDocuments(ts.toArray(Term[]::new));
                    }
                    w.forceMergeDeletes(true);
                    w.commit();
                    w.deleteUnusedFiles();
                } catch (LockObtainFailedException e) {
                    held.add(p);
                } catch (IOException | RuntimeException e) {
                    // unreadable: delete it whole, it is only a cache
                    deleteTree(p);
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot erase vectors under " + root + ": " + e.getMessage(), e);
        }
        return held;
    }

    private static void deleteTree(Path p) {
        try (var all = Files.walk(p)) {
            for (Path q : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot delete " + p + ": " + e.getMessage(), e);
        }
    }

    /** Saves and releases the cache (and its Lucene lock). */
    @Override
    public synchronized void close() {
        commit();
        try {
            if (reader != null) {
                reader.close();
            }
            if (writer != null) {
                writer.rollback();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing
        }
        org.apache.lucene.util.IOUtils.closeWhileHandlingException(directory);
        reader = null;
        writer = null;
        memory.clear();
    }
}
