package dev.palimpsest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Recall on a question-to-evidence benchmark: every distinct evidence passage of the data file is
 * written as one fact, in two stores: plain (a {@code claim} with the passage as its body) and
 * claims-shaped (an {@code entity-claim} whose subject is the passage's first content word, predicate
 * {@code states}, object the passage); every question is then asked as the query text (no entity, no
 * hop, 50 hits) and recall@k is the share of its evidence passages among the first k hits, averaged
 * per question type and over all. Each shape is measured twice on the same data: lexical (no
 * embedder: words, entities, spelling) and hybrid (the bundled embedder's semantic channel fused
 * with the words), so the gain of the semantic channel is read off one run. The hybrid variants
 * also report how long writing and embedding every passage took (facts per second).
 *
 * <p>The data file is JSON lines: either {@code {"question", "type", "evidence": [passage, ...]}}, or
 * an OpenBookQA "additional" line ({@code question_stem}, {@code fact1}), whose type is derived from
 * the stem: its first word when it is a question word (what, which, who, when, where, why, how),
 * else {@code question} when it ends with a question mark, else {@code completion}.
 */
public final class RecallBench {
    /** The cut-offs reported. */
    public static final int[] KS = {5, 10, 25, 50};
    private static final ActorName ACTOR = ActorName.of("bench");
    private static final Set<String> WH = Set.of("what", "which", "who", "when", "where", "why", "how");
    private static final int BATCH = 200;

    /** One question: its text, type and evidence passages. */
    public record Question(String text, String type, List<String> evidence) {}

    /** Recall at {@link #KS} over {@code n} questions of one type ({@code all}: every question). */
    public record Row(String type, int n, double at5, double at10, double at25, double at50) {}

    /** One variant's rows, all first, and the search latency. */
    public record Variant(String name, int facts, List<Row> rows, Stats search, double writesPerSecond) {}

    /** The data file's SHA-256, its questions and passages, and each variant. */
    public record Result(String sha256, int questions, int passages, List<Variant> variants) {}

    private final Path workDir;
    private final PrintWriter log;

