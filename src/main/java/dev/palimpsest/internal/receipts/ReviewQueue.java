package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.merge.ConvergentMerge;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.index.RefPin;
import dev.palimpsest.internal.query.Dependents;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.ReviewItem;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The review queue, derived from history at a commit (never hand-maintained): artifacts touched
 * (a bundle lost a member) but still alive, artifacts pending cleanup (file present although their
 * receipt died, or some of their sentences did: what a cascade would have removed or revised, e.g.
 * after {@code retract --no-cascade}), and live facts whose refs are stale (target retracted,
 * superseded or revised), less the items acknowledged at their current version by a live
 * {@code review-ack} fact (ref role {@code acknowledges}). Stateless.
 */
public final class ReviewQueue {
    public static final String ACK_KIND = "review-ack";
    public static final RefRole ACK_ROLE = RefRole.ACKNOWLEDGES;

    private ReviewQueue() {}

    public static List<ReviewItem> items(PredicateIndex index, Cleanup c) {
        ReceiptGraph g = c.graph();
        Liveness l = c.baseline();
        ObjectId at = g.commit;
        List<ReviewItem> out = new ArrayList<>();
        // the nodes that may be items: artifacts whose receipts are not whole, and the citers of facts
        // that changed (the index's superset); every other live fact has none
        java.util.BitSet todo = new java.util.BitSet(g.size());
        for (int n = 0; n < g.size(); n++) {
            if (g.live[n] && g.kind[n] >= ReceiptGraph.MERGE && (!l.alive(n) || l.partlyDead(n) || l.touched.get(n))) {
                todo.set(n);
            }
        }
        for (String citer : index.mayCiteStale()) {
            Integer n = g.nodeOf.get(FactId.of(citer));
            if (n != null && n < g.size() && g.live[n]) {
                todo.set(n);
            }
        }
        for (int n = todo.nextSetBit(0); n >= 0; n = todo.nextSetBit(n + 1)) {
            FactId id = g.ids.get(n);
            FactState st = index.state(id, at);
            if (st == null || ACK_KIND.equals(st.kind())) {
                continue;
            }
            // what would make the fact an item first (cheap, and most facts are none), then its acknowledgement
            boolean pending = g.kind[n] >= ReceiptGraph.MERGE && (!l.alive(n) || l.partlyDead(n));
            boolean touched = !pending && g.kind[n] >= ReceiptGraph.MERGE && l.touched.get(n);
            List<RefStatus> stale = st.refs().isEmpty() ? List.of() : Dependents.staleOnly(index, id, st, at);
            if (!pending && !touched && stale.isEmpty()
                    || acknowledged(index, id, st.versionCommit(), at)) {
                continue;
            }
            CommitId version = CommitId.of(st.versionCommit().name());
            String layer = ReceiptGraph.LAYER[g.kind[n]];
            if (pending) {
                List<String> details = new ArrayList<>();
                if (!l.alive(n)) {
                    details.add(g.flat[n] && g.config.distrustFlat() && !l.unitDead(g.firstUnit[n])
                            ? "flat summary receipt touched (policy distrust)" : "no live bundle");
                } else {
                    List<Integer> dead = new ArrayList<>();
                    for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
                        if (l.unitDead(u)) {
                            dead.add(g.unitSentence[u]);
                        }
                    }
                    details.add("dead sentence(s) " + dead);
                }
                details.addAll(lost(g, l, n));
                out.add(new ReviewItem(id, layer, ReviewItem.Reason.PENDING, version, details));
            } else if (touched) {
                out.add(new ReviewItem(id, layer, ReviewItem.Reason.TOUCHED, version, List.copyOf(lost(g, l, n))));
            }
            if (!stale.isEmpty()) {
                out.add(staleRefs(id, g.kind[n] == ReceiptGraph.OTHER && st.kind() != null ? st.kind() : layer, version,
                        stale));
            }
        }
        return out;
    }

    /**
     * The review queue at {@code at} when its tree holds no {@code assertions/} and no
     * {@code artifacts/} (see {@link #hasNoArtifacts}): no receipt can be touched or pending, so only
     * stale refs make an item, and only the citers of facts that changed can have one. The same list
     * as {@link #items} there, in the same order (the tree's: by file path), without loading the
     * commit's receipt graph (a walk of its whole tree).
     */
    public static List<ReviewItem> staleRefItems(PredicateIndex index, ObjectId at) {
        java.util.TreeMap<String, ReviewItem> byPath = new java.util.TreeMap<>();
        for (String citer : index.mayCiteStale()) {
            FactId id = FactId.of(citer);
            FactState st = index.state(id, at);
            if (st == null || !st.live() || st.kind() == null || ACK_KIND.equals(st.kind()) || st.refs().isEmpty()) {
                continue;
            }
            List<RefStatus> stale = Dependents.staleOnly(index, id, st, at);
            if (stale.isEmpty() || acknowledged(index, id, st.versionCommit(), at)) {
                continue;
            }
            dev.palimpsest.model.Kind kind = dev.palimpsest.model.Kind.of(st.kind());
            boolean source = StorePaths.SOURCES.equals(StorePaths.folderFor(kind));
            byPath.put(StorePaths.factPath(kind, id), staleRefs(id, source ? ReceiptGraph.LAYER[ReceiptGraph.SOURCE]
                    : st.kind(), CommitId.of(st.versionCommit().name()), stale));
        }
        return new ArrayList<>(byPath.values());
    }

    /** True when the tree of {@code commit} holds neither {@code assertions/} nor {@code artifacts/}. */
    public static boolean hasNoArtifacts(org.eclipse.jgit.lib.Repository repo, ObjectId commit) {
        try (org.eclipse.jgit.revwalk.RevWalk walk = new org.eclipse.jgit.revwalk.RevWalk(repo);
                org.eclipse.jgit.treewalk.TreeWalk tw = new org.eclipse.jgit.treewalk.TreeWalk(repo)) {
            tw.addTree(walk.parseCommit(commit).getTree());
            tw.setRecursive(false);
            while (tw.next()) {
                String name = tw.getNameString();
                if (name.equals(StorePaths.ASSERTIONS) || name.equals(StorePaths.ARTIFACTS)) {
                    return false;
                }
            }
            return true;
        } catch (java.io.IOException e) {
            throw new dev.palimpsest.model.PalimpsestInternalException("cannot read the tree of " + commit.name(), e);
        }
    }

    private static ReviewItem staleRefs(FactId id, String layer, CommitId version, List<RefStatus> stale) {
        List<String> details = new ArrayList<>();
        for (RefStatus r : stale) {
            details.add(r.role() + " " + r.target() + " " + r.status().name().toLowerCase(Locale.ROOT));
        }
        return new ReviewItem(id, layer, ReviewItem.Reason.STALE_REFS, version, details);
    }

    /** "lost X" for each dead member of a dead bundle of node {@code n}, sorted. */
    private static TreeSet<String> lost(ReceiptGraph g, Liveness l, int n) {
        TreeSet<String> lost = new TreeSet<>();
        for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
            for (int b = g.unitFirstBundle[u]; b < g.unitFirstBundle[u + 1]; b++) {
                if (l.deadBundle.get(b)) {
                    for (int i = g.bundleStart[b]; i < g.bundleStart[b + 1]; i++) {
                        if (l.dead.get(g.members[i])) {
                            lost.add("lost " + g.ids.get(g.members[i]));
                        }
                    }
                }
            }
        }
        return lost;
    }

    /** The id of the acknowledgement of {@code item} at version {@code version}. */
    public static FactId ackId(FactId item, CommitId version) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-1").digest((item.value() + "@" + version.hex())
                    .getBytes(StandardCharsets.UTF_8));
            return FactId.of("ack-" + HexFormat.of().formatHex(h, 0, 6));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The facts whose concurrent revision lost a merge ({@code losses}, see
     * {@code internal.merge.MergeLosses}) and that are still live at the winning version at
     * {@code at}, unacknowledged at that version: reason {@link ReviewItem.Reason#CONCURRENT_REVISION}.
     */
    public static List<ReviewItem> concurrent(PredicateIndex index, List<ConvergentMerge.Lost> losses, ObjectId at) {
        List<ReviewItem> out = new ArrayList<>();
        for (ConvergentMerge.Lost l : losses) {
            FactState st = index.state(l.id(), at);
            if (st == null || !st.live() || !l.winner().equals(st.versionCommit())
                    || acknowledged(index, l.id(), l.winner(), at)) {
                continue;
            }
            out.add(new ReviewItem(l.id(), st.kind() == null ? "fact" : st.kind(), ReviewItem.Reason.CONCURRENT_REVISION,
                    CommitId.of(l.winner().name()), List.of("the concurrent revision of " + l.loser().name()
                            + " lost the merge to this version")));
        }
        return out;
    }

    private static boolean acknowledged(PredicateIndex index, FactId id, ObjectId version, ObjectId at) {
        for (String citer : index.citers(id)) {
            FactState st = index.state(FactId.of(citer), at);
            if (st == null || !st.live() || !ACK_KIND.equals(st.kind())) {
                continue;
            }
            for (RefPin p : st.refs()) {
                if (p.target().equals(id.value()) && ACK_ROLE.value().equals(p.role()) && version.equals(p.commit())) {
                    return true;
                }
            }
        }
        return false;
    }
}
