package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write tools assert, revise, supersede and retract: each lands as one signed commit by the
 * server's actor through the store's gate, or is rejected with every violation and writes nothing.
 * Stateless.
 */
final class WriteTools {
    /** Plans made against a tip another writer moved are made again, this many times in all (as the CLI does). */
    private static final int ATTEMPTS = 3;
    static final String REFS = "Cited fact ids (see instructions).";
    static final String RECEIPTS = "Evidence bundles (see instructions).";
    static final String QUOTES = "Verbatim passages of refs: {\"ID\": \"text\"}.";

    static final String VALID = "FROM/UNTIL (see instructions).";

    private WriteTools() {}

    static List<ToolDef> all(Session s) {
        return List.of(
                ToolDef.write("assert", "Write a new fact", "A new fact (a source, a hypothesis, a merge,"
                        + " ...) citing what it rests on, as one signed commit; for subject, predicate, object use claim.",
                        Schema.input().string("body", "The fact's text.", true)
                                .string("id", "Default: minted.", false)
                                .string("kind", "claim (default), source, merge, summary, ...", false)
                                .number("confidence", "0 to 1.", 0, 1)
                                .strings("refs", REFS, 0).stringMap("quotes", QUOTES)
                                .bundles("receipts", RECEIPTS, 0)
                                .string("subsumes", "A hypothesis this confirms (cited, then retracted).", false)
                                .bool("sensitive", ForgetTools.SENSITIVE)
                                .bool("plaintext", ForgetTools.PLAINTEXT)
                                .string("retain_until", ForgetTools.RETAIN_UNTIL, false)
                                .string("valid", VALID, false),
                        written(), false, a -> assertFact(s, a)),
                ToolDef.write("revise", "Revise a fact", "A new version of a live fact (body, refs or receipts);"
                        + " the old one stays in history and in the pins that cite it.",
                        Schema.input().string("id", ReadTools.ID, true).string("body", "The new text.", false)
                                .strings("refs", "Refs to add. " + REFS, 0).stringMap("quotes", QUOTES)
                                .bundles("receipts", "New receipts (see instructions).", 0)
                                .string("valid", VALID, false),
                        written(), false, a -> revise(s, a)),
                ToolDef.write("supersede", "Supersede a fact", "A fact replacing an old one, which stays as a dated"
                        + " dead end: how a wrong belief or a contradiction is resolved.",
                        Schema.input().string("old", "The fact superseded.", true)
                                .string("body", "The new fact's text.", true)
                                .string("id", "Default: minted.", false)
                                .string("kind", "Default: claim.", false).number("confidence", "0 to 1.", 0, 1)
                                .strings("refs", REFS, 0).stringMap("quotes", QUOTES)
                                .bool("sensitive", ForgetTools.SENSITIVE)
                                .bool("plaintext", ForgetTools.PLAINTEXT)
                                .string("retain_until", ForgetTools.RETAIN_UNTIL, false)
                                .string("valid", VALID, false),
                        written(), false, a -> supersede(s, a)),
                ToolDef.write("retract", "Retract facts", "Mark live facts false, with the reason; the cascade"
                        + " retracts or revises what rests on them. Try dry_run first.",
                        Schema.input().strings("ids", "The facts to retract.", 1)
                                .string("reason", "Why they are false.", true)
                                .bool("dry_run", "Return the plan; write nothing.")
                                .bool("no_cascade", "Leave what rests on them, for review."),
                        Schema.output().field("commit", "string|null").optionalField("retracted", "array")
                                .optionalField("revised", "array").optionalField("roots", "array")
                                .optionalField("removals", "array").optionalField("dry_run", "boolean"),
                        true, a -> retract(s, a)));
    }

    private static Schema written() {
        return Schema.output().field("id", "string").field("commit", "string");
    }

    private static Map<String, Object> assertFact(Session s, Args a) throws Exception {
        FactId given = a.optFact("id");
        FactId hypothesis = a.optFact("subsumes");
        Refs refs = new Refs(s.store(), a);
        FactSpec spec = spec(refs, a, given);
        Transaction tx = s.store().begin(s.actor());
        FactId id = hypothesis == null ? tx.assertFact(spec) : tx.subsume(hypothesis, spec);
        return landed(id, refs.commit(tx, given == null ? id : null));
    }

