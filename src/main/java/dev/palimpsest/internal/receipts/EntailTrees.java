package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * What incremental entailment reads from git, without loading a whole receipt graph: the assertion
 * and entailed-edge files that differ between two trees (a tree diff that skips identical subtrees,
 * decoding only the changed blobs), the edge files of given ids at one tree (read by path), and the
 * store config. Stateless.
 */
final class EntailTrees {
    /**
     * The changes between two trees: per assertion file added, revised or removed, the triple it
     * states now (null when it is gone or no longer a well-formed assertion); and the triples of the
     * entailed-edge files added, revised or removed (either side).
     */
    record Delta(Map<String, Entailer.Triple> assertions, Set<Entailer.Triple> edges) {}

    private EntailTrees() {}

    static Delta between(ObjectReader reader, FactCache cache, RevTree from, RevTree to) throws IOException {
        Map<String, Entailer.Triple> assertions = new HashMap<>();
        Set<Entailer.Triple> edges = new HashSet<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(StorePaths.ASSERTIONS,
                    StorePaths.ARTIFACTS), TreeFilter.ANY_DIFF));
            tw.addTree(from);
            tw.addTree(to);
            while (tw.next()) {
                String path = tw.getPathString();
                FactId id = StorePaths.idFromPath(path);
                if (id == null) {
                    continue;
                }
                if (path.startsWith(StorePaths.ASSERTIONS + "/")) {
                    Fact now = isFile(tw, 1) ? cache.get(reader, tw.getObjectId(1)) : null;
                    assertions.put(id.value(), now != null && Kind.ASSERTION.equals(now.kind())
                            && now.grounding().hasTriple() ? triple(now.grounding()) : null);
                } else {
                    for (int side = 0; side < 2; side++) {
                        Fact f = isFile(tw, side) ? cache.get(reader, tw.getObjectId(side)) : null;
                        if (f != null && Kind.EDGE.equals(f.kind()) && EntailSync.isEntailedEdge(f)) {
                            edges.add(triple(f.grounding()));
                        }
                    }
                }
            }
        }
        return new Delta(assertions, edges);
    }

    /**
     * The files at {@code tree} of the edge ids {@code ids} (under {@code artifacts/}): id -> decoded
     * fact; an id whose file is present but malformed maps to null, an id without a file is absent.
     */
    static Map<FactId, Fact> edgesAt(ObjectReader reader, FactCache cache, RevTree tree, Collection<FactId> ids)
            throws IOException {
        Map<FactId, Fact> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        List<String> paths = new ArrayList<>(ids.size());
        for (FactId id : ids) {
            paths.add(StorePaths.factPath(Kind.EDGE, id));
        }
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(PathFilterGroup.createFromStrings(paths));
            tw.addTree(tree);
            while (tw.next()) {
                FactId id = StorePaths.idFromPath(tw.getPathString());
                if (id != null && isFile(tw, 0)) {
                    out.put(id, cache.get(reader, tw.getObjectId(0)));
                }
            }
        }
        return out;
    }

    /** The store config at {@code tree} (the default config when the file is absent). */
    static StoreConfig config(ObjectReader reader, RevTree tree) throws IOException, FormatException {
        try (TreeWalk tw = TreeWalk.forPath(reader, StorePaths.CONFIG, tree)) {
            ObjectId blob = tw == null ? null : tw.getObjectId(0);
            return blob == null ? StoreConfig.current()
                    : FactCodec.decodeConfig(reader.open(blob).getCachedBytes(), StorePaths.CONFIG);
        }
    }

    static Entailer.Triple triple(Grounding g) {
        return new Entailer.Triple(g.subject(), g.predicate(), g.object());
    }

    private static boolean isFile(TreeWalk tw, int tree) {
        return (tw.getRawMode(tree) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
    }
}
