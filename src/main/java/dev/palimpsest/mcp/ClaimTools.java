package dev.palimpsest.mcp;

import dev.palimpsest.api.ClaimsAt;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Claims about entities: the recall tools current, dead_ends, contradictions, and the claim write. Stateless. */
final class ClaimTools {
    private static final String SUBJECT = "The entity.";

    private static final SecureRandom RANDOM = new SecureRandom();

    private ClaimTools() {}

    static List<ToolDef> recall(Session s) {
        Store store = s.store();
        return List.of(
                ToolDef.read("current", "What is believed now", "The live claims about an entity, oldest first,"
                        + " with source, run and commit. Ask before writing a"
                        + " claim about it.",
                        Schema.input().string("subject", SUBJECT, true)
                                .string("predicate", "Only this predicate.", false)
                                .string("at", ReadTools.AT, false)
                                .string("valid_at", ReadTools.VALID_AT, false),
                        Schema.output().field("claims", "array"),
                        a -> current(store, a)),
                ToolDef.read("dead_ends", "Corrections not to repeat", "Superseded or retracted claims about an entity"
                        + " (newest or most relevant first), with what corrected them. Check before repeating an old"
                        + " value.",
                        Schema.input().string("subject", SUBJECT, true)
                                .string("query", "Free text.", false)
                                .integer("max", "Most kept (default 20).", 0)
                                .string("at", ReadTools.AT, false),
                        Schema.output().field("kept", "array").field("omitted", "integer"),
                        a -> deadEnds(store, a)),
                ToolDef.read("contradictions", "Where memory disagrees", "Live claims with one subject and single-valued"
                        + " predicate but different objects. Resolve with supersede.",
                        Schema.input().string("subject", "Only this entity (default: every one).", false)
                                .string("at", ReadTools.AT, false)
                                .string("valid_at", ReadTools.VALID_AT, false),
                        Schema.output().field("contradictions", "array"),
                        a -> Views.listOf("contradictions", contradictions(store, a).stream()
                                .map(Views::contradiction).toList())));
    }

    static ToolDef claim(Session s) {
        return ToolDef.write("claim", "Write a claim", "What a source says about an entity (subject, predicate,"
                + " object), citing it with a quote. Returns the live claims it contradicts (stored anyway).",
                Schema.input().string("subject", SUBJECT, true)
                        .string("predicate", "e.g. 'times out after'.", true)
                        .string("object", "e.g. '30s'.", true)
                        .strings("sources", "Source fact ids, pinned at the write.", 1)
                        .string("quote", "A verbatim passage of the first source.", false)
                        .number("confidence", "0 to 1.", 0, 1)
                        .string("id", "Default: minted.", false)
                        .string("supersedes", "The fact this claim corrects.", false)
                        .bool("sensitive", ForgetTools.SENSITIVE)
                        .bool("plaintext", ForgetTools.PLAINTEXT)
                        .string("retain_until", ForgetTools.RETAIN_UNTIL, false)
                        .string("valid", WriteTools.VALID, false),
                Schema.output().field("id", "string").field("commit", "string").field("conflicts", "array"),
                false, a -> claim(s, a));
    }

    private static byte[] mint() {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        return b;
    }

    private static Map<String, Object> current(Store store, Args a) throws Exception {
        String subject = a.text("subject");
        String predicate = a.optText("predicate");
        CommitId at = a.at(store);
        ClaimsAt claims = validAt(store.claims().at(at), a);
        return Views.listOf("claims", (predicate == null ? claims.current(subject) : claims.current(subject, predicate)).stream()
                .map(v -> Views.claim(v, false)).toList());
    }

    private static List<Contradiction> contradictions(Store store, Args a) throws Exception {
        String subject = a.optText("subject");
        ClaimsAt claims = validAt(store.claims().at(a.at(store)), a);
        return subject == null ? claims.contradictions() : claims.contradictions(subject);
    }

    private static ClaimsAt validAt(ClaimsAt claims, Args a) throws Exception {
        java.time.Instant t = a.optValidTime("valid_at");
        return t == null ? claims : claims.validAt(t);
    }

    private static Map<String, Object> deadEnds(Store store, Args a) throws Exception {
        String subject = a.text("subject");
        int max = a.count("max", 20);
        String query = a.optText("query");
        DeadEnds d = store.claims().at(a.at(store)).deadEnds(subject, query == null ? "" : query, max);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kept", d.kept().stream().map(v -> Views.claim(v, true)).toList());
        m.put("omitted", d.omitted());
        return m;
    }

    private static Map<String, Object> claim(Session s, Args a) throws Exception {
        String quote = a.optText("quote");
        List<RefSpec> sources = new ArrayList<>();
        for (FactId src : a.facts("sources")) {
            sources.add(new RefSpec(src, null, RefRole.SOURCE, sources.isEmpty() ? quote : null));
        }
        FactId old = a.optFact("supersedes");
        Double confidence = a.number("confidence");
        FactId given = a.optFact("id");
        FactId id = given != null ? given : FactId.of("entity-claim-" + HexFormat.of().formatHex(mint()));
        ClaimSpec spec = new ClaimSpec(id, a.text("subject"), a.text("predicate"), a.text("object"), sources, s.run(),
                confidence, null);
        spec = a.flag("sensitive") ? spec.asSensitive() : spec;
        java.time.Instant deadline = a.optInstant("retain_until");
        spec = deadline != null ? spec.retainedUntil(deadline) : spec;
        spec = a.flag("plaintext") ? spec.asPlaintext() : spec;
        java.time.Instant[] valid = a.optValidity("valid");
        spec = valid == null || valid[0] == null ? spec : spec.validFrom(valid[0]);
        spec = valid == null || valid[1] == null ? spec : spec.validUntil(valid[1]);
        ClaimResult r;
        try {
            r = old == null ? s.store().claims().claim(s.actor(), spec)
                    : s.store().claims().supersede(s.actor(), old, spec);
        } catch (RejectedException e) {
            throw Refs.unminted(e, given == null ? id : null);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id().value());
        m.put("commit", r.commit().hex());
        List<Map<String, Object>> cs = new ArrayList<>();
        for (ClaimResult.Conflict c : r.conflicts()) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("id", c.id().value());
            cm.put("object", c.object());
            cm.put("source", c.source().value());
            cs.add(cm);
        }
        m.put("conflicts", cs);
        return m;
    }
}
