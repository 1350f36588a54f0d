package dev.palimpsest.cli;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "assert", description = "Write a new fact as one signed commit.")
final class AssertCommand extends Context implements Callable<Integer> {
    @Option(names = "--actor", required = true)
    String actor;

    @Option(names = "--body", required = true)
    String body;

    @Option(names = "--id", description = "The fact id (default: minted, <kind>-<12 hex>).")
    String id;

    @Option(names = "--kind", defaultValue = "claim", description = "claim (default), source, hypothesis, ...")
    String kind;

    @Option(names = "--confidence", description = "In [0, 1].")
    Double confidence;

    @Option(names = "--subsumes", paramLabel = "HYP",
            description = "Cite hypothesis HYP (role subsumes) and retract it in the same commit.")
    String subsumes;

    @Mixin
    RefOptions refs;

    @Override
    public Integer call() throws Exception {
        try (Store store = open()) {
            Transaction tx = store.begin(ActorName.of(actor));
            FactSpec spec = WriteOutput.spec(kind, body, id, confidence, refs.specs(store));
            FactId fid = subsumes == null ? tx.assertFact(spec) : tx.subsume(FactId.of(subsumes), spec);
            CommitResult r = tx.commit();
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
