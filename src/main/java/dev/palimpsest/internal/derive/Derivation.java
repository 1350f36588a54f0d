package dev.palimpsest.internal.derive;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.index.RefPin;
import dev.palimpsest.internal.query.Dependents;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.RefRole;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.FooterLine;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * What derives from what, answered at any commit from the predicate index: the dependents of a
 * fact (every fact some version of which, written in the ancestry of the asked commit, cites it,
 * directly or through other dependents) and the provenance tree of a fact version down to its
 * sources. Versions later retracted count: the derivation set at a commit contains the set at each
 * of its ancestors, so it never shrinks across a retraction. Thread-safe.
 */
public final class Derivation {
    /** The trailer naming the agent run that produced a write. */
    public static final String RUN_TRAILER = "Palimpsest-Run";
    private static final org.eclipse.jgit.revwalk.FooterKey RUN_KEY = new org.eclipse.jgit.revwalk.FooterKey(RUN_TRAILER);

    private final GitRepo repo;
    private final PredicateIndex index;
    private final Map<ObjectId, String[]> commitInfo = new ConcurrentHashMap<>();
    private final ReceiptMembers receipts;

    public Derivation(GitRepo repo, PredicateIndex index) {
        this.repo = repo;
        this.index = index;
        this.receipts = new ReceiptMembers(repo, index);
    }

    /**
     * Tells the receipt side of the artifact versions a commit of this process wrote (changes: path
     * to blob; facts: the facts encoded, by path), so answering about them decodes nothing. Safe to
     * call under the writer lock (as a commit listener).
     */
    public void committed(Map<String, ObjectId> changes, Map<String, dev.palimpsest.model.Fact> facts) {
        receipts.learn(changes, facts);
    }

    /** How many artifact blobs this JVM decoded for receipt members (the persisted index spares the rest); for tests. */
    public static long receiptDecodes() {
        return ReceiptMembers.DECODES.get();
    }

    /**
     * The facts that cite {@code target} at {@code at} (any version in its ancestry), or, with
     * {@code transitive}, everything that reaches it through such citations; breadth first, each
     * with its least depth and the first hop of a shortest path (the smallest id among equals).
     * Sorted by depth, then id.
     */
    public List<Dependent> dependents(FactId target, ObjectId at, boolean transitive) {
        index.catchUp(at);
        receipts.catchUp();
        Map<String, FactId> seen = new HashMap<>();
        Map<String, Boolean> liveness = new HashMap<>();
        List<String> frontier = List.of(target.value());
        Set<String> visited = new HashSet<>();
        visited.add(target.value());
        List<Dependent> out = new ArrayList<>();
        int depth = 0;
        while (!frontier.isEmpty() && (transitive || depth == 0)) {
            depth++;
            Map<String, String> next = new HashMap<>();
            for (String node : frontier) {
                String via = depth == 1 ? null : seen.get(node).value();
                java.util.function.BiConsumer<String, Boolean> found = (citer, live) -> {
                    if (!visited.contains(citer)) {
                        next.merge(citer, via == null ? citer : via, (a, b) -> a.compareTo(b) <= 0 ? a : b);
                        liveness.put(citer, live);
                    }
                };
                index.citersAt(node, at, found);
                for (String artifact : receipts.artifactsNaming(node)) {
                    if (!visited.contains(artifact) && restsOn(artifact, node, at)) {
                        FactState now = index.state(FactId.of(artifact), at);
                        found.accept(artifact, now != null && now.live());
                    }
                }
            }
            List<String> level = new ArrayList<>(next.keySet());
            level.sort(null);
            for (String id : level) {
                visited.add(id);
                FactId fid = FactId.of(id);
                String v = next.get(id);
                FactId viaId = v.equals(id) ? fid : seen.get(v);
                Dependent d = new Dependent(fid, depth, viaId, liveness.get(id));
                seen.put(id, viaId);
                out.add(d);
            }
            frontier = level;
        }
        return out;
    }

    /** True when some version of {@code artifact} in the ancestry of {@code at} names {@code member} in a receipt. */
    private boolean restsOn(String artifact, String member, ObjectId at) {
        for (FactState e : index.eventsAt(FactId.of(artifact), at)) {
            if (e.live() && e.blob() != null && receipts.members(e.blob()).contains(member)) {
                return true;
            }
        }
        return false;
    }

