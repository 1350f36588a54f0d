package dev.palimpsest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.internal.yaml.Ontology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A seeded generator of a graph shaped like the PolyGraph corpus: 300 sources (61 of them to be
 * retracted), about 2,785 assertions over a part-of hierarchy and regulation predicates, about 165
 * merges and 59 summaries (half with sentence receipts, half flat), and axioms whose closure is
 * about 21k entailed edges. Keeps the ground truth (who rests on what) to grade cleanup against.
 * Deterministic for a seed. Not thread-safe.
 */
public final class ReceiptsGraphGen {
    /** One assertion: its id, document index and triple. */
    public record Assertion(String id, int doc, Entailer.Triple triple) {}

    /** A model-authored artifact: merge, or summary with per-sentence bundles (flat or not). */
    public record Artifact(String id, String kind, List<List<List<String>>> sentences, boolean flat) {}

    public static final Ontology ONTOLOGY = new Ontology(List.of("part_of"),
            new TreeMap<>(Map.of("regulates", "regulated_by")),
            new TreeMap<>(Map.of("activates", "regulates", "inhibits", "regulates", "regulates", "upstream_of")),
            List.of(new Ontology.Chain(List.of("regulates", "part_of"), "regulates")));

    public final int sources;
    public final List<Assertion> assertions = new ArrayList<>();
    public final List<Artifact> artifacts = new ArrayList<>();
    public final TreeSet<Integer> retracted = new TreeSet<>();

    public ReceiptsGraphGen(long seed, int sources, int assertionCount, int merges, int summaries, int entities,
            int regulation) {
        this.sources = sources;
        Random rnd = new Random(seed);
        while (retracted.size() < Math.max(1, sources * 61 / 300)) {
            retracted.add(rnd.nextInt(sources));
        }
        int hierarchy = Math.min(entities, 320);
        String[] regs = {"regulates", "activates", "inhibits"};
        String[] plain = {"binds", "expressed_in", "associated_with"};
        for (int i = 0; i < assertionCount; i++) {
            int doc = i < sources ? i : rnd.nextInt(sources);
            int roll = rnd.nextInt(100);
            Entailer.Triple t;
            int h = i % hierarchy;
            if (i < 2 * hierarchy && h > 0) {
                t = new Entailer.Triple(name(h), "part_of", name((h - 1) / 2));
            } else if (roll < regulation) {
                t = new Entailer.Triple(name(rnd.nextInt(entities)), regs[rnd.nextInt(regs.length)],
                        name(rnd.nextInt(hierarchy)));
            } else {
                t = new Entailer.Triple(name(rnd.nextInt(entities)), plain[rnd.nextInt(plain.length)],
                        name(rnd.nextInt(entities)));
            }
            assertions.add(new Assertion("as-" + i, doc, t));
        }
        for (int m = 0; m < merges; m++) {
            artifacts.add(new Artifact("mg-" + m, "merge", List.of(bundles(rnd, 1 + rnd.nextInt(3))), false));
        }
        for (int s = 0; s < summaries; s++) {
            List<List<List<String>>> sentences = new ArrayList<>();
            for (int k = 0, n = 3 + rnd.nextInt(4); k < n; k++) {
                sentences.add(bundles(rnd, 1 + rnd.nextInt(2)));
            }
            artifacts.add(new Artifact("sm-" + s, "summary", sentences, s % 2 == 1));
        }
    }

    /** The paper-sized graph. */
    public static ReceiptsGraphGen paperSized(long seed) {
        return new ReceiptsGraphGen(seed, 300, 2785, 165, 59, 700, 48);
    }

    private List<List<String>> bundles(Random rnd, int count) {
        List<List<String>> out = new ArrayList<>();
        for (int b = 0; b < count; b++) {
            TreeSet<String> members = new TreeSet<>();
            for (int k = 0, n = 1 + rnd.nextInt(2); k < n; k++) {
                members.add(assertions.get(rnd.nextInt(assertions.size())).id());
            }
            if (!out.contains(List.copyOf(members))) {
                out.add(List.copyOf(members));
            }
        }
        return out;
    }

    static String name(int e) {
        return "entity " + e;
    }

    public static String doc(int d) {
        return String.format("doc-%03d", d);
    }

    /** The ingest batch (YAML): axioms, sources, assertions, merges and summaries; flat summaries flatten their sentences' bundles. */
    public String batchYaml() {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> onto = new LinkedHashMap<>();
        onto.put("transitive", ONTOLOGY.transitive());
        onto.put("inverse", ONTOLOGY.inverse());
        onto.put("subproperty", ONTOLOGY.subproperty());
        onto.put("chains", ONTOLOGY.chains().stream().map(c -> Map.of("of", c.of(), "implies", c.implies())).toList());
        root.put("ontology", onto);
        List<Object> srcs = new ArrayList<>();
        for (int d = 0; d < sources; d++) {
            srcs.add(Map.of("id", doc(d), "body", "Abstract " + d + " of the generated corpus."));
        }
        root.put("sources", srcs);
        List<Object> as = new ArrayList<>();
        for (Assertion a : assertions) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", a.id());
            m.put("source", doc(a.doc()));
            m.put("subject", a.triple().s());
            m.put("predicate", a.triple().p());
            m.put("object", a.triple().o());
            as.add(m);
        }
        root.put("assertions", as);
        List<Object> arts = new ArrayList<>();
        for (Artifact a : artifacts) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", a.id());
            m.put("kind", a.kind());
            if (a.kind().equals("merge")) {
                m.put("body", "merge " + a.id());
                m.put("receipt", a.sentences().get(0));
            } else if (a.flat()) {
                m.put("body", "summary " + a.id());
                m.put("flat", true);
                List<List<String>> all = new ArrayList<>();
                a.sentences().forEach(all::addAll);
                m.put("receipt", all);
            } else {
                List<Object> ss = new ArrayList<>();
                for (int i = 0; i < a.sentences().size(); i++) {
                    ss.add(Map.of("text", "Sentence " + i + " of " + a.id() + ".", "receipt", a.sentences().get(i)));
                }
                m.put("sentences", ss);
            }
            arts.add(m);
        }
        root.put("artifacts", arts);
        try {
            return new ObjectMapper().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
