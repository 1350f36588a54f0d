package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "retract", description = "Assert that live facts are false, with the cascade through receipts, in one"
        + " commit; history keeps every version.")
final class RetractCommand extends Context implements Callable<Integer> {
    /** Plans made against a tip another writer moved are made again, this many times in all. */
    private static final int ATTEMPTS = 3;

    @Mixin
    Shared.Actor actor;

    @Parameters(index = "0..*", arity = "1..*", paramLabel = "ID", description = "The live facts to retract.")
    List<String> ids;

    @Mixin
    Shared.Reason reasonOption;

    @Option(names = "--dry-run", description = "Print the plan (the retraction and its cascade); write nothing.")
    boolean dryRun;

    @Option(names = "--no-cascade", description = "Retract only the facts; artifacts resting on them stay, pending in"
            + " review.")
    boolean noCascade;

    @Override
    public Integer call() throws Exception {
        if (dryRun && noCascade) {
            throw new Main.UsageException("--dry-run shows the cascade; it does not go with --no-cascade");
        }
        List<FactId> fids = Parse.facts("ID", ids);
        String reason = reasonOption.read(stdin(), home());
        ActorName signer = Parse.actor("--actor", actor.name);
        try (Store store = open()) {
            if (noCascade) {
                Transaction tx = store.begin(signer);
                fids.forEach(id -> tx.retract(id, reason));
                print(tx.commit(), null);
                return Main.OK;
            }
            for (int attempt = 1; ; attempt++) {
                CleanupPlan plan = store.receipts().planRetract(fids, reason);
                if (dryRun) {
                    if (json()) {
                        printJson(ReceiptCommands.planJson(plan, null));
                    } else {
                        ReceiptCommands.printPlan(out(), plan, null);
                    }
                    return Main.OK;
                }
                try {
                    print(store.receipts().apply(signer, plan), plan);
                    return Main.OK;
                } catch (ConflictException e) {
                    if (attempt == ATTEMPTS) {
                        throw e;
                    }
                }
            }
        }
    }

    private void print(CommitResult r, CleanupPlan plan) {
        List<FactId> revised = plan == null ? List.of() : plan.revisions().stream().map(CleanupPlan.Revision::id).toList();
        if (json()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("commit", r.id().hex());
            m.put("retracted", ReceiptCommands.ids(r.retracted()));
            m.put("revised", ReceiptCommands.ids(revised));
            printJson(m);
        } else if (plan != null && (!plan.removals().isEmpty() || !plan.revisions().isEmpty())) {
            ReceiptCommands.printPlan(out(), plan, r);
        } else {
            out().println("retracted " + r.retracted() + " " + r.id().hex());
            if (plan != null && !plan.touched().isEmpty()) {
                out().println("  touched but alive (for review): " + plan.touched());
            }
        }
    }
}
