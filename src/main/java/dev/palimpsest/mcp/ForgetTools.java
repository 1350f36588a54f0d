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
    static final String SENSITIVE = "Seal it (see instructions).";
    static final String PLAINTEXT = "Keep it unsealed (see instructions).";
    static final String RETAIN_UNTIL = "Instant when expire forgets it.";

    private ForgetTools() {}

    static List<ToolDef> all(Session s) {
        return List.of(
                ToolDef.write("forget", "Forget sealed facts", "Erase sealed facts (personal data) and their closure"
                        + " (every fact whose refs, quotes or receipts reach them) in one commit of tombstones, then"
                        + " destroy their data keys; history stays verifiable. Plain facts are refused: retract them."
                        + " Call with dry_run first.",
                        Schema.input().strings("ids", "The sealed facts to forget.", 1)
                                .string("reason", "Why (recorded in each tombstone).", true)
                                .bool("dry_run", "Return what would be forgotten and the closure; write nothing.")
                                .bool("with_derived", "Also forget the closure's sealed facts, same commit."),
                        Schema.output().field("commit", "string|null").field("forgotten", "array")
                                .field("closure", "array").field("review", "array"),
                        true, a -> forget(s, a)),
                ToolDef.write("expire", "Expire past retention", "Forget every sealed fact whose retention deadline"
                        + " has passed, recording each deadline.",
                        Schema.input().string("now", "The instant to expire at (default: now).", false)
                                .bool("dry_run", "Return what would expire; write nothing."),
                        Schema.output().field("commit", "string|null").field("forgotten", "array"),
                        true, a -> expire(s, a)),
                ToolDef.read("unlearn_check", "Prove a fact is unlearned", "A fact's derivation set, which members are still"
                        + " readable, and the derived files a running process holds that may hold it; clean when"
                        + " none.",
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
