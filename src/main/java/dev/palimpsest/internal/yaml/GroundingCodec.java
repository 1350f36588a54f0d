package dev.palimpsest.internal.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.ClaimReview;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Canonical YAML of the optional layered fields of a fact (triple, flat flag, receipt, sentences, a
 * claim's recorded review)
 * and of the config's ontology; absent fields are not written. Stateless and thread-safe.
 */
public final class GroundingCodec {
    private GroundingCodec() {}

    static void encode(ObjectNode n, Grounding g) {
        if (g.hasTriple()) {
            n.put("subject", g.subject());
            n.put("predicate", g.predicate());
            n.put("object", g.object());
        }
        if (g.flat()) {
            n.put("flat", true);
        }
        if (g.receipt() != null) {
            receipt(n.putArray("receipt"), g.receipt());
        }
        if (!g.sentences().isEmpty()) {
            ArrayNode ss = n.putArray("sentences");
            for (Sentence s : g.sentences()) {
                ObjectNode sn = ss.addObject();
                sn.put("text", s.text());
                receipt(sn.putArray("receipt"), s.receipt());
            }
        }
        if (g.review() != null) {
            ObjectNode rn = n.putObject("review");
            rn.put("model", g.review().model());
            if (g.review().modelAccepted() != null) {
                rn.put("model_accepted", g.review().modelAccepted());
            }
            if (g.review().reason() != null) {
                rn.put("reason", g.review().reason());
            }
        }
    }

    private static ClaimReview review(JsonNode n, String what) throws FormatException {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            throw new FormatException(what + ": field 'review' must be a mapping");
        }
        String w = what + " review";
        Yaml.onlyFields(n, w, "model", "model_accepted", "reason");
        JsonNode ok = n.get("model_accepted");
        if (ok != null && !ok.isBoolean()) {
            throw new FormatException(w + ": field 'model_accepted' must be true, false or absent");
        }
        try {
            return new ClaimReview(Yaml.text(n, "model", w, true), ok == null ? null : ok.booleanValue(),
                    Yaml.text(n, "reason", w, false));
        } catch (IllegalArgumentException e) {
            throw new FormatException(w + ": " + e.getMessage());
        }
    }

    private static void receipt(ArrayNode out, Receipt r) {
        for (List<Pin> bundle : r.bundles()) {
            ArrayNode b = out.addArray();
            for (Pin p : bundle) {
                ObjectNode pn = b.addObject();
                pn.put("id", p.id().value());
                if (p.commit() != null) {
                    pn.put("commit", p.commit().hex());
                    pn.put("blob", p.blob().hex());
                }
            }
        }
    }

    static Grounding decode(JsonNode n, String what) throws FormatException {
        JsonNode flat = n.get("flat");
        if (flat != null && !flat.isBoolean()) {
            throw new FormatException(what + ": field 'flat' must be true or absent");
        }
        if (flat != null && !flat.booleanValue()) {
            throw new FormatException(what + ": field 'flat' is written only when true");
        }
        Receipt receipt = receipt(n.get("receipt"), what + " receipt");
        List<Sentence> sentences = new ArrayList<>();
        JsonNode ss = n.get("sentences");
        if (ss != null && !ss.isNull()) {
            if (!ss.isArray() || ss.isEmpty()) {
                throw new FormatException(what + ": field 'sentences' must be a non-empty list");
            }
            for (JsonNode s : ss) {
                String sw = what + " sentence #" + (sentences.size() + 1);
                if (!s.isObject()) {
                    throw new FormatException(sw + ": expected a mapping");
                }
                Yaml.onlyFields(s, sw, "text", "receipt");
                Receipt r = receipt(s.get("receipt"), sw + " receipt");
                if (r == null) {
                    throw new FormatException(sw + ": missing field 'receipt'");
                }
                sentences.add(new Sentence(Yaml.text(s, "text", sw, true), r));
            }
        }
        return new Grounding(Yaml.text(n, "subject", what, false), Yaml.text(n, "predicate", what, false),
                Yaml.text(n, "object", what, false), receipt, sentences, flat != null, review(n.get("review"), what));
    }

    private static Receipt receipt(JsonNode r, String what) throws FormatException {
        if (r == null || r.isNull()) {
            return null;
        }
        if (!r.isArray()) {
            throw new FormatException(what + ": must be a list of bundles");
        }
        List<List<Pin>> bundles = new ArrayList<>();
        for (JsonNode b : r) {
            if (!b.isArray()) {
                throw new FormatException(what + ": each bundle must be a list of members");
            }
            List<Pin> pins = new ArrayList<>();
            for (JsonNode p : b) {
                if (!p.isObject()) {
                    throw new FormatException(what + ": each member must be a mapping");
                }
                Yaml.onlyFields(p, what, "id", "commit", "blob");
                String c = Yaml.text(p, "commit", what, false);
                String bl = Yaml.text(p, "blob", what, false);
                pins.add(new Pin(FactId.of(Yaml.text(p, "id", what, true)), c == null ? null : CommitId.of(c),
                        bl == null ? null : BlobId.of(bl)));
            }
            bundles.add(pins);
        }
        Receipt out = new Receipt(bundles);
        if (!out.bundles().equals(bundles)) {
            throw new FormatException(what + ": bundles must be sorted (members by id, bundles smallest first)");
        }
        return out;
    }

    static void encode(ObjectNode n, Ontology o) {
        if (o.isEmpty()) {
            return;
        }
        ObjectNode on = n.putObject("ontology");
        if (!o.transitive().isEmpty()) {
            ArrayNode t = on.putArray("transitive");
            o.transitive().forEach(t::add);
        }
        if (!o.inverse().isEmpty()) {
            ObjectNode i = on.putObject("inverse");
            o.inverse().forEach(i::put);
        }
        if (!o.subproperty().isEmpty()) {
            ObjectNode sp = on.putObject("subproperty");
            o.subproperty().forEach(sp::put);
        }
        if (!o.chains().isEmpty()) {
            ArrayNode cs = on.putArray("chains");
            for (Ontology.Chain c : o.chains()) {
                ObjectNode cn = cs.addObject();
                ArrayNode of = cn.putArray("of");
                c.of().forEach(of::add);
                cn.put("implies", c.implies());
            }
        }
    }

    /** Decodes an {@code ontology} mapping (null: empty); also used for ingest files. */
    public static Ontology decodeOntology(JsonNode on, String what) throws FormatException {
        if (on == null || on.isNull()) {
            return Ontology.EMPTY;
        }
        String w = what + " ontology";
        if (!on.isObject()) {
            throw new FormatException(w + ": must be a mapping");
        }
        Yaml.onlyFields(on, w, "transitive", "inverse", "subproperty", "chains");
        List<String> transitive = new ArrayList<>();
        JsonNode t = on.get("transitive");
        if (t != null) {
            if (!t.isArray()) {
                throw new FormatException(w + ": 'transitive' must be a list");
            }
            t.forEach(x -> transitive.add(x.asText()));
        }
        List<Ontology.Chain> chains = new ArrayList<>();
        JsonNode cs = on.get("chains");
        if (cs != null) {
            if (!cs.isArray()) {
                throw new FormatException(w + ": 'chains' must be a list");
            }
            for (JsonNode c : cs) {
                if (!c.isObject() || !c.path("of").isArray()) {
                    throw new FormatException(w + ": each chain is {of: [p, q], implies: r}");
                }
                Yaml.onlyFields(c, w + " chain", "of", "implies");
                List<String> of = new ArrayList<>();
                c.get("of").forEach(x -> of.add(x.asText()));
                chains.add(new Ontology.Chain(of, Yaml.text(c, "implies", w + " chain", true)));
            }
        }
        try {
            return new Ontology(transitive, map(on.get("inverse"), w, "inverse"), map(on.get("subproperty"), w, "subproperty"),
                    chains);
        } catch (IllegalArgumentException e) {
            throw new FormatException(w + ": " + e.getMessage());
        }
    }

    private static TreeMap<String, String> map(JsonNode m, String what, String field) throws FormatException {
        TreeMap<String, String> out = new TreeMap<>();
        if (m == null || m.isNull()) {
            return out;
        }
        if (!m.isObject()) {
            throw new FormatException(what + ": '" + field + "' must be a mapping");
        }
        var it = m.fields();
        while (it.hasNext()) {
            var e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