    public RecallBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /** Reads the questions of a data file (blank lines skipped; at most {@code max}, 0: all). */
    public static List<Question> read(Path data, int max) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Question> out = new ArrayList<>();
        for (String line : Files.readAllLines(data)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = json.readTree(line);
            if (n.has("question_stem")) {
                String q = n.get("question_stem").asText().strip();
                out.add(new Question(q, typeOf(q), List.of(n.get("fact1").asText().strip())));
            } else {
                List<String> ev = new ArrayList<>();
                n.get("evidence").forEach(e -> ev.add(e.asText().strip()));
                out.add(new Question(n.get("question").asText(), n.path("type").asText("all"), List.copyOf(ev)));
            }
            if (max > 0 && out.size() == max) {
                break;
            }
        }
        return out;
    }

    /** The type of an OpenBookQA stem: its question word, else question or completion. */
    static String typeOf(String stem) {
        String first = stem.split("[^\\p{L}]+", 2)[0].toLowerCase(Locale.ROOT);
        if (WH.contains(first)) {
            return first;
        }
        return stem.endsWith("?") ? "question" : "completion";
    }

    /** The claims-shaped subject of a passage: its first word of three letters or more that is not a stop word. */
    static String subjectOf(String passage) {
        for (String w : EntityKey.of(passage).split(" ")) {
            if (w.length() >= 3 && !STOP.contains(w)) {
                return w;
            }
        }
        return "passage";
    }

    private static final Set<String> STOP = Set.of("the", "and", "are", "for", "was", "were", "that", "this", "with",
            "from", "into", "when", "then", "than", "they", "their", "there", "its", "not", "can", "will", "has",
            "have", "had", "all", "any", "some", "each", "one", "who", "what", "which", "how", "why", "where");

    /** Runs both variants on the file's questions. */
    public Result run(Path data, int max) throws IOException, PalimpsestException {
        List<Question> qs = read(data, max);
        Map<String, String> ids = new LinkedHashMap<>();
        for (Question q : qs) {
            for (String e : q.evidence()) {
                ids.computeIfAbsent(e, k -> "p" + ids.size());
            }
        }
        log.printf("recall bench: %,d questions, %,d evidence passages, %s%n", qs.size(), ids.size(), data);
        List<Variant> vs = new ArrayList<>();
        for (boolean claims : new boolean[] {false, true}) {
            for (Embedder e : List.of(Embedder.NONE, Embedder.LOCAL)) {
                vs.add(variant(claims, e, qs, ids));
            }
        }
        return new Result(sha256(data), qs.size(), ids.size(), vs);
    }

    private Variant variant(boolean claims, Embedder embedder, List<Question> qs, Map<String, String> ids)
            throws IOException, PalimpsestException {
        String name = (claims ? "claims" : "plain") + (embedder.dimensions() == 0 ? " lexical" : " hybrid");
        Path dir = Files.createTempDirectory(workDir, "bench-recall-" + name.replace(' ', '-') + "-");
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withEmbedder(embedder);
        try {
            return variant(name, dir, opts, claims, qs, ids);
        } finally {
            CommitBench.deleteTree(dir);
        }
    }

    /** Writes the passages into a new store under {@code dir} and asks every question of it. */
    private Variant variant(String name, Path dir, StoreOptions opts, boolean claims, List<Question> qs,
            Map<String, String> ids) throws IOException, PalimpsestException {
        try (Store store = Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home")))
                .actor(ACTOR).options(opts).create()) {
            FactId src = FactId.of("dataset");
            Transaction first = store.begin(ACTOR);
            first.assertFact(FactSpec.of(Kind.SOURCE, "the benchmark's data file").id(src));
            first.commit();
            long w0 = System.nanoTime();
            List<Map.Entry<String, String>> all = new ArrayList<>(ids.entrySet());
            for (int i = 0; i < all.size(); i += BATCH) {
                Transaction tx = store.begin(ACTOR);
                for (Map.Entry<String, String> p : all.subList(i, Math.min(all.size(), i + BATCH))) {
                    FactId id = FactId.of(p.getValue());
                    tx.assertFact(claims ? ClaimSpec.of(subjectOf(p.getKey()), "states", p.getKey(), src).id(id)
                            .toFactSpec() : FactSpec.of(Kind.CLAIM, p.getKey()).id(id));
                }
                tx.commit();
            }
            store.recall().prepare(); // the index catches up: every passage embedded
            double perSecond = all.size() / ((System.nanoTime() - w0) / 1e9);
            Map<String, double[]> sums = new TreeMap<>();
            Map<String, Integer> counts = new TreeMap<>();
            long[] nanos = new long[qs.size()];
            int i = 0;
            for (Question q : qs) {
                long t0 = System.nanoTime();
                List<SearchHit> hits = q.text().isBlank() ? List.of()
                        : store.recall().search(SearchQuery.builder(q.text()).limit(KS[KS.length - 1]).hops(0)
                                .build());
                nanos[i++] = System.nanoTime() - t0;
                Set<String> want = new HashSet<>();
                q.evidence().forEach(e -> want.add(ids.get(e)));
                double[] r = new double[KS.length];
                for (int k = 0; k < KS.length; k++) {
                    int found = 0;
                    for (SearchHit h : hits.subList(0, Math.min(hits.size(), KS[k]))) {
                        if (want.contains(h.id().value())) {
                            found++;
                        }
                    }
                    r[k] = (double) found / want.size();
                }
                for (String type : List.of("all", q.type())) {
                    double[] s = sums.computeIfAbsent(type, t -> new double[KS.length]);
                    for (int k = 0; k < KS.length; k++) {
                        s[k] += r[k];
                    }
                    counts.merge(type, 1, Integer::sum);
                    if (type.equals(q.type())) {
                        break;
                    }
                }
            }
            List<Row> rows = new ArrayList<>();
            List<String> order = new ArrayList<>(sums.keySet());
            order.remove("all");
            order.add(0, "all");
            for (String type : order) {
                double[] s = sums.get(type);
                int n = counts.get(type);
                rows.add(new Row(type, n, s[0] / n, s[1] / n, s[2] / n, s[3] / n));
            }
            Variant v = new Variant(name, ids.size(), rows, Stats.of(nanos), perSecond);
            print(v);
            return v;
        }
    }

    private void print(Variant v) {
        log.printf("%s (%,d facts, written and indexed at %,.0f facts/s): search %s%n", v.name(), v.facts(),
                v.writesPerSecond(), v.search());
        log.printf("  %-12s %6s %8s %8s %8s %8s%n", "type", "n", "R@5", "R@10", "R@25", "R@50");
        for (Row r : v.rows()) {
            log.printf("  %-12s %6d %7.1f%% %7.1f%% %7.1f%% %7.1f%%%n", r.type(), r.n(), 100 * r.at5(), 100 * r.at10(),
                    100 * r.at25(), 100 * r.at50());
        }
        log.flush();
    }

    private static String sha256(Path f) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
