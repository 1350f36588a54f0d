package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.crypto.SecretMaterial;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.RefRole;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.palimpsest.internal.yaml.GroundingCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.Ontology;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * An ingest batch as read from YAML or JSON (see README, "Ingest files", and docs/loading.md): optional
 * {@code policy} and {@code ontology}, then {@code sources}, {@code assertions}, {@code claims} and
 * {@code artifacts}. Receipts with
 * more than {@link Receipt#MAX_BUNDLES} bundles keep the smallest (listed in {@link #truncated});
 * with {@code strict} that is a violation instead. Parsing reports every problem at once.
 * Immutable once parsed.
 */
public final class BatchFile {
    /** One fact of the batch, ready for {@code Transaction.assertFact} with a grounding. */
    public record Item(FactId id, Kind kind, String body, List<RefSpec> refs, Grounding grounding,
            java.time.Instant validFrom, java.time.Instant validUntil) {
        Item(FactId id, Kind kind, String body, List<RefSpec> refs, Grounding grounding) {
            this(id, kind, body, refs, grounding, null, null);
        }

        /** The spec the batch asserts for this item. */
        public dev.palimpsest.model.FactSpec toFactSpec() {
            dev.palimpsest.model.FactSpec f = dev.palimpsest.model.FactSpec.of(kind, body).id(id).refs(refs)
                    .grounding(grounding);
            f = validFrom == null ? f : f.validFrom(validFrom);
            return validUntil == null ? f : f.validUntil(validUntil);
        }
    }

    /** One claim of the batch: its spec and the claim it supersedes (null: none). */
    public record ClaimItem(ClaimSpec spec, FactId supersedes) {}

    private static final YAMLMapper MAPPER = new YAMLMapper(YAMLFactory.builder().loaderOptions(loaderOptions()).build());
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON_MAPPER = new com.fasterxml.jackson.databind.ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    public final String policy;
    public final Ontology ontology;
    /** Predicates the batch declares multi-valued (never contradictions among claims); empty when none. */
    public final List<String> multiValued = new ArrayList<>();
    public final List<Item> items = new ArrayList<>();
    /** The batch's claims, in file order; written after its sources and assertions. */
    public final List<ClaimItem> claims = new ArrayList<>();
    public final List<FactId> truncated = new ArrayList<>();
    public final List<Violation> problems = new ArrayList<>();
    private final boolean strict;
    private final Set<String> ids = new HashSet<>();

    /** The violation of an ingest file of {@code size} bytes over {@link Limits#MAX_INGEST_FILE}. */
    public static Violation tooLarge(long size) {
        return new Violation(Rule.TOO_LARGE, "batch", "the ingest file is " + Limits.describe(size)
                + ", over the limit of " + Limits.describe(Limits.MAX_INGEST_FILE));
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions o = new LoaderOptions();
        o.setCodePointLimit((int) Limits.MAX_INGEST_FILE);
        return o;
    }

    private BatchFile(JsonNode root, boolean strict) {
        this.strict = strict;
        String p = null;
        Ontology o = Ontology.EMPTY;
        try {
            only(root, "batch", "policy", "ontology", "multi_valued", "sources", "assertions", "claims",
                    "artifacts");
            JsonNode mv = root.get("multi_valued");
            if (mv != null && !mv.isNull()) {
                if (!mv.isArray()) {
                    throw new FormatException("batch: field 'multi_valued' must be a list of predicates");
                }
                for (JsonNode m : mv) {
                    if (!m.isTextual() || dev.palimpsest.model.EntityKey.of(m.textValue()).isEmpty()) {
                        throw new FormatException("batch: multi_valued entry " + m + " is not a predicate");
                    }
                    multiValued.add(m.textValue());
                }
            }
            p = text(root, "policy", "batch", false);
            o = GroundingCodec.decodeOntology(root.get("ontology"), "batch");
        } catch (FormatException | IllegalArgumentException e) {
            problem("batch", e.getMessage());
        }
        this.policy = p;
        this.ontology = o;
        for (JsonNode n : list(root, "sources")) {
            guard(n, "source", () -> source(n));
        }
        for (JsonNode n : list(root, "assertions")) {
            guard(n, "assertion", () -> assertion(n));
        }
        List<JsonNode> cs = list(root, "claims");
        for (int i = 0; i < cs.size(); i++) {
            JsonNode n = cs.get(i);
            String what = n.hasNonNull("id") ? "claim " + n.get("id").asText() : "claims[" + i + "]";
            guardAs(n, what, () -> claim(n, what));
        }
        for (JsonNode n : list(root, "artifacts")) {
            guard(n, "artifact", () -> artifact(n));
        }
    }

    /**
     * Parses a batch; problems (not exceptions) report what is wrong with it, a batch over {@link
     * Limits#MAX_INGEST_FILE} or holding OpenPGP secret-key material ({@link SecretMaterial}) unparsed.
     */
    public static BatchFile parse(byte[] yaml, boolean strict) {
        if (yaml.length > Limits.MAX_INGEST_FILE) {
            BatchFile empty = new BatchFile(MAPPER.createObjectNode(), strict);
            empty.problems.add(tooLarge(yaml.length));
            return empty;
        }
        String secret = SecretMaterial.inBytes(yaml);
        if (secret != null) {
            BatchFile empty = new BatchFile(MAPPER.createObjectNode(), strict);
            empty.problems.add(new Violation(Rule.SECRET_MATERIAL, "batch", secret + "; secret keys are never stored"));
            return empty;
        }
        JsonNode root;
        boolean json = looksLikeJson(yaml);
        String format = json ? "JSON" : "YAML";
        try {
            root = json ? JSON_MAPPER.readTree(yaml) : MAPPER.readTree(yaml);
        } catch (IOException e) {
            BatchFile empty = new BatchFile(MAPPER.createObjectNode(), strict);
            empty.problem("batch", "not valid " + format + where(e) + ": "
                    + e.getMessage().lines().findFirst().orElse("").replaceAll(" \\(for .*\\)$", ""));
            return empty;
        }
        if (root == null || !root.isObject()) {
            BatchFile empty = new BatchFile(MAPPER.createObjectNode(), strict);
            empty.problem("batch", "expected a " + format + " mapping with sources, assertions, claims and artifacts");
            return empty;
        }
        return new BatchFile(root, strict);
    }

    /** {@code bytes} read as JSON (when {@link #looksLikeJson}) or YAML, with the batch's parser settings. */
    static JsonNode readTree(byte[] bytes) throws IOException {
        return looksLikeJson(bytes) ? JSON_MAPPER.readTree(bytes) : MAPPER.readTree(bytes);
    }

    /** True when the first character that is not whitespace (or a byte-order mark) opens a JSON object or array. */
    static boolean looksLikeJson(byte[] bytes) {
        for (byte b : bytes) {
            if (b == '{' || b == '[') {
                return true;
            }
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != (byte) 0xEF && b != (byte) 0xBB && b != (byte) 0xBF) {
                return false;
            }
        }
        return false;
    }

    /** " at line L, column C" of a parse failure, when the parser knows it. */
    static String where(IOException e) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                && p.getLocation().getLineNr() > 0) {
            return " at line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr();
        }
        return "";
    }

    private interface Step {
        void run() throws FormatException;
    }

    private void guard(JsonNode n, String what, Step step) {
        try {
            if (!n.isObject()) {
                throw new FormatException("each " + what + " must be a mapping");
            }
            step.run();
        } catch (dev.palimpsest.model.ValidTimeException e) {
            problems.add(new Violation(e.rule(), what + " " + n.path("id").asText("?"), e.getMessage()));
        } catch (FormatException | IllegalArgumentException e) {
            problem(what + " " + n.path("id").asText("?"), e.getMessage());
        }
    }

    private void guardAs(JsonNode n, String what, Step step) {
        try {
            if (!n.isObject()) {
                throw new FormatException("each claim must be a mapping");
            }
            step.run();
        } catch (dev.palimpsest.model.ValidTimeException e) {
            problems.add(new Violation(e.rule(), what, e.getMessage()));
        } catch (FormatException | IllegalArgumentException e) {
            problem(what, e.getMessage());
        }
    }

    /**
     * A claim: subject, predicate, object, and its sources as {@code source} (an id, with an optional
     * {@code quote}) or {@code sources} (a list of {@code {id, quote}}), never both; optional
     * {@code id}, {@code body}, {@code run}, {@code confidence} and {@code supersedes}.
     */
    private void claim(JsonNode n, String w) throws FormatException {
        only(n, w, "id", "subject", "predicate", "object", "source", "quote", "sources", "run", "confidence", "body",
                "supersedes", "valid_from", "valid_until");
        FactId id = n.hasNonNull("id") ? id(n) : null;
        String subject = text(n, "subject", w, true);
        String predicate = text(n, "predicate", w, true);
        String object = text(n, "object", w, true);
        if (subject.isBlank() || predicate.isBlank() || object.isBlank()) {
            throw new FormatException(w + ": subject, predicate and object must not be blank");
        }
        if (predicate.length() > Limits.MAX_PREDICATE) {
            throw new FormatException(w + ": the predicate is " + predicate.length() + " characters, over the limit of "
                    + Limits.MAX_PREDICATE);
        }
        List<RefSpec> sources = new ArrayList<>();
        if (n.has("source") && n.has("sources")) {
            throw new FormatException(w + ": give 'source' (with 'quote') or 'sources', not both");
        }
        if (n.has("sources")) {
            JsonNode l = n.get("sources");
            if (!l.isArray() || l.isEmpty()) {
                throw new FormatException(w + ": 'sources' must be a non-empty list of {id, quote}");
            }
            for (JsonNode s : l) {
                if (s.isTextual()) {
                    sources.add(RefSpec.of(FactId.of(s.textValue()), RefRole.SOURCE));
                    continue;
                }
                if (!s.isObject()) {
                    throw new FormatException(w + ": each of 'sources' must be an id or a mapping {id, quote}");
                }
                only(s, w + " source", "id", "quote");
                String quote = text(s, "quote", w + " source", false);
                RefSpec r = RefSpec.of(FactId.of(text(s, "id", w + " source", true)), RefRole.SOURCE);
                sources.add(quote == null ? r : r.withQuote(quote));
            }
        } else {
            String quote = text(n, "quote", w, false);
            RefSpec r = RefSpec.of(FactId.of(text(n, "source", w, true)), RefRole.SOURCE);
            sources.add(quote == null ? r : r.withQuote(quote));
        }
        if (n.has("quote") && n.has("sources")) {
            throw new FormatException(w + ": with 'sources' give each quote inside its source");
        }
        ClaimSpec spec = ClaimSpec.of(subject, predicate, object, sources.get(0).target()).sources(sources);
        if (id != null) {
            spec = spec.id(id);
        }
        String run = text(n, "run", w, false);
        if (run != null) {
            spec = spec.run(run);
        }
        JsonNode c = n.get("confidence");
        if (c != null && !c.isNull()) {
            if (!c.isNumber()) {
                throw new FormatException(w + ": confidence must be a number in [0, 1]");
            }
            spec = spec.confidence(c.doubleValue());
        }
        String body = text(n, "body", w, false);
        if (body != null) {
            spec = spec.body(body);
        }
        java.time.Instant from = validTime(n, "valid_from", w);
        java.time.Instant until = validTime(n, "valid_until", w);
        spec = from == null ? spec : spec.validFrom(from);
        spec = until == null ? spec : spec.validUntil(until);
        spec.toFactSpec();
        String old = text(n, "supersedes", w, false);
        claims.add(new ClaimItem(spec, old == null ? null : FactId.of(old)));
    }

    private void source(JsonNode n) throws FormatException {
        only(n, "source", "id", "body");
        FactId id = id(n);
        items.add(new Item(id, Kind.SOURCE, text(n, "body", "source " + id, true), List.of(), Grounding.NONE));
    }

    private void assertion(JsonNode n) throws FormatException {
        only(n, "assertion", "id", "source", "subject", "predicate", "object", "quote", "body", "valid_from",
                "valid_until");
        FactId id = id(n);
        String w = "assertion " + id;
        Grounding g = Grounding.triple(text(n, "subject", w, true), text(n, "predicate", w, true), text(n, "object", w, true));
        RefSpec src = new RefSpec(FactId.of(text(n, "source", w, true)), null, RefRole.SOURCE, text(n, "quote", w, false));
        String body = text(n, "body", w, false);
        items.add(new Item(id, Kind.ASSERTION, body != null ? body : tripleText(g), List.of(src), g,
                validTime(n, "valid_from", w), validTime(n, "valid_until", w)));
    }

    private void artifact(JsonNode n) throws FormatException {
        only(n, "artifact", "id", "kind", "body", "subject", "predicate", "object", "receipt", "sentences", "flat");
        FactId id = id(n);
        String w = "artifact " + id;
        Kind kind = Kind.of(text(n, "kind", w, true));
        if (!kind.isArtifact()) {
            throw new FormatException("kind must be merge, edge or summary, got '" + kind + "'");
        }
        JsonNode flat = n.get("flat");
        if (flat != null && !flat.isBoolean()) {
            throw new FormatException("flat must be true or false");
        }
        List<Sentence> sentences = new ArrayList<>();
        for (JsonNode s : list(n, "sentences")) {
            only(s, w + " sentence", "text", "receipt");
            sentences.add(new Sentence(text(s, "text", w + " sentence", true), receipt(id, s.get("receipt"), w + " sentence")));
        }
        Receipt receipt = n.has("receipt") ? receipt(id, n.get("receipt"), w) : null;
        Grounding g = new Grounding(text(n, "subject", w, false), text(n, "predicate", w, false),
                text(n, "object", w, false), receipt, sentences, flat != null && flat.booleanValue());
        String body = text(n, "body", w, false);
        if (body == null) {
            if (g.hasTriple()) {
                body = tripleText(g);
            } else if (!sentences.isEmpty()) {
                body = String.join(" ", sentences.stream().map(Sentence::text).toList());
            } else {
                throw new FormatException("missing field 'body'");
            }
        }
        items.add(new Item(id, kind, body, List.of(), g));
    }

    private Receipt receipt(FactId owner, JsonNode r, String what) throws FormatException {
        if (r == null || !r.isArray() || r.isEmpty()) {
            throw new FormatException(what + ": receipt must be a non-empty list of bundles, e.g. [[a1], [a2, a3]]");
        }
        List<List<Pin>> bundles = new ArrayList<>();
        for (JsonNode b : r) {
            if (!b.isArray() || b.isEmpty()) {
                throw new FormatException(what + ": each bundle must be a non-empty list of ids");
            }
            List<Pin> pins = new ArrayList<>();
            b.forEach(m -> pins.add(Pin.of(FactId.of(m.asText()))));
            bundles.add(pins);
        }
        Receipt out = Receipt.truncated(bundles);
        long distinct = bundles.stream().map(bl -> bl.stream().map(Pin::id).sorted().distinct().toList()).distinct().count();
        if (distinct > Receipt.MAX_BUNDLES) {
            if (strict) {
                throw new FormatException(what + ": " + bundles.size() + " bundles; at most " + Receipt.MAX_BUNDLES
                        + " (without --strict the smallest " + Receipt.MAX_BUNDLES + " are kept)");
            }
            if (!truncated.contains(owner)) {
                truncated.add(owner);
            }
        }
        return out;
    }

    /** An optional {@code valid_from} or {@code valid_until}: an ISO-8601 instant or a date (its start, UTC). */
    private static java.time.Instant validTime(JsonNode n, String field, String w) throws FormatException {
        String t = text(n, field, w, false);
        return t == null ? null : dev.palimpsest.model.Validity.parse(w + " " + field, t);
    }

    static String tripleText(Grounding g) {
        return g.subject() + " " + g.predicate() + " " + g.object();
    }

    private FactId id(JsonNode n) throws FormatException {
        FactId id = FactId.of(text(n, "id", "batch entry", true));
        if (!ids.add(id.value())) {
            throw new FormatException("id " + id + " appears twice in the batch");
        }
        return id;
    }

    private void problem(String subject, String msg) {
        problems.add(new Violation(Rule.INVALID_BATCH, subject, msg));
    }

    private static List<JsonNode> list(JsonNode n, String field) {
        JsonNode l = n.get(field);
        List<JsonNode> out = new ArrayList<>();
        if (l != null && l.isArray()) {
            l.forEach(out::add);
        }
        return out;
    }

    private static void only(JsonNode n, String what, String... allowed) throws FormatException {
        Set<String> ok = Set.of(allowed);
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!ok.contains(f)) {
                throw new FormatException(what + ": unknown field '" + f + "'");
            }
        }
    }

    private static String text(JsonNode n, String field, String what, boolean required) throws FormatException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new FormatException(what + ": missing field '" + field + "'");
            }
            return null;
        }
        if (!v.isValueNode()) {
            throw new FormatException(what + ": field '" + field + "' must be a string");
        }
        return v.asText();
    }
}
