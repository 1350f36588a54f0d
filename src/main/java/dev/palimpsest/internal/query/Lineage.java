package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Weight;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Evidence weight, the single place where retracted evidence stops counting. From the roots, the
 * lineage is walked breadth-first over the refs of each fact's version live at the commit, to
 * {@link #MAX_DEPTH} hops, each fact visited once (cycles cut). A fact that is not live at the
 * commit (retracted, or never written) contributes nothing and is not walked through; a
 * hypothesis contributes nothing and is not walked through. Sources count once each: a live source
 * reached adds its confidence (1 when absent); a merge adds each source it pooled from its inputs
 * before retracting them, with the recorded mass, if that source is still live at the commit.
 * {@code w = s / (s + 1)}. Stateless.
 */
public final class Lineage {
    public static final int MAX_DEPTH = 8;

    private Lineage() {}

    /** The evidence mass, the number of live facts visited, and the mass by source. */
    public record Mass(double s, int visited, java.util.SortedMap<FactId, Double> bySource) {}

    public static Mass mass(GitRepo repo, PredicateIndex index, Collection<FactId> roots, ObjectId at) {
        java.util.SortedMap<FactId, Double> bySource = new java.util.TreeMap<>();
        int visited = 0;
        Set<FactId> seen = new HashSet<>();
        ArrayDeque<FactId> queue = new ArrayDeque<>();
        ArrayDeque<Integer> depth = new ArrayDeque<>();
        for (FactId r : roots) {
            queue.add(r);
            depth.add(0);
        }
        try (FactReader facts = new FactReader(repo)) {
            while (!queue.isEmpty()) {
                FactId id = queue.poll();
                int d = depth.poll();
                if (!seen.add(id)) {
                    continue;
                }
                FactState st = index.state(id, at);
                if (st == null || !st.live()) {
                    continue;
                }
                Fact f = facts.read(st.blob());
                if (f == null || Kind.HYPOTHESIS.equals(f.kind())) {
                    continue;
                }
                visited++;
                if (Kind.SOURCE.equals(f.kind())) {
                    bySource.put(id, f.confidence() == null ? 1.0 : f.confidence());
                }
                for (var p : f.pooled().entrySet()) {
                    FactState ps = index.state(p.getKey(), at);
                    if (ps != null && ps.live()) {
                        bySource.putIfAbsent(p.getKey(), p.getValue());
                    }
                }
                if (d < MAX_DEPTH) {
                    for (Ref r : f.refs()) {
                        queue.add(r.id());
                        depth.add(d + 1);
                    }
                }
            }
        }
        double s = 0;
        for (double m : bySource.values()) {
            s += m;
        }
        return new Mass(s, visited, bySource);
    }

    public static Weight weight(GitRepo repo, PredicateIndex index, FactId id, CommitId at) {
        Mass m = mass(repo, index, Set.of(id), ObjectId.fromString(at.hex()));
        return new Weight(id, at, m.s(), m.s() / (m.s() + 1), m.visited());
    }
}
