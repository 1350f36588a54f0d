package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.RefRole;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Canonical YAML for facts, retraction records and the store config: a fixed field order and
 * quoting, so equal content always gives an equal blob. Decoding is strict (unknown fields,
 * wrong types and invalid values are {@link FormatException}s). Stateless and thread-safe.
 */
public final class FactCodec {
    private FactCodec() {}

    public static byte[] encode(Fact f) {
        ObjectNode n = Yaml.NODES.objectNode();
        n.put("id", f.id().value());
        n.put("kind", f.kind().value());
        n.put("body", f.body());
        if (f.confidence() != null) {
            n.put("confidence", f.confidence().doubleValue());
        }
        if (f.run() != null) {
            n.put("run", f.run());
        }
        if (!f.pooled().isEmpty()) {
            ObjectNode pn = n.putObject("pooled");
            f.pooled().forEach((k, v) -> pn.put(k.value(), v.doubleValue()));
        }
        if (!f.refs().isEmpty()) {
            ArrayNode refs = n.putArray("refs");
            for (Ref r : f.refs()) {
                ObjectNode rn = refs.addObject();
                rn.put("id", r.id().value());
                rn.put("role", r.role().value());
                if (r.commit() != null) {
                    rn.put("commit", r.commit().hex());
                    rn.put("blob", r.blob().hex());
                }
                if (r.quote() != null) {
                    rn.put("quote", r.quote());
                }
            }
        }
        GroundingCodec.encode(n, f.grounding());
        return Yaml.write(n);
    }

    public static Fact decodeFact(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "id", "kind", "body", "confidence", "run", "pooled", "refs", "subject", "predicate",
                "object", "flat", "receipt", "sentences", "review");
        try {
            FactId id = FactId.of(Yaml.text(n, "id", what, true));
            Kind kind = Kind.of(Yaml.text(n, "kind", what, true));
            String body = Yaml.text(n, "body", what, true);
            Double confidence = null;
            JsonNode c = n.get("confidence");
            if (c != null && !c.isNull()) {
                if (!c.isNumber()) {
                    throw new FormatException(what + ": field 'confidence' must be a number");
                }
                confidence = c.doubleValue();
            }
            java.util.SortedMap<FactId, Double> pooled = new java.util.TreeMap<>();
            JsonNode pn = n.get("pooled");
            if (pn != null && !pn.isNull()) {
                if (!pn.isObject()) {
                    throw new FormatException(what + ": field 'pooled' must be a mapping of source id to mass");
                }
                var it = pn.fields();
                while (it.hasNext()) {
                    var e = it.next();
                    if (!e.getValue().isNumber()) {
                        throw new FormatException(what + ": pooled mass of '" + e.getKey() + "' must be a number");
                    }
                    pooled.put(FactId.of(e.getKey()), e.getValue().doubleValue());
                }
            }
            List<Ref> refs = new ArrayList<>();
            JsonNode rs = n.get("refs");
            if (rs != null && !rs.isNull()) {
                if (!rs.isArray()) {
                    throw new FormatException(what + ": field 'refs' must be a list");
                }
                for (JsonNode r : rs) {
                    String rw = what + " ref #" + (refs.size() + 1);
                    if (!r.isObject()) {
                        throw new FormatException(rw + ": expected a mapping");
                    }
                    Yaml.onlyFields(r, rw, "id", "role", "commit", "blob", "quote");
                    String commit = Yaml.text(r, "commit", rw, false);
                    String blob = Yaml.text(r, "blob", rw, false);
                    refs.add(new Ref(FactId.of(Yaml.text(r, "id", rw, true)), RefRole.of(Yaml.text(r, "role", rw, true)),
                            commit == null ? null : CommitId.of(commit), blob == null ? null : BlobId.of(blob),
                            Yaml.text(r, "quote", rw, false)));
                }
            }
            return new Fact(id, kind, body, confidence, refs, pooled, GroundingCodec.decode(n, what),
                    Yaml.text(n, "run", what, false));
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    public static byte[] encode(RetractionRecord r) {
        byte[] fast = CanonicalFacts.encodeRetraction(r);
        return fast != null ? fast : encodeWithMapper(r);
    }

    static byte[] encodeWithMapper(RetractionRecord r) {
        ObjectNode n = Yaml.NODES.objectNode();
        n.put("id", r.version().id().value());
        ObjectNode v = n.putObject("version");
        v.put("commit", r.version().commit().hex());
        v.put("blob", r.version().blob().hex());
        n.put("reason", r.reason());
        n.put("actor", r.actor().value());
        return Yaml.write(n);
    }

    public static RetractionRecord decodeRetraction(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "id", "version", "reason", "actor");
        JsonNode v = n.get("version");
        if (v == null || !v.isObject()) {
            throw new FormatException(what + ": missing mapping 'version'");
        }
        Yaml.onlyFields(v, what + " version", "commit", "blob");
        try {
            FactVersion version = new FactVersion(FactId.of(Yaml.text(n, "id", what, true)),
                    CommitId.of(Yaml.text(v, "commit", what, true)), BlobId.of(Yaml.text(v, "blob", what, true)));
            return new RetractionRecord(version, Yaml.text(n, "reason", what, true),
                    ActorName.of(Yaml.text(n, "actor", what, true)));
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    public static byte[] encode(StoreConfig c) {
        ObjectNode n = Yaml.NODES.objectNode();
        n.put("format", c.format());
        n.put("layout", c.layout());
        if (c.policy() != null) {
            n.put("policy", c.policy());
        }
        GroundingCodec.encode(n, c.ontology());
        if (!c.multiValued().isEmpty()) {
            ArrayNode mv = n.putArray("multi_valued");
            c.multiValued().forEach(mv::add);
        }
        return Yaml.write(n);
    }

    public static StoreConfig decodeConfig(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "format", "layout", "policy", "ontology", "multi_valued");
        java.util.List<String> multiValued = new ArrayList<>();
        JsonNode mv = n.get("multi_valued");
        if (mv != null && !mv.isNull()) {
            if (!mv.isArray() || mv.isEmpty()) {
                throw new FormatException(what + ": field 'multi_valued' must be a non-empty list of predicates");
            }
            for (JsonNode p : mv) {
                if (!p.isTextual()) {
                    throw new FormatException(what + ": field 'multi_valued' must list strings");
                }
                multiValued.add(p.textValue());
            }
        }
        JsonNode f = n.get("format");
        if (f == null || !f.isInt()) {
            throw new FormatException(what + ": field 'format' must be an integer");
        }
        try {
            return new StoreConfig(f.intValue(), Yaml.text(n, "layout", what, true), Yaml.text(n, "policy", what, false),
                    GroundingCodec.decodeOntology(n.get("ontology"), what), new java.util.TreeSet<>(multiValued));
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    /** True when {@code bytes} is exactly the canonical encoding of what it decodes to. */
    public static boolean isCanonicalFact(byte[] bytes, Fact decoded) {
        return Arrays.equals(bytes, encode(decoded));
    }
}
