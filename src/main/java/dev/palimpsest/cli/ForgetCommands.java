package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ExpireReport;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ForgetReport;
import dev.palimpsest.model.UnlearnReport;
import dev.palimpsest.wire.ErasureWire;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The erasure commands: forget, expire, unlearn-check. */
final class ForgetCommands {
    private ForgetCommands() {}

    private static List<String> ids(List<FactId> ids) {
        return ErasureWire.ids(ids);
    }

    @Command(name = "forget", description = "Erase sealed facts: one signed commit of tombstones (with their closure),"
            + " the sealed derived artifacts cascaded; then destroy the data keys and scrub the caches.")
    static final class Forget extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Parameters(index = "0..*", arity = "1..*", paramLabel = "ID", description = "The sealed facts to forget.")
        List<String> ids;

        @Mixin
        Shared.Reason reasonOption;

        @Option(names = "--dry-run", description = "Print what would be forgotten and the closure; write nothing.")
        boolean dryRun;

        @Option(names = "--with-derived", description = "Also forget every sealed fact of the closure (citers and"
                + " quoters, not only merges, edges and summaries) in the same commit.")
        boolean withDerived;

        @Override
        public Integer call() throws Exception {
            List<FactId> fids = Parse.facts("ID", ids);
            String reason = reasonOption.read(stdin(), home());
            try (Store store = open()) {
                ActorName who = Parse.actor("--actor", actor.name);
                ForgetReport r = withDerived ? store.erasure().forgetWithDerived(who, fids, reason, dryRun)
                        : store.erasure().forget(who, fids, reason, dryRun);
                if (json()) {
                    printJson(ErasureWire.forget(r));
                } else {
                    out().println((r.commit() == null ? "would forget " : "forgot ") + String.join(" ", ids(r.forgotten()))
                            + (r.commit() == null ? "" : " at " + r.commit().hex()));
                    out().println("closure: " + String.join(" ", ids(r.closure())));
                    out().println("review: " + String.join(" ", ids(r.review())));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "expire", description = "Forget every sealed fact whose retention deadline has passed, once.")
    static final class Expire extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Option(names = "--now", paramLabel = "TIME", description = "The time to expire at (ISO-8601 instant; default: now).")
        String now;

        @Option(names = "--dry-run", description = "Print what would expire; write nothing.")
        boolean dryRun;

        @Override
        public Integer call() throws Exception {
            Instant at;
            try {
                at = now == null ? Instant.now() : Instant.parse(now);
            } catch (java.time.format.DateTimeParseException e) {
                throw new Main.UsageException("--now: '" + now + "' is not an ISO-8601 instant");
            }
            try (Store store = open()) {
                ExpireReport r = store.erasure().expire(Parse.actor("--actor", actor.name), at, dryRun);
                if (json()) {
                    printJson(ErasureWire.expire(r));
                } else {
                    for (ExpireReport.Expired e : r.forgotten()) {
                        out().println((dryRun ? "would expire " : "expired ") + e.id() + " (deadline " + e.deadline() + ")");
                    }
                    if (r.commit() != null) {
                        out().println("commit " + r.commit().hex());
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "unlearn-check", description = "Prove nothing derived from a fact remains readable: the derivation"
            + " set (tombstone closure and live graph), its readable members, and the derived files a running process"
            + " holds that may still hold the content (stale ones nobody holds are deleted first); exit 0 when none, 3"
            + " otherwise.")
    static final class UnlearnCheck extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The fact (usually forgotten).")
        String id;

        @Override
        public Integer call() throws Exception {
            FactId fid = Parse.fact("ID", id);
            try (Store store = open()) {
                UnlearnReport r = store.erasure().unlearnCheck(fid);
                if (json()) {
                    printJson(ErasureWire.unlearnCheck(r));
                } else {
                    out().println("derivations: " + String.join(" ", ids(r.derivations())));
                    out().println("readable: " + String.join(" ", ids(r.readable())));
                    if (!r.caches().isEmpty()) {
                        out().println("caches: " + String.join(" ", r.caches()));
                    }
                }
                return r.clean() ? Main.OK : Main.AUDIT_VIOLATIONS;
            }
        }
    }
}
