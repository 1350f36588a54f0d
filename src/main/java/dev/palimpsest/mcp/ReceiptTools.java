package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.api.Verification;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeDegradedException;
import dev.palimpsest.model.JudgeUnavailableException;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.TrustPolicy;
import dev.palimpsest.model.Verdict;
import dev.palimpsest.wire.JudgeWire;
import dev.palimpsest.wire.ReceiptsWire;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The receipts tools of the full set: the writes merge (an entity-identity artifact with its
 * receipts), ingest (a batch, as the CLI's {@code ingest}), retract_source and revoke_relation
 * (withdrawals whose cascade follows the receipts), and the reads receipts (one fact's receipts at a
 * commit, with what is alive), verify (a claim against its source, by the server's judge) and
 * rederive_audit (a withdrawal checked by re-derivation, by the server's judges). Each calls the
 * public API and answers with the CLI's {@code --json} fields. Stateless.
 */
final class ReceiptTools {
    private static final int ATTEMPTS = 3;
    private static final String NO_JUDGE = "no judge: start the server with --judge-url and --judge-model (or"
            + " PALIMPSEST_JUDGE_URL and PALIMPSEST_JUDGE_MODEL)";

    private ReceiptTools() {}

    static List<ToolDef> writes(Session s) {
        return List.of(
                ToolDef.write("merge", "Merge entities", "Record that entities are one (the merge layer): an artifact"
                        + " whose receipts are the evidence for the identity, alternative bundles each sufficient"
                        + " alone. When a bundle's member is withdrawn the merge survives on another bundle, or is"
                        + " retracted by the cascade.",
                        Schema.input().string("body", "The identity, e.g. 'MAPK/ERK pathway == ERK1/2 signalling'.",
                                true)
                                .bundles("receipts", WriteTools.RECEIPTS, 1)
                                .string("id", "Default: minted.", false),
                        Schema.output().field("id", "string").field("commit", "string"),
                        false, a -> merge(s, a)),
                ToolDef.write("ingest", "Ingest a batch", "Land a batch of sources, assertions, claims and artifacts"
                        + " with their receipts (and optional policy and ontology) as one commit: the YAML or JSON of"
                        + " the CLI's ingest --file. Every problem is reported at once and nothing is written.",
                        Schema.input().string("batch", "The batch, YAML or JSON text (docs/loading.md).", true)
                                .bool("strict", "Refuse receipts over 8 bundles instead of keeping the smallest 8."),
                        Schema.output().field("commit", "string").field("kinds", "object")
                                .field("configured", "boolean").field("truncated", "array"),
                        false, a -> ingest(s, a)),
                ToolDef.write("retract_source", "Retract source documents", "Retract documents and every assertion"
                        + " of them in one commit; the cascade retracts what loses its last live bundle and revises"
                        + " sentence summaries. Call with dry_run first.",
                        Schema.input().strings("docs", "The source documents.", 1)
                                .string("reason", "Why they are withdrawn.", true)
                                .bool("dry_run", "Return the plan; write nothing."),
                        plan(), true, a -> withdraw(s, a, true)),
                ToolDef.write("revoke_relation", "Revoke a relation", "Retract every live assertion using a"
                        + " predicate in one commit, with the cascade by receipts. Call with dry_run first.",
                        Schema.input().string("predicate", "e.g. part_of.", true)
                                .string("reason", "Why the relation is unsound.", true)
                                .bool("dry_run", "Return the plan; write nothing."),
                        plan(), true, a -> withdraw(s, a, false)));
    }

    static List<ToolDef> reads(Session s) {
        return List.of(
                ToolDef.read("receipts", "Receipts of a fact", "A fact's receipts as of a commit: each bundle's"
                        + " members with their pinned commits and whether they are alive there, a summary's sentences,"
                        + " and whether the fact is alive by its receipts.",
                        Schema.input().string("id", ReadTools.ID, true).string("at", ReadTools.AT, false),
                        Schema.output().field("id", "string").field("kind", "string").field("at", "string")
                                .field("live", "boolean").field("alive", "boolean").field("flat", "boolean")
                                .field("receipt", "array").field("sentences", "array"),
                        a -> ReceiptsWire.of(s.store().receipts().receiptsOf(a.fact("id"), a.at(s.store())))),
                ToolDef.judged("verify", "Verify a claim", "Check a claim against its source, failing closed: the"
                        + " quote must be in the source, then the server's judge must answer supported. Never"
                        + " writes. judge-unavailable or judge-degraded when the judge cannot be asked or gives no"
                        + " verdict.",
                        Schema.input().string("source", "The fact the quote is from.", true)
                                .string("quote", "The verbatim quote cited.", true)
                                .string("claim", "The claim the quote should support.", true)
                                .string("author_model", "The model that wrote the claim (refused as reviewer).", false)
                                .string("at", ReadTools.AT, false),
                        Schema.output().field("accepted", "boolean").field("anchor_ok", "boolean")
                                .field("model_accepted", "boolean|null").field("reason", "string|null")
                                .optionalField("warning", "string"),
                        a -> verify(s, a)),
                ToolDef.judged("rederive_audit", "Audit a withdrawal", "Dry-run retract_source or revoke_relation and"
                        + " check its receipts by re-derivation: each live artifact is put to an oracle (entailment"
                        + " for entailed edges, the server's judges otherwise) and per layer the plan is counted"
                        + " leaky, over-deleted or agreeing. Writes nothing.",
                        Schema.input().strings("retract_source", "Audit retracting these documents.", 0)
                                .string("revoke_relation", "Or audit revoking this predicate.", false)
                                .string("at", ReadTools.AT, false)
                                .integer("draws", "Oracle draws per artifact (default 5).", 1, 50)
                                .number("tau", "Undecided band (default 0.2).", 0, 0.49)
                                .number("temperature", "Of every draw (default 1.0).", 0, 2)
                                .bool("grade_labels", "Audit the plan that trusts every receipt as written."),
                        Schema.output().field("at", "string").field("operation", "string").field("targets", "array")
                                .field("draws", "integer").field("tau", "number").field("under", "object")
                                .field("layers", "object"),
                        a -> rederiveAudit(s, a)));
    }

    private static Schema plan() {
        return Schema.output().field("commit", "string|null").field("roots", "array").field("removals", "array")
                .field("revisions", "array").field("dry_run", "boolean");
    }

    private static Map<String, Object> merge(Session s, Args a) throws Exception {
        FactId given = a.optFact("id");
        FactSpec spec = FactSpec.of(Kind.MERGE, a.text("body")).grounding(WriteTools.receipts(s.store(), a, Kind.MERGE));
        spec = given == null ? spec : spec.id(given);
        Transaction tx = s.store().begin(s.actor());
        FactId id = tx.assertFact(spec);
        try {
            return WriteTools.landed(id, tx.commit());
        } catch (RejectedException e) {
            throw Refs.unminted(e, given == null ? id : null);
        }
    }

    private static Map<String, Object> ingest(Session s, Args a) throws Exception {
        IngestResult r = s.store().receipts().ingest(s.actor(), a.text("batch").getBytes(StandardCharsets.UTF_8),
                a.flag("strict"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", r.commit().id().hex());
        m.put("kinds", r.kinds());
        m.put("configured", r.configured());
        m.put("truncated", Views.ids(r.truncated()));
        return m;
    }

    private static Map<String, Object> withdraw(Session s, Args a, boolean source) throws Exception {
        List<FactId> docs = source ? a.facts("docs") : null;
        String predicate = source ? null : a.text("predicate");
        String reason = a.text("reason");
        Store store = s.store();
        for (int attempt = 1; ; attempt++) {
            CleanupPlan plan = source ? store.receipts().planRetractSource(docs, reason)
                    : store.receipts().planRevokeRelation(predicate, reason);
            if (a.flag("dry_run")) {
                return Views.plan(plan, null);
            }
            try {
                CommitResult r = store.receipts().apply(s.actor(), plan);
                return Views.plan(plan, r.id());
            } catch (ConflictException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static Judge judge(Session s) {
        if (s.judges().isEmpty()) {
            throw new JudgeUnavailableException(NO_JUDGE);
        }
        return s.judges().get(0);
    }

    private static Map<String, Object> verify(Session s, Args a) throws Exception {
        FactId source = a.fact("source");
        String quote = a.text("quote");
        String claim = a.text("claim");
        String author = a.optText("author_model");
        CommitId at = a.at(s.store());
        Judge j = judge(s);
        Optional<String> warning = author == null ? Optional.empty() : Verification.checkPair(author, j.model());
        Verdict v = s.store().verification().verify(j, source, at, quote, claim);
        if (v.judgeDegraded()) {
            throw new JudgeDegradedException("the reviewer " + j.model() + " answered no verdict (" + v.reason()
                    + "): the claim is not accepted");
        }
        Map<String, Object> m = JudgeWire.verdict(v);
        warning.ifPresent(w -> m.put("warning", w));
        return m;
    }

    private static Map<String, Object> rederiveAudit(Session s, Args a) throws Exception {
        List<FactId> docs = a.facts("retract_source");
        String predicate = a.optText("revoke_relation");
        if (docs.isEmpty() == (predicate == null)) {
            throw Args.invalid("retract_source", "give exactly one of retract_source and revoke_relation");
        }
        Store store = s.store();
        CommitId at = a.at(store);
        int draws = a.count("draws", 5);
        Double tau = a.number("tau");
        Double temperature = a.number("temperature");
        if (temperature != null && !(temperature >= 0.0 && temperature <= 2.0)) {
            throw Args.invalid("temperature", "must be in [0, 2], got " + temperature);
        }
        AuditOracles oracles = new AuditOracles(s.judges(), temperature == null ? 1.0 : temperature);
        TrustPolicy under = a.flag("grade_labels") ? TrustPolicy.TRUST_ALL : store.receipts().trust(at);
        double t = tau == null ? 0.2 : tau;
        RederiveReport r = predicate != null
                ? store.rederivations().revokeRelation(predicate, at, draws, t, oracles, under)
                : store.rederivations().retractSource(docs, at, draws, t, oracles, under);
        return JudgeWire.rederive(r);
    }
}
