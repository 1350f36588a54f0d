package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Materialises entailment as {@code edge} artifacts: an entailed edge's id is derived from its
 * triple ({@code e-<16 hex of SHA-1(subject|predicate|object)>}) and its receipt lists the
 * alternative derivations (premises: assertions, or other entailed edges). Computes the writes
 * that bring the store's entailed edges to an {@link Entailer}'s state: new edges, changed
 * receipts, edges no derivation supports any more. Stateless.
 */
public final class EntailSync {
    /** The writes of one entailment run. */
    public record Changes(List<Fact> added, List<Fact> revised, List<FactId> retracted) {
        public boolean isEmpty() {
            return added.isEmpty() && revised.isEmpty() && retracted.isEmpty();
        }
    }

    private EntailSync() {}

    public static FactId edgeId(Entailer.Triple t) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-1").digest((t.s() + "|" + t.p() + "|" + t.o())
                    .getBytes(StandardCharsets.UTF_8));
            return FactId.of("e-" + HexFormat.of().formatHex(h, 0, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The live assertions of the graph: id -> triple. */
    public static Map<String, Entailer.Triple> assertions(ReceiptGraph g) {
        Map<String, Entailer.Triple> out = new HashMap<>();
        for (int n = 0; n < g.size(); n++) {
            if (g.kind[n] == ReceiptGraph.ASSERTION && g.live[n] && g.facts[n] != null
                    && g.facts[n].grounding().hasTriple()) {
                out.put(g.ids.get(n).value(), EntailTrees.triple(g.facts[n].grounding()));
            }
        }
        return out;
    }

    /** The receipt of an entailed triple in the entailer's state (the smallest 8 derivations). */
    public static Receipt receipt(Entailer e, Entailer.Triple t) {
        List<List<Pin>> bundles = new ArrayList<>();
        for (List<String> b : e.bundles(t, x -> edgeId(x).value())) {
            bundles.add(b.stream().map(m -> Pin.of(FactId.of(m))).toList());
        }
        return Receipt.truncated(bundles);
    }

    /** What to write so every entailed edge of the graph matches the entailer (a from-scratch comparison). */
    public static Changes diff(ReceiptGraph g, Entailer e) {
        List<Fact> added = new ArrayList<>();
        List<Fact> revised = new ArrayList<>();
        List<FactId> retracted = new ArrayList<>();
        Map<FactId, Boolean> wanted = new HashMap<>();
        for (Entailer.Triple t : e.entailed()) {
            FactId id = edgeId(t);
            wanted.put(id, true);
            int n = g.find(id);
            boolean missing = n < 0 || !g.live[n] || g.facts[n] == null;
            compare(e, t, missing ? null : g.facts[n], added, revised);
        }
        for (int n = 0; n < g.size(); n++) {
            Fact f = g.facts[n];
            if (g.kind[n] == ReceiptGraph.EDGE && g.live[n] && f != null && isEntailedEdge(f)
                    && !wanted.containsKey(f.id())) {
                retracted.add(f.id());
            }
        }
        return sorted(added, revised, retracted);
    }

    /**
     * What to write so the edges of the triples in {@code region} match the entailer, given the
     * store's files of their edge ids ({@code stored}: id -> decoded file, null when malformed; absent
     * when there is no file). Edges outside the region are taken to match already.
     */
    public static Changes diff(Entailer e, Set<Entailer.Triple> region, Map<FactId, Fact> stored) {
        List<Fact> added = new ArrayList<>();
        List<Fact> revised = new ArrayList<>();
        List<FactId> retracted = new ArrayList<>();
        for (Entailer.Triple t : region) {
            FactId id = edgeId(t);
            Fact f = stored.get(id);
            if (e.rank(t) >= 1) {
                compare(e, t, f, added, revised);
            } else if (f != null && Kind.EDGE.equals(f.kind()) && isEntailedEdge(f)) {
                retracted.add(id);
            }
        }
        return sorted(added, revised, retracted);
    }

    private static void compare(Entailer e, Entailer.Triple t, Fact stored, List<Fact> added, List<Fact> revised) {
        Receipt r = receipt(e, t);
        Fact f = new Fact(edgeId(t), Kind.EDGE, t.s() + " " + t.p() + " " + t.o(), null, List.of(), null,
                new Grounding(t.s(), t.p(), t.o(), r, List.of(), false));
        if (stored == null) {
            added.add(f);
        } else if (!sameMembers(stored.grounding().receipt(), r)) {
            revised.add(f);
        }
    }

    private static Changes sorted(List<Fact> added, List<Fact> revised, List<FactId> retracted) {
        added.sort((a, b) -> a.id().compareTo(b.id()));
        revised.sort((a, b) -> a.id().compareTo(b.id()));
        retracted.sort(null);
        return new Changes(added, revised, retracted);
    }

    /** True when the edge's id is the one entailment derives from its triple. */
    public static boolean isEntailedEdge(Fact f) {
        Grounding g = f.grounding();
        return g.hasTriple() && f.id().equals(edgeId(new Entailer.Triple(g.subject(), g.predicate(), g.object())));
    }

    /** The operations that write the changes: retractions, then additions, then revisions. */
    public static List<Operation> operations(Changes c) {
        List<Operation> ops = new ArrayList<>();
        for (FactId id : c.retracted()) {
            ops.add(new Operation.Retract(id, "entail: no derivation remains"));
        }
        for (Fact f : c.added()) {
            ops.add(new Operation.Assert(f.id(), Kind.EDGE, f.body(), null, List.of(), false, f.grounding()));
        }
        for (Fact f : c.revised()) {
            ops.add(new Operation.Reground(f.id(), null, f.grounding(), "entail: derivations changed"));
        }
        return ops;
    }

    private static boolean sameMembers(Receipt a, Receipt b) {
        if (a == null || a.bundles().size() != b.bundles().size()) {
            return false;
        }
        for (int i = 0; i < a.bundles().size(); i++) {
            List<FactId> x = a.bundles().get(i).stream().map(Pin::id).toList();
            List<FactId> y = b.bundles().get(i).stream().map(Pin::id).toList();
            if (!Objects.equals(x, y)) {
                return false;
            }
        }
        return true;
    }
}
