package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.rules.TimeRules;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * What the checks of one audit share: the checks, the ancestry of the audited commits, the trusted
 * key tables, and caches of decoded facts and of commit trees. Thread-safe.
 */
final class AuditRun {
    private static final int MAX_CACHED_FACTS = 200_000;

    final List<AuditCheck> checks;
    final Ancestry ancestry;
    final KeyTables keys = new KeyTables();
    final Map<String, Optional<Pins.Problem>> pins = new ConcurrentHashMap<>();
    /** The auditing clock, read once per audit. */
    final java.time.Instant now = java.time.Instant.now();
    private final Map<ObjectId, AuditEngine.Node> nodes;
    private final Map<ObjectId, Optional<Fact>> facts = new ConcurrentHashMap<>();
    private final Map<ObjectId, ObjectId> outsideTrees = new ConcurrentHashMap<>();
    private final Map<ObjectId, Optional<ObjectId>> outsideParents = new ConcurrentHashMap<>();
    private final Map<ObjectId, Optional<TimeRules.Stamp>> committerTimes = new ConcurrentHashMap<>();

    /** The data keys sealed content is opened with (quotes and bodies are checked only where a key exists). */
    final dev.palimpsest.internal.yaml.SealKeys sealKeys;
    final AuditObserver observer;

    AuditRun(List<AuditCheck> checks, Ancestry ancestry, Map<ObjectId, AuditEngine.Node> nodes,
            dev.palimpsest.internal.yaml.SealKeys keys, AuditObserver observer) {
        this.sealKeys = keys;
        this.observer = observer;
        this.checks = checks;
        this.ancestry = ancestry;
        this.nodes = nodes;
    }

    /** The tree of any commit; throws when the object is missing or not a commit. */
    ObjectId treeOf(Reading r, ObjectId commit) throws IOException {
        AuditEngine.Node n = nodes.get(commit);
        if (n != null) {
            return n.tree();
        }
        ObjectId t = outsideTrees.get(commit);
        if (t == null) {
            t = r.treeOf(commit);
            outsideTrees.put(commit.copy(), t);
        }
        return t;
    }

    /** The first parent of any commit, or null. */
    ObjectId firstParentOf(Reading r, ObjectId commit) throws IOException {
        AuditEngine.Node n = nodes.get(commit);
        if (n != null) {
            return n.parents().isEmpty() ? null : n.parents().get(0);
        }
        Optional<ObjectId> p = outsideParents.get(commit);
        if (p == null) {
            p = Optional.ofNullable(r.firstParentOf(commit));
            outsideParents.put(commit.copy(), p);
        }
        return p.orElse(null);
    }

    /** The committer time of any commit, or null when its committer header is malformed. */
    TimeRules.Stamp committerTime(Reading r, ObjectId commit) throws IOException {
        Optional<TimeRules.Stamp> t = committerTimes.get(commit);
        if (t == null) {
            RawCommit.Ident who = RawCommit.parse(r.bytes(commit, Constants.OBJ_COMMIT)).committer();
            t = Optional.ofNullable(who == null ? null : TimeRules.Stamp.parse(who.when()));
            bound(committerTimes);
            committerTimes.put(commit.copy(), t);
        }
        return t.orElse(null);
    }

    Fact fact(Reading r, ObjectId blob) throws IOException {
        Optional<Fact> f = facts.get(blob);
        if (f == null) {
            try {
                f = Optional.of(CanonicalFacts.decode(r.bytes(blob, Constants.OBJ_BLOB), blob.name(), sealKeys).fact());
                observer.fact(blob, f.get());
            } catch (FormatException e) {
                f = Optional.empty();
            }
            bound(facts);
            facts.put(blob.copy(), f);
        }
        return f.orElse(null);
    }

    /** Empties a cache grown past its bound. */
    @dev.palimpsest.model.DoNotMutate("memory only: a cache emptied early or late is read again, never answered differently")
    private static void bound(Map<ObjectId, ?> cache) {
        if (cache.size() > MAX_CACHED_FACTS) {
            cache.clear();
        }
    }

    boolean explains(String path) {
        for (AuditCheck c : checks) {
            if (c.explains(path)) {
                return true;
            }
        }
        return false;
    }
}
