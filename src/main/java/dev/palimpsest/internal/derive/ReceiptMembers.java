package dev.palimpsest.internal.derive;

import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.WriterLock;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Who rests on whom through receipts: for every indexed version of a merge, edge or summary, the
 * members of its receipts (and its sentences' receipts), and per member the artifacts some version
 * of which named it. Derived from the predicate index's events, caught up incrementally on each
 * use.
 *
 * <p>Persisted as {@code palimpsest-index/receipts-v1.log} (see {@link ReceiptsLog}), bound to the
 * store's genesis: loaded on first use, so an artifact version recorded there is never decoded
 * again; versions the file lacks are taken from the writer's own commits ({@link #learn}) or
 * decoded from their blobs, and appended, one record per commit.
 * A file that is missing, corrupt, torn, of another format or of another store is discarded and
 * rebuilt from git, saying so in one log line (slf4j); something other than a regular file
 * at its path leaves the index in memory only. Writes (whole-record appends, or a rewrite through
 * a temporary file and an atomic rename) happen under the writer lock; when the lock cannot be
 * taken (this thread is the writer) saving waits for the next catch-up. Thread-safe (synchronized;
 * the writer lock is always taken before this object's monitor).
 */
final class ReceiptMembers {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReceiptMembers.class);
    static final String FILE = "receipts-v1.log";
    private static final Set<String> ARTIFACT_KINDS = Set.of(Kind.MERGE.value(), Kind.EDGE.value(), Kind.SUMMARY.value());
    /** Artifact blobs decoded by any instance in this JVM (a test hook). */
    static final AtomicLong DECODES = new AtomicLong();

    private final GitRepo repo;
    private final PredicateIndex index;
    private final Path file;
    private final WriterLock lock;
    private final Map<ObjectId, Set<String>> byBlob = new HashMap<>();
    private final Map<String, Set<String>> artifactsByMember = new HashMap<>();
    /** Persisted members by {@code id + " " + blob}, read from the file; consulted before decoding. */
    private final Map<String, Set<String>> recorded = new HashMap<>();
    /** Members of artifact versions this process wrote, by {@code id + " " + blob}, not yet recorded; spares their decoding. */
    private final Map<String, Set<String>> seeded = new HashMap<>();
    /** Every record of the file as it should be, framed. Records [0, persistedCount) are in the file, then persistedLength bytes long. */
    private final List<byte[]> framed = new ArrayList<>();
    private int persistedCount;
    private long persistedLength = -1;
    private boolean loaded;
    private boolean persistable = true;
    private int cursor;

    ReceiptMembers(GitRepo repo, PredicateIndex index) {
        this.repo = repo;
        this.index = index;
        this.file = repo.gitDir().resolve("palimpsest-index").resolve(FILE);
        this.lock = new WriterLock(repo.gitDir());
    }

    /** The artifacts that ever named {@code member} in a receipt, as of the last {@link #catchUp}. */
    synchronized Set<String> artifactsNaming(String member) {
        return artifactsByMember.getOrDefault(member, Set.of());
    }

    /** The receipt members of the artifact version stored in {@code blob} (empty for other facts). */
    synchronized Set<String> members(ObjectId blob) {
        return byBlob.getOrDefault(blob, Set.of());
    }

    /** Reads the artifact versions the index learnt of since the last call, then saves what is new. */
    void catchUp() {
        boolean dirty;
        synchronized (this) {
            dirty = catchUpInMemory();
        }
        if (dirty) {
            persist();
        }
    }

    private boolean catchUpInMemory() {
        if (!loaded) {
            ObjectId genesis = index.genesis();
            if (genesis == null) {
                return false; // nothing indexed yet: nothing to bind the file to
            }
            load(genesis);
            loaded = true;
        }
        ObjectReader[] reader = new ObjectReader[1];
        Map<ObjectId, List<ReceiptsLog.Version>> fresh = new LinkedHashMap<>();
        try {
            cursor = index.eventsSince(cursor, (id, st) -> {
                if (st.live() && st.blob() != null && ARTIFACT_KINDS.contains(st.kind()) && !byBlob.containsKey(st.blob())) {
                    ObjectId blob = st.blob().copy();
                    Set<String> ms = recorded.get(id + " " + blob.name());
                    if (ms == null) {
                        ms = seeded.remove(id + " " + blob.name());
                        if (ms == null) {
                            if (reader[0] == null) {
                                reader[0] = repo.newReader();
                            }
                            ms = decode(reader[0], blob, id);
                        }
                        fresh.computeIfAbsent(st.changedAt().copy(), k -> new ArrayList<>())
                                .add(new ReceiptsLog.Version(id, blob, ms));
                        recorded.put(id + " " + blob.name(), ms);
                    }
                    byBlob.put(blob, ms);
                    for (String m : ms) {
                        artifactsByMember.computeIfAbsent(m, k -> new HashSet<>()).add(id);
                    }
                }
            });
        } finally {
            if (reader[0] != null) {
                reader[0].close();
            }
        }
        fresh.forEach((c, vs) -> framed.add(ReceiptsLog.frame(new ReceiptsLog.Commit(c, vs))));
        return persistable && (persistedCount < framed.size() || persistedLength < 0);
    }

    /**
     * Learns the members of the artifact versions a commit of this process wrote (changes: path to
     * blob; facts: the facts encoded, by path), so the next catch-up needs not decode them. Called
     * by the writer under the writer lock; takes only this object's monitor.
     */
    synchronized void learn(Map<String, ObjectId> changes, Map<String, Fact> facts) {
        for (Map.Entry<String, Fact> e : facts.entrySet()) {
            Fact f = e.getValue();
            ObjectId blob = changes.get(e.getKey());
            if (blob != null && f != null && f.kind() != null && ARTIFACT_KINDS.contains(f.kind().value())) {
                try {
                    seeded.put(f.id().value() + " " + blob.name(), members(f, f.id().value()));
                } catch (RuntimeException ex) {
                    // the next catch-up decodes it
                }
            }
        }
    }

    private static Set<String> decode(ObjectReader reader, ObjectId blob, String id) {
        DECODES.incrementAndGet();
        try {
            return members(FactCodec.decodeFact(reader.open(blob, Constants.OBJ_BLOB).getCachedBytes(Limits.MAX_FILE), id), id);
        } catch (IOException | FormatException | RuntimeException e) {
            return Set.of();
        }
    }

    private static Set<String> members(Fact f, String id) {
        Set<String> out = new HashSet<>();
        add(out, f.grounding().receipt());
        for (Sentence s : f.grounding().sentences()) {
            add(out, s.receipt());
        }
        out.remove(id);
        return out;
    }

    private static void add(Set<String> out, Receipt r) {
        if (r != null) {
            for (FactId m : r.members()) {
                out.add(m.value());
            }
        }
    }

    // ---- persistence ----

    private static void notice(String message) {
        LOG.info(message);
    }

    /** Reads the file bound to {@code genesis}; anything unusable is discarded with one log line. */
    private void load(ObjectId genesis) {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            persistable = false;
            LOG.warn(file + " is not a regular file; the receipt-members index is kept in memory only");
            return;
        }
        String problem;
        try {
            problem = read(genesis);
        } catch (IOException | RuntimeException e) {
            problem = "unreadable: " + e.getMessage();
        }
        if (problem != null) {
            recorded.clear();
            framed.clear();
            persistedCount = 0;
            persistedLength = -1;
            notice((problem.equals("missing") ? "building the receipt-members index " : "discarded the receipt-members index ")
                    + file + " (" + problem + "); rebuilding it from git");
        }
    }

    /** Null when the file checks out against this store, else why not ("missing" when absent). */
    private String read(ObjectId genesis) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return "missing";
        }
        byte[] bytes = Files.readAllBytes(file);
        List<CacheLog.Framed<ReceiptsLog.Commit>> records;
        try {
            ObjectId g = ReceiptsLog.genesis(bytes);
            if (!g.equals(genesis)) {
                return "it belongs to another store: genesis " + g.name() + ", this store's is " + genesis.name();
            }
            records = ReceiptsLog.records(bytes);
        } catch (CacheLog.Corrupt e) {
            return e.getMessage();
        }
        var db = repo.repository().getObjectDatabase();
        for (CacheLog.Framed<ReceiptsLog.Commit> r : records) {
            ReceiptsLog.Commit c = r.record();
            if (!db.has(c.commit())) {
                return "it names commit " + c.commit().name() + ", which this store does not have";
            }
            for (ReceiptsLog.Version v : c.versions()) {
                recorded.put(v.id() + " " + v.blob().name(), v.members());
            }
            framed.add(r.bytes());
        }
        persistedCount = framed.size();
        persistedLength = bytes.length;
        return null;
    }

    /** Takes the writer lock (unless this thread holds it already), then saves what is not in the file yet. */
    private void persist() {
        WriterLock.Held held;
        try {
            held = lock.acquire();
        } catch (RuntimeException e) {
            return; // this thread is the writer (or the lock is unusable): the next catch-up saves it
        }
        try (held) {
            synchronized (this) {
                persistHeld();
            }
        }
    }

    private void persistHeld() {
        ObjectId genesis = index.genesis();
        if (!persistable || genesis == null || persistedCount == framed.size() && persistedLength >= 0) {
            return;
        }
        try {
            persistedLength = CacheLog.save(file, ReceiptsLog.header(genesis), framed, persistedCount, persistedLength);
            persistedCount = framed.size();
        } catch (IOException e) {
            persistable = false;
            LOG.warn("cannot save the receipt-members index " + file + ": " + e.getMessage());
        }
    }
}
