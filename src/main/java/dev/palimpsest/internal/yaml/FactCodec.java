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
        ObjectNode n = node(f);
        if (f.seal() == null) {
            return Yaml.write(n);
        }
        Sealing.payload(n);
        ObjectNode out = Yaml.NODES.objectNode();
        out.set("id", n.remove("id"));
        out.set("kind", n.remove("kind"));
        ObjectNode sealed = out.putObject("sealed");
        sealed.put("nonce", f.seal().nonce());
        sealed.put("data", f.seal().data());
        sealed.put("digest", f.seal().digest());
        out.setAll(n);
        return Yaml.write(out);
    }

    /** The mapping of {@code f} with its content in the clear (and retain_until, sealed quotes as stored). */
    static ObjectNode node(Fact f) {
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
                if (r.quoteSealed() != null) {
                    rn.put("quote_sealed", r.quoteSealed());
                } else if (r.quote() != null) {
                    rn.put("quote", r.quote());
                }
            }
        }
        GroundingCodec.encode(n, f.grounding());
        f.validity().start().ifPresent(t -> n.put("valid_from", dev.palimpsest.model.Validity.canonical(t)));
        f.validity().end().ifPresent(t -> n.put("valid_until", dev.palimpsest.model.Validity.canonical(t)));
        if (f.retainUntil() != null) {
            n.put("retain_until", f.retainUntil().toString());
        }
        if (f.plaintext()) {
            n.put("plaintext", true);
        }
        return n;
    }

    /** Decodes a fact file without data keys: a sealed version reads with its content unavailable. */
    public static Fact decodeFact(byte[] bytes, String what) throws FormatException {
        return decodeFact(bytes, what, SealKeys.NONE);
    }

    /** Decodes a fact file, opening sealed content (and sealed quotes) with the keys {@code keys} holds. */
    public static Fact decodeFact(byte[] bytes, String what, SealKeys keys) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "id", "kind", "sealed", "body", "confidence", "run", "pooled", "refs", "subject",
                "predicate", "object", "flat", "receipt", "sentences", "review", "valid_from", "valid_until", "retain_until", "plaintext");
        try {
            FactId id = FactId.of(Yaml.text(n, "id", what, true));
            Kind kind = Kind.of(Yaml.text(n, "kind", what, true));
            dev.palimpsest.model.Seal seal = null;
            JsonNode sn = n.get("sealed");
            if (sn != null) {
                if (!sn.isObject() || !(n instanceof ObjectNode on)) {
                    throw new FormatException(what + ": field 'sealed' must be a mapping");
                }
                Yaml.onlyFields(sn, what + " sealed", "nonce", "data", "digest");
                for (String c : new String[] {"body", "subject", "predicate", "object"}) {
                    if (n.has(c)) {
                        throw new FormatException(what + ": a sealed fact holds no clear '" + c + "'");
                    }
                }
                byte[] key = keys.key(id);
                seal = new dev.palimpsest.model.Seal(Yaml.text(sn, "nonce", what, true), Yaml.text(sn, "data", what, true),
                        Yaml.text(sn, "digest", what, true), key != null);
                on.remove("sealed");
                Sealing.restore(on, id, kind, seal, key, what);
            }
            java.time.Instant retainUntil = null;
            String ru = Yaml.text(n, "retain_until", what, false);
            if (ru != null) {
                try {
                    retainUntil = java.time.Instant.parse(ru);
                } catch (java.time.format.DateTimeParseException e) {
                    throw new FormatException(what + ": field 'retain_until' is not an ISO-8601 instant");
                }
            }
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
                    Yaml.onlyFields(r, rw, "id", "role", "commit", "blob", "quote", "quote_sealed");
                    String commit = Yaml.text(r, "commit", rw, false);
                    String blob = Yaml.text(r, "blob", rw, false);
                    FactId target = FactId.of(Yaml.text(r, "id", rw, true));
                    String quote = Yaml.text(r, "quote", rw, false);
                    String quoteSealed = Yaml.text(r, "quote_sealed", rw, false);
                    if (quoteSealed != null) {
                        if (quote != null) {
                            throw new FormatException(rw + ": 'quote' and 'quote_sealed' together");
                        }
                        quote = Sealing.openQuote(keys.key(target), target, id, quoteSealed, rw);
                    }
                    refs.add(new Ref(target, RefRole.of(Yaml.text(r, "role", rw, true)),
                            commit == null ? null : CommitId.of(commit), blob == null ? null : BlobId.of(blob),
                            quote, quoteSealed));
                }
            }
            return new Fact(id, kind, body, confidence, refs, pooled, GroundingCodec.decode(n, what),
                    Yaml.text(n, "run", what, false), seal, retainUntil, plaintext(n, what), validity(n, what));
        } catch (dev.palimpsest.model.ValidTimeException e) {
            throw new FormatException(what + ": " + e.getMessage(), e.rule());
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    /**
     * The {@code valid_from} and {@code valid_until} fields: each absent (open) or a string in the
     * canonical spelling ({@code valid-time-malformed} otherwise), the start before the end
     * ({@code valid-time-inverted}).
     */
    private static dev.palimpsest.model.Validity validity(JsonNode n, String what) throws FormatException {
        java.time.Instant from = java.time.Instant.MIN;
        java.time.Instant until = java.time.Instant.MAX;
        for (String field : new String[] {"valid_from", "valid_until"}) {
            JsonNode v = n.get(field);
            if (v == null) {
                continue;
            }
            if (!v.isTextual()) {
                throw new FormatException(what + ": field '" + field + "' must be a string (an ISO-8601 UTC instant)",
                        dev.palimpsest.model.Rule.VALID_TIME_MALFORMED);
            }
            java.time.Instant t = dev.palimpsest.model.Validity.parseCanonical(field, v.textValue());
            if (field.equals("valid_from")) {
                from = t;
            } else {
                until = t;
            }
        }
        return new dev.palimpsest.model.Validity(from, until);
    }

    /** The {@code plaintext} field: absent is false; present, it must be {@code true}. */
    private static boolean plaintext(JsonNode n, String what) throws FormatException {
        JsonNode p = n.get("plaintext");
        if (p == null) {
            return false;
        }
        if (!p.isBoolean() || !p.booleanValue()) {
            throw new FormatException(what + ": field 'plaintext' must be true when present");
        }
        return true;
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
        if (c.encrypt() != null) {
            n.put("encrypt", c.encrypt());
        }
        if (!c.retention().isEmpty()) {
            ObjectNode rn = n.putObject("retention");
            c.retention().forEach(rn::put);
        }
        if (!c.agentsMay().isEmpty()) {
            ArrayNode am = n.putArray("agents_may");
            c.agentsMay().forEach(am::add);
        }
        if (!c.distrustLayers().isEmpty()) {
            ArrayNode dl = n.putArray("distrust_layers");
            c.distrustLayers().forEach(dl::add);
        }
        return Yaml.write(n);
    }

    public static StoreConfig decodeConfig(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "format", "layout", "policy", "ontology", "multi_valued", "encrypt", "retention",
                "agents_may", "distrust_layers");
        java.util.TreeSet<String> agentsMay = new java.util.TreeSet<>();
        JsonNode am = n.get("agents_may");
        if (am != null && !am.isNull()) {
            if (!am.isArray() || am.isEmpty()) {
                throw new FormatException(what + ": field 'agents_may' must be a non-empty list of permissions");
            }
            for (JsonNode p : am) {
                if (!p.isTextual()) {
                    throw new FormatException(what + ": field 'agents_may' must list strings");
                }
                agentsMay.add(p.textValue());
            }
        }
        java.util.TreeSet<String> distrustLayers = new java.util.TreeSet<>();
        JsonNode dl = n.get("distrust_layers");
        if (dl != null && !dl.isNull()) {
            if (!dl.isArray() || dl.isEmpty()) {
                throw new FormatException(what + ": field 'distrust_layers' must be a non-empty list of layers");
            }
            for (JsonNode l : dl) {
                if (!l.isTextual()) {
                    throw new FormatException(what + ": field 'distrust_layers' must list strings");
                }
                distrustLayers.add(l.textValue());
            }
        }
        java.util.TreeMap<String, String> retention = new java.util.TreeMap<>();
        JsonNode rn = n.get("retention");
        if (rn != null && !rn.isNull()) {
            if (!rn.isObject() || rn.isEmpty()) {
                throw new FormatException(what + ": field 'retention' must be a non-empty mapping of kind to duration");
            }
            var it = rn.fields();
            while (it.hasNext()) {
                var e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new FormatException(what + ": retention of '" + e.getKey() + "' must be a string");
                }
                retention.put(e.getKey(), e.getValue().textValue());
            }
        }
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
                    GroundingCodec.decodeOntology(n.get("ontology"), what), new java.util.TreeSet<>(multiValued),
                    Yaml.text(n, "encrypt", what, false), retention, agentsMay, distrustLayers);
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    /** True when {@code bytes} is exactly the canonical encoding of what it decodes to. */
    public static boolean isCanonicalFact(byte[] bytes, Fact decoded) {
        return Arrays.equals(bytes, encode(decoded));
    }
}