    /** True when some version of {@code referrer} in the ancestry of {@code at} cites {@code target}. */
    private boolean cites(FactId referrer, String target, ObjectId at) {
        for (FactState e : index.eventsAt(referrer, at)) {
            if (e.live()) {
                for (RefPin p : e.refs()) {
                    if (p.target().equals(target)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The provenance tree of {@code root}'s version navigable at {@code at}: each ref of a version
     * leads to the target version it pinned, recursively down to facts without refs. Null when the
     * fact has no navigable version at {@code at}.
     */
    public ProvenanceNode explain(FactId root, ObjectId at) {
        receipts.catchUp();
        FactState st = index.existing(root, at);
        if (st == null) {
            return null;
        }
        return node(root, null, st, at, new HashSet<>());
    }

    private ProvenanceNode node(FactId id, RefRole role, FactState version, ObjectId at, Set<String> path) {
        String key = id.value() + "@" + version.versionCommit().name();
        String[] info = commitInfo(version.versionCommit());
        if (info[1] == null && dev.palimpsest.internal.layout.FileMeta.KIND.equals(version.kind())) {
            info = new String[] {info[0], fileRun(id, version)};
        }
        ProvenanceNode.Status status = status(id, version, at);
        CommitId vc = CommitId.of(version.versionCommit().name());
        BlobId blob = version.blob() == null ? null : BlobId.of(version.blob().name());
        if (!path.add(key)) {
            return new ProvenanceNode(id, role, vc, blob, status, version.kind(), info[0], info[1], true, List.of());
        }
        List<ProvenanceNode> children = new ArrayList<>();
        for (RefPin p : version.refs()) {
            FactId target = FactId.of(p.target());
            ObjectId pin = p.commit() == null ? version.versionCommit() : p.commit();
            FactState pinned = index.existing(target, pin);
            if (pinned == null) {
                continue;
            }
            children.add(node(target, RefRole.of(p.role()), pinned, at, path));
        }
        for (dev.palimpsest.model.Pin p : receiptPins(id, version)) {
            ObjectId pin = p.commit() == null ? version.versionCommit() : ObjectId.fromString(p.commit().hex());
            FactState pinned = index.existing(p.id(), pin);
            if (pinned != null) {
                children.add(node(p.id(), RECEIPT, pinned, at, path));
            }
        }
        path.remove(key);
        return new ProvenanceNode(id, role, vc, blob, status, version.kind(), info[0], info[1], false, children);
    }

    /** The role shown for a receipt member in a provenance tree. */
    public static final RefRole RECEIPT = RefRole.of("receipt");

    /** The distinct pinned members of an artifact version's receipts (and sentences' receipts), by id. */
    private List<dev.palimpsest.model.Pin> receiptPins(FactId id, FactState version) {
        if (version.blob() == null || receipts.members(version.blob()).isEmpty() && !isArtifact(version.kind())) {
            return List.of();
        }
        try (org.eclipse.jgit.lib.ObjectReader reader = repo.newReader()) {
            dev.palimpsest.model.Fact f = dev.palimpsest.internal.yaml.FactCodec.decodeFact(reader.open(version.blob(),
                    org.eclipse.jgit.lib.Constants.OBJ_BLOB).getCachedBytes(dev.palimpsest.model.Limits.MAX_FILE), id.value());
            java.util.TreeMap<String, dev.palimpsest.model.Pin> out = new java.util.TreeMap<>();
            List<dev.palimpsest.model.Receipt> rs = new ArrayList<>();
            if (f.grounding().receipt() != null) {
                rs.add(f.grounding().receipt());
            }
            f.grounding().sentences().forEach(snt -> rs.add(snt.receipt()));
            for (dev.palimpsest.model.Receipt r : rs) {
                for (List<dev.palimpsest.model.Pin> bundle : r.bundles()) {
                    for (dev.palimpsest.model.Pin p : bundle) {
                        if (!p.id().equals(id)) {
                            out.putIfAbsent(p.id().value(), p);
                        }
                    }
                }
            }
            return new ArrayList<>(out.values());
        } catch (IOException | dev.palimpsest.internal.yaml.FormatException | RuntimeException e) {
            return List.of();
        }
    }

    /** The run recorded in a file record version's metadata, or null. */
    private String fileRun(FactId id, FactState version) {
        try (org.eclipse.jgit.lib.ObjectReader reader = repo.newReader()) {
            dev.palimpsest.model.Fact f = dev.palimpsest.internal.yaml.FactCodec.decodeFact(reader.open(version.blob(),
                    org.eclipse.jgit.lib.Constants.OBJ_BLOB).getCachedBytes(dev.palimpsest.model.Limits.MAX_FILE), id.value());
            dev.palimpsest.internal.layout.FileMeta m = dev.palimpsest.internal.layout.FileMeta.decode(f.body());
            return m == null ? null : m.run();
        } catch (IOException | dev.palimpsest.internal.yaml.FormatException | RuntimeException e) {
            return null;
        }
    }

    private static boolean isArtifact(String kind) {
        return "merge".equals(kind) || "edge".equals(kind) || "summary".equals(kind);
    }

    /** Live (this very version), revised (another version live), superseded, or retracted at {@code at}. */
    private ProvenanceNode.Status status(FactId id, FactState version, ObjectId at) {
        FactState now = index.state(id, at);
        if (now == null || !now.live()) {
            return ProvenanceNode.Status.RETRACTED;
        }
        if (Dependents.supersededBy(index, id, at) != null) {
            return ProvenanceNode.Status.SUPERSEDED;
        }
        return now.versionCommit().equals(version.versionCommit()) ? ProvenanceNode.Status.LIVE
                : ProvenanceNode.Status.REVISED;
    }

    /** The author (actor) and {@code Palimpsest-Run} trailer (or null) of a commit, cached. */
    public String[] commitInfo(ObjectId commit) {
        return commitInfo.computeIfAbsent(commit.copy(), c -> {
            try (RevWalk walk = new RevWalk(repo.repository())) {
                RevCommit rc = walk.parseCommit(c);
                String run = null;
                for (FooterLine f : rc.getFooterLines()) {
                    if (f.matches(RUN_KEY)) {
                        run = f.getValue();
                    }
                }
                return new String[] {rc.getAuthorIdent().getName(), run};
            } catch (IOException e) {
                throw new dev.palimpsest.model.PalimpsestInternalException("cannot read commit " + c.name(), e);
            }
        });
    }

    /** Convenience for depth-first consumers: every node of a tree, root first. */
    public static List<ProvenanceNode> flatten(ProvenanceNode root) {
        List<ProvenanceNode> out = new ArrayList<>();
        ArrayDeque<ProvenanceNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            ProvenanceNode n = stack.pop();
            out.add(n);
            for (int i = n.children().size() - 1; i >= 0; i--) {
                stack.push(n.children().get(i));
            }
        }
        return out;
    }
}
