package dev.palimpsest.mcp;

import dev.palimpsest.model.UnlearnReport;
import dev.palimpsest.wire.ErasureWire;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The erasure tools forget, expire and unlearn_check, answering with the CLI's {@code --json}
 * fields. Forget and expire land one signed commit by the server's actor (or write nothing on a
 * dry run or a rejection). Stateless.
 */
final class ForgetTools {
    static final String SENSITIVE = "Seal the content (AES-256-GCM under its own data key) so it can be forgotten later.";
    static final String PLAINTEXT = "Keep the content in the clear although it cites or quotes sealed facts (by"
            + " default such a fact is sealed so it can be forgotten with them); recorded in the fact.";
    static final String RETAIN_UNTIL = "Retention deadline, an ISO-8601 instant (e.g. 2027-01-01T00:00:00Z): expire"
            + " forgets the fact once it has passed. Seals the content.";

    private ForgetTools() {}

    static List<ToolDef> all(Session s) {
        return List.of(
                ToolDef.write("forget", "Forget sealed facts", "Erase sealed facts (personal data, an unlearning"
                        + " request): one signed commit of tombstones, each with its closure (every fact whose refs,"
                        + " quotes or receipts reach it); sealed derived artifacts are forgotten with it, plain ones"
                        + " queued for review; then the data keys are destroyed. Signed history stays verifiable. Plain"
                        + " (unsealed) facts are refused: retract them instead. Call with dry_run first.",
                        Schema.input().strings("ids", "The sealed facts to forget.", 1)
                                .string("reason", "Why (recorded in each tombstone).", true)
                                .bool("dry_run", "Return what would be forgotten and the closure; write nothing.")
                                .bool("with_derived", "Also forget every sealed fact of the closure (citers and"
                                        + " quoters too) in the same commit."),
                        Schema.output().field("commit", "string|null").field("forgotten", "array")
                                .field("closure", "array").field("review", "array"),
                        true, a -> forget(s, a)),
                ToolDef.write("expire", "Expire past retention", "Forget every sealed fact whose retention deadline"
                        + " has passed, once, recording each original deadline.",
                        Schema.input().string("now", "The time to expire at (ISO-8601 instant; default: now).", false)
                                .bool("dry_run", "Return what would expire; write nothing."),
                        Schema.output().field("commit", "string|null").field("forgotten", "array"),
                        true, a -> expire(s, a)),
                ToolDef.read("unlearn_check", "Prove a fact is unlearned", "The derivation set of a fact (its"
                        + " tombstone's closure and the live graph), which members' content is still readable, and"
                        + " the derived files a running process still holds that may hold it; clean is true when none.",
                        Schema.input().string("id", ReadTools.ID, true),
                        Schema.output().field("derivations", "array").field("readable", "array").field("caches", "array")
                                .field("clean", "boolean"),
                        a -> unlearnCheck(s, a)));
    }

    private static Map<String, Object> forget(Session s, Args a) throws Exception {
        var e = s.store().erasure();
        return ErasureWire.forget(a.flag("with_derived")
                ? e.forgetWithDerived(s.actor(), a.facts("ids"), a.text("reason"), a.flag("dry_run"))
                : e.forget(s.actor(), a.facts("ids"), a.text("reason"), a.flag("dry_run")));
    }

    private static Map<String, Object> expire(Session s, Args a) throws Exception {
        Instant now = a.optInstant("now");
        return ErasureWire.expire(s.store().erasure().expire(s.actor(), now == null ? Instant.now() : now, a.flag("dry_run")));
    }

    private static Map<String, Object> unlearnCheck(Session s, Args a) throws Exception {
        UnlearnReport r = s.store().erasure().unlearnCheck(a.fact("id"));
        Map<String, Object> m = ErasureWire.unlearnCheck(r);
        m.put("clean", r.clean());
        return m;
    }
}