    private static Map<String, Object> revise(Session s, Args a) throws Exception {
        FactId id = a.fact("id");
        if (a.has("receipts")) {
            if (a.has("refs") || a.has("quotes")) {
                throw Args.invalid("refs", "goes without receipts: a revision with receipts changes the receipts (and"
                        + " the body); add refs in a revision of their own");
            }
            String body = a.optText("body");
            dev.palimpsest.model.Receipt r = s.store().receipts().receipt("receipts", a.bundles("receipts"));
            Transaction tx = s.store().begin(s.actor());
            return landed(id, (body == null ? tx.revise(id, r) : tx.revise(id, body, r)).commit());
        }
        String body = a.text("body");
        Refs refs = new Refs(s.store(), a);
        java.time.Instant[] valid = a.optValidity("valid");
        // a validity given replaces the old one whole: an empty side is open
        java.util.Optional<java.time.Instant> from = valid == null ? java.util.Optional.empty()
                : java.util.Optional.of(valid[0] == null ? java.time.Instant.MIN : valid[0]);
        java.util.Optional<java.time.Instant> until = valid == null ? java.util.Optional.empty()
                : java.util.Optional.of(valid[1] == null ? java.time.Instant.MAX : valid[1]);
        return landed(id, refs.commit(s.store().begin(s.actor()).revise(id, java.util.Optional.of(body), refs.specs,
                from, until), null));
    }

    private static Map<String, Object> supersede(Session s, Args a) throws Exception {
        FactId old = a.fact("old");
        FactId given = a.optFact("id");
        Refs refs = new Refs(s.store(), a);
        FactSpec spec = spec(refs, a, given);
        Transaction tx = s.store().begin(s.actor());
        FactId id = tx.supersede(old, spec);
        return landed(id, refs.commit(tx, given == null ? id : null));
    }

    private static FactSpec spec(Refs refs, Args a, FactId given) throws Exception {
        dev.palimpsest.model.Kind kind = a.kind("kind", "claim");
        FactSpec spec = FactSpec.of(kind, a.text("body")).refs(refs.specs);
        if (a.has("receipts")) {
            spec = spec.grounding(receipts(refs.store, a, kind));
        }
        Double confidence = a.number("confidence");
        spec = confidence == null ? spec : spec.confidence(confidence);
        spec = a.flag("sensitive") ? spec.asSensitive() : spec;
        spec = a.flag("plaintext") ? spec.asPlaintext() : spec;
        java.time.Instant deadline = a.optInstant("retain_until");
        spec = deadline == null ? spec : spec.retainedUntil(deadline);
        java.time.Instant[] valid = a.optValidity("valid");
        spec = valid == null || valid[0] == null ? spec : spec.validFrom(valid[0]);
        spec = valid == null || valid[1] == null ? spec : spec.validUntil(valid[1]);
        return given == null ? spec : spec.id(given);
    }


    /**
     * The grounding of {@code receipts} for a new fact of {@code kind}: a summary's whole receipt is flat;
     * none when no bundle is given (a merge, edge or summary is then refused receipt-required).
     */
    static dev.palimpsest.model.Grounding receipts(Store store, Args a, dev.palimpsest.model.Kind kind)
            throws Exception {
        if (a.bundles("receipts").isEmpty()) {
            return dev.palimpsest.model.Grounding.NONE;
        }
        dev.palimpsest.model.Receipt r = store.receipts().receipt("receipts", a.bundles("receipts"));
        return new dev.palimpsest.model.Grounding(null, null, null, r, List.of(),
                dev.palimpsest.model.Kind.SUMMARY.equals(kind));
    }

    private static Map<String, Object> retract(Session s, Args a) throws Exception {
        List<FactId> ids = a.facts("ids");
        String reason = a.text("reason");
        boolean dryRun = a.flag("dry_run");
        if (dryRun && a.flag("no_cascade")) {
            throw Args.invalid("dry_run", "shows the cascade; it does not go with no_cascade");
        }
        Store store = s.store();
        if (a.flag("no_cascade")) {
            Transaction tx = store.begin(s.actor());
            ids.forEach(id -> tx.retract(id, reason));
            return retracted(tx.commit(), List.of());
        }
        for (int attempt = 1; ; attempt++) {
            CleanupPlan plan = store.receipts().planRetract(ids, reason);
            if (dryRun) {
                return Views.plan(plan, null);
            }
            try {
                CommitResult r = store.receipts().apply(s.actor(), plan);
                return retracted(r, plan.revisions().stream().map(CleanupPlan.Revision::id).toList());
            } catch (ConflictException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static Map<String, Object> retracted(CommitResult r, List<FactId> revised) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", r.id().hex());
        m.put("retracted", Views.ids(r.retracted()));
        m.put("revised", Views.ids(revised));
        return m;
    }

    static Map<String, Object> landed(FactId id, CommitResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.value());
        m.put("commit", r.id().hex());
        return m;
    }
}
