package dev.palimpsest.internal.remote;

import dev.palimpsest.internal.audit.AuditObserver;
import dev.palimpsest.internal.index.KnownChanges;
import dev.palimpsest.model.Fact;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;

/**
 * What the audit of a pull read (each single-parent commit's changes, the facts it decoded, the
 * bytes of the commits offered to it), kept for the predicate index's catch-up after adoption, so
 * the incoming range is read, diffed and decoded once. Bounded: beyond {@link #MAX_COMMITS}
 * commits, {@link #MAX_FACTS} facts or {@link #MAX_COMMIT_BYTES} bytes of commits it stops keeping
 * (the index then reads and diffs the rest itself). Thread-safe.
 */
public final class AuditedChanges implements AuditObserver, KnownChanges {
    static final int MAX_COMMITS = 100_000;
    static final int MAX_FACTS = 200_000;
    /** Commit bytes kept for the catch-up's walk, at most. */
    static final long MAX_COMMIT_BYTES = 64L << 20;

    private final Map<ObjectId, Map<String, KnownChanges.Change>> commits = new ConcurrentHashMap<>();
    private final Map<ObjectId, Fact> facts = new ConcurrentHashMap<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final Map<ObjectId, byte[]> raw = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong rawBytes = new java.util.concurrent.atomic.AtomicLong();
    private final ObjectId base;
    private volatile boolean baseIsParent;

    /** Keeps what an audit of the range from {@code base} (main before the pull; null: none) reads. */
    public AuditedChanges(ObjectId base) {
        this.base = base == null ? null : base.copy();
    }

    /**
     * True when an audited commit has the range's base as a parent, that is (the range being every
     * commit the tip reaches and the base does not) when the base is an ancestor of the tip.
     */
    public boolean extendsBase() {
        return baseIsParent;
    }

    @Override
    public void commit(ObjectId commit, List<ObjectId> parents, List<dev.palimpsest.internal.audit.Change> changes) {
        if (base != null && parents.contains(base)) {
            baseIsParent = true;
        }
        if (parents.size() != 1 || kept.incrementAndGet() > MAX_COMMITS) {
            return;
        }
        Map<String, KnownChanges.Change> m = new HashMap<>();
        for (dev.palimpsest.internal.audit.Change c : changes) {
            m.put(c.path(), new KnownChanges.Change(c.oldBlob(), c.newBlob()));
        }
        commits.put(commit.copy(), m);
    }

    @Override
    public void fact(ObjectId blob, Fact fact) {
        if (facts.size() < MAX_FACTS) {
            facts.putIfAbsent(blob.copy(), fact);
        }
    }

    @Override
    public void offered(ObjectId commit, byte[] bytes) {
        if (rawBytes.addAndGet(bytes.length) <= MAX_COMMIT_BYTES) {
            raw.put(commit.copy(), bytes);
        }
    }

    @Override
    public byte[] commit(AnyObjectId commit) {
        return raw.get(commit);
    }

    @Override
    public Map<String, KnownChanges.Change> changes(ObjectId commit) {
        return commits.get(commit);
    }

    @Override
    public Fact fact(ObjectId blob) {
        return facts.get(blob);
    }
}
