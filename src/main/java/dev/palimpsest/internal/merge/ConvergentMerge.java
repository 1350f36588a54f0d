package dev.palimpsest.internal.merge;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * Computes the convergent merge of two commits of one store: the edits that turn the first tip's
 * tree into the merged tree, and the fact versions that lost. The result depends only on the two
 * commits' histories, never on which one is "ours": {@code merge(a, b)} and {@code merge(b, a)}
 * give the same tree. Units that merge as a whole: a fact (its file in any role folder and its
 * retraction record and tombstone), an actor's key (both key files), any other path (a produced file's content among them).
 * A unit changed on one side since the merge base takes that side; a unit changed on both sides
 * follows {@link #resolve}. Then the conflicts between facts that only the merged tree shows are
 * settled by {@link MergeSettle}. Stateless and thread-safe.
 */
public final class ConvergentMerge {
    /** A fact version that lost a merge: the fact, the losing and the winning version's commits. */
    public record Lost(FactId id, ObjectId loser, ObjectId winner) {}

    /**
     * The merge: edits (path to blob, null to delete) over the first tip's tree, the losers sorted
     * by id, and the cross-fact conflicts settled on the merged tree ({@link MergeSettle}), sorted.
     */
    public record Result(Map<String, ObjectId> edits, List<Lost> lost, List<String> settled) {
        public Result(Map<String, ObjectId> edits, List<Lost> lost) {
            this(edits, lost, List.of());
        }
    }

    /** Thrown when the two commits share no history (two different stores). */
    public static final class UnrelatedException extends Exception {
        private static final long serialVersionUID = 1L;

        UnrelatedException(String message) {
            super(message);
        }
    }

    enum Type { FACT, KEY, OTHER }

    record Unit(Type type, String name, List<String> paths) {}

    /** A unit's blobs on one side, by path, only present paths. */
    record Side(ObjectId commit, TreeMap<String, ObjectId> blobs) {}

    /**
     * A unit both tips do not hold alike: its two sides, its state at the merge base (null when the
     * bases disagree), the side whose state it takes, and whether both sides changed it.
     */
    static final class Decision {
        final Unit unit;
        final Side a;
        final Side b;
        final TreeMap<String, ObjectId> base;
        final boolean both;
        Side chosen;

        Decision(Unit unit, Side a, Side b, TreeMap<String, ObjectId> base, boolean both, Side chosen) {
            this.unit = unit;
            this.a = a;
            this.b = b;
            this.base = base;
            this.both = both;
            this.chosen = chosen;
        }

        Side other() {
            return chosen == a ? b : a;
        }
    }

    private ConvergentMerge() {}

    /** Merges {@code a} and {@code b} (commits of the repository {@code reader} reads). */
    public static Result merge(ObjectReader reader, ObjectId a, ObjectId b) throws IOException, UnrelatedException {
        try (RevWalk walk = new RevWalk(reader)) {
            RevCommit ca = walk.parseCommit(a);
            RevCommit cb = walk.parseCommit(b);
            List<RevCommit> bases = bases(walk, ca, cb);
            if (bases.isEmpty()) {
                throw new UnrelatedException("commits " + a.name() + " and " + b.name() + " share no history");
            }
            Map<String, Unit> units = changedUnits(reader, ca.getTree(), cb.getTree());
            Versions versions = new Versions(reader, bases);
            List<Decision> decisions = new ArrayList<>();
            for (Unit u : units.values()) {
                Side sa = side(reader, ca, u);
                Side sb = side(reader, cb, u);
                if (sa.blobs().equals(sb.blobs())) {
                    continue;
                }
                TreeMap<String, ObjectId> base = baseOf(reader, bases, u);
                if (base != null && base.equals(sa.blobs())) {
                    decisions.add(new Decision(u, sa, sb, base, false, sb));
                } else if (base != null && base.equals(sb.blobs())) {
                    decisions.add(new Decision(u, sa, sb, base, false, sa));
                } else {
                    decisions.add(new Decision(u, sa, sb, base, true, resolve(u, sa, sb, versions)));
                }
            }
            List<String> settled = new MergeSettle(reader, ca, versions, decisions).settle();
            Map<String, ObjectId> edits = new TreeMap<>();
            List<Lost> lost = new ArrayList<>();
            for (Decision d : decisions) {
                Side win = d.chosen;
                Side lose = d.other();
                if (d.both && d.unit.type() == Type.FACT && live(d.unit, win) && live(d.unit, lose)) {
                    lost.add(new Lost(FactId.of(d.unit.name()), versions.commitOf(lose.commit(), firstLive(d.unit, lose)),
                            versions.commitOf(win.commit(), firstLive(d.unit, win))));
                }
                for (String p : d.unit.paths()) {
                    ObjectId want = win.blobs().get(p);
                    if (!Objects.equals(want, d.a.blobs().get(p))) {
                        edits.put(p, want);
                    }
                }
            }
            lost.sort(Comparator.comparing(l -> l.id().value()));
            return new Result(edits, List.copyOf(lost), settled);
        }
    }

    /**
     * Both sides changed the unit: for a fact, a tombstone (a forget) beats everything, a
     * retraction beats a live version, and a live version beats no file at all; for a key, a revocation (no key) beats a key; otherwise
     * presence beats absence. Between two states of one rank the later version wins: the larger
     * (committer time, commit id) of the commit that introduced the deciding blob; then the larger
     * blob ids, then the larger paths (one blob at two paths), so the order of the sides never decides.
     */
    private static Side resolve(Unit u, Side a, Side b, Versions versions) throws IOException {
        return Collections.max(List.of(standing(u, a, versions), standing(u, b, versions)), LATER).side();
    }

    /** A side's place in {@link #resolve}'s order; two sides whose blobs differ never tie. */
    private record Standing(Side side, int rank, Versions.Version version, String blobs, String paths) {}

    private static final Comparator<Standing> LATER = Comparator.comparingInt(Standing::rank)
            .thenComparing(Standing::version).thenComparing(Standing::blobs).thenComparing(Standing::paths);

    private static Standing standing(Unit u, Side s, Versions versions) throws IOException {
        String p = decidingPath(u, s);
        return new Standing(s, rank(u, s), versions.of(s.commit(), p == null ? null : new Key(p, s.blobs().get(p))),
                String.join(",", s.blobs().values().stream().map(ObjectId::name).toList()),
                String.join(",", s.blobs().keySet()));
    }

    /** A path and the blob it holds. */
    record Key(String path, ObjectId blob) {}

    /**
     * A tombstone over a retraction over the rest; a revocation over a key. Presence needs no rank
     * over absence: an absent side's version is the lowest and its blob list the empty one.
     */
    private static int rank(Unit u, Side s) {
        switch (u.type()) {
            case FACT:
                if (s.blobs().containsKey(u.paths().get(u.paths().size() - 1))) {
                    return 2;
                }
                return !live(u, s) && !s.blobs().isEmpty() ? 1 : 0;
            case KEY:
                return s.blobs().isEmpty() ? 1 : 0;
            default:
                return 0;
        }
    }

    static boolean live(Unit u, Side s) {
        return firstLive(u, s) != null;
    }

    static Key firstLive(Unit u, Side s) {
        for (Map.Entry<String, ObjectId> e : s.blobs().entrySet()) {
            if (!e.getKey().startsWith(StorePaths.RETRACTIONS + "/") && !e.getKey().startsWith(StorePaths.TOMBSTONES + "/")) {
                return new Key(e.getKey(), e.getValue());
            }
        }
        return null;
    }

    private static String decidingPath(Unit u, Side s) {
        if (s.blobs().isEmpty()) {
            return null;
        }
        if (u.type() == Type.FACT) {
            String tombstone = u.paths().get(u.paths().size() - 1);
            if (s.blobs().containsKey(tombstone)) {
                return tombstone;
            }
            Key live = firstLive(u, s);
            return live != null ? live.path() : s.blobs().firstKey();
        }
        return s.blobs().firstKey();
    }

    private static List<RevCommit> bases(RevWalk walk, RevCommit a, RevCommit b) throws IOException {
        walk.setRevFilter(RevFilter.MERGE_BASE);
        walk.markStart(a);
        walk.markStart(b);
        List<RevCommit> out = new ArrayList<>();
        for (RevCommit c; (c = walk.next()) != null; ) {
            out.add(c);
        }
        return out;
    }

    /** The unit's state at the merge base, or null when several bases disagree on it. */
    private static TreeMap<String, ObjectId> baseOf(ObjectReader reader, List<RevCommit> bases, Unit u)
            throws IOException {
        TreeMap<String, ObjectId> first = null;
        for (RevCommit base : bases) {
            TreeMap<String, ObjectId> s = side(reader, base, u).blobs();
            if (first == null) {
                first = s;
            } else if (!first.equals(s)) {
                return null;
            }
        }
        return first;
    }

    private static Side side(ObjectReader reader, RevCommit c, Unit u) throws IOException {
        TreeMap<String, ObjectId> blobs = new TreeMap<>();
        for (String p : u.paths()) {
            ObjectId blob = blobAt(reader, c.getTree(), p);
            if (blob != null) {
                blobs.put(p, blob);
            }
        }
        return new Side(c, blobs);
    }

    static ObjectId blobAt(ObjectReader reader, ObjectId tree, String path) throws IOException {
        try (TreeWalk tw = TreeWalk.forPath(reader, path, tree)) {
            return tw == null ? null : tw.getObjectId(0).copy();
        }
    }

    private static Map<String, Unit> changedUnits(ObjectReader reader, ObjectId ta, ObjectId tb) throws IOException {
        Map<String, Unit> units = new LinkedHashMap<>();
        try (TreeWalk tw = onlyDifferences(new TreeWalk(reader))) {
            tw.addTree(ta);
            tw.addTree(tb);
            tw.setRecursive(true);
            while (tw.next()) {
                Unit u = unitOf(tw.getPathString());
                units.putIfAbsent(u.type() + ":" + u.name(), u);
            }
        }
        return units;
    }

    @dev.palimpsest.model.DoNotMutate("speed only: a path both trees hold alike makes a unit whose sides are equal, skipped")
    private static TreeWalk onlyDifferences(TreeWalk tw) {
        tw.setFilter(TreeFilter.ANY_DIFF);
        return tw;
    }

    static Unit unitOf(String path) {
        FactId id = StorePaths.idFromPath(path);
        if (id != null) {
            List<String> paths = new ArrayList<>(StorePaths.candidatePaths(id));
            paths.add(StorePaths.retractionPath(id));
            paths.add(StorePaths.tombstonePath(id));
            if (paths.contains(path)) {
                return new Unit(Type.FACT, id.value(), List.copyOf(paths));
            }
        }
        if (path.startsWith(StorePaths.KEYS + "/") && path.lastIndexOf('/') == StorePaths.KEYS.length()
                && (path.endsWith(".asc") || path.endsWith(".yaml"))) {
            String actor = path.substring(StorePaths.KEYS.length() + 1, path.lastIndexOf('.'));
            return new Unit(Type.KEY, actor, List.of(StorePaths.KEYS + "/" + actor + ".asc",
                    StorePaths.KEYS + "/" + actor + ".yaml"));
        }
        return new Unit(Type.OTHER, path, List.of(path));
    }

    /** Finds, per side, the commit that introduced a blob at a path, searched once per request. */
    static final class Versions {
        /** A version's order key: committer time, then commit id; {@code id} null when not found. */
        record Version(long time, ObjectId id) implements Comparable<Version> {
            @Override
            public int compareTo(Version o) {
                int c = Long.compare(time, o.time);
                if (c != 0) {
                    return c;
                }
                return (id == null ? "" : id.name()).compareTo(o.id == null ? "" : o.id.name());
            }
        }

        private static final BinaryOperator<Version> LATEST = BinaryOperator.maxBy(Comparator.naturalOrder());

        private final ObjectReader reader;
        private final List<RevCommit> bases;
        private final Map<String, Version> cache = new HashMap<>();

        Versions(ObjectReader reader, List<RevCommit> bases) {
            this.reader = reader;
            this.bases = bases;
        }

        /**
         * The latest commit reachable from {@code tip} and not from the merge bases whose tree holds
         * the key's blob at its path while none of its parents' trees does (time 0 and no id when there is none).
         */
        Version of(ObjectId tip, Key key) throws IOException {
            if (key == null) {
                return new Version(Long.MIN_VALUE, null);
            }
            String k = tip.name() + " " + key.path() + " " + key.blob().name();
            Version v = cache.get(k);
            if (v == null) {
                v = search(tip, key);
                cache.put(k, v);
            }
            return v;
        }

        /** The commit that introduced the key's blob on the side of {@code tip}, else {@code tip} itself. */
        ObjectId commitOf(ObjectId tip, Key key) throws IOException {
            ObjectId id = of(tip, key).id();
            return id == null ? tip.copy() : id;
        }

        /**
         * The latest commit reachable from {@code tip} and not from the merge bases whose tree lacks
         * {@code path} while one of its parents' trees holds it (time 0 and no id when there is none).
         */
        Version removal(ObjectId tip, String path) throws IOException {
            Version v = new Version(Long.MIN_VALUE, null);
            try (RevWalk walk = new RevWalk(reader)) {
                walk.markStart(walk.parseCommit(tip));
                for (RevCommit b : bases) {
                    walk.markUninteresting(walk.parseCommit(b));
                }
                for (RevCommit c : walk) {
                    if (blobAt(reader, c.getTree(), path) != null) {
                        continue;
                    }
                    boolean removed = false;
                    for (RevCommit p : c.getParents()) {
                        removed |= blobAt(reader, p.getTree(), path) != null;
                    }
                    if (removed) {
                        v = LATEST.apply(v, new Version(c.getCommitTime(), c.copy()));
                    }
                }
            }
            return v;
        }

        private Version search(ObjectId tip, Key key) throws IOException {
            Version best = new Version(Long.MIN_VALUE, null);
            try (RevWalk walk = new RevWalk(reader)) {
                walk.markStart(walk.parseCommit(tip));
                for (RevCommit b : bases) {
                    walk.markUninteresting(walk.parseCommit(b));
                }
                for (RevCommit c : walk) {
                    if (!key.blob().equals(blobAt(reader, c.getTree(), key.path()))) {
                        continue;
                    }
                    boolean introduced = true;
                    for (RevCommit p : c.getParents()) {
                        introduced &= !key.blob().equals(blobAt(reader, p.getTree(), key.path()));
                    }
                    if (introduced) {
                        best = LATEST.apply(best, new Version(c.getCommitTime(), c.copy()));
                    }
                }
            }
            return best;
        }
    }
}
