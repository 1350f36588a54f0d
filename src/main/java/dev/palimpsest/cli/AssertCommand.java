package dev.palimpsest.cli;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "assert", description = "Write a new fact as one signed commit.")
final class AssertCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Mixin
    Shared.Body body;

    @Option(names = "--id", paramLabel = "ID", description = "The fact id (default: minted, <kind>-<12 hex>).")
    String id;

    @Option(names = "--kind", paramLabel = "KIND", defaultValue = "claim",
            description = "claim (default), source, hypothesis, ...")
    String kind;

    @Option(names = "--confidence", paramLabel = "X", description = "In [0, 1].")
    Double confidence;

    @Option(names = "--subsumes", paramLabel = "HYP",
            description = "Cite hypothesis HYP (role subsumes) and retract it in the same commit.")
    String subsumes;

    @Mixin
    RefOptions refs;

    @Mixin
    Shared.Sealing sealing;

    @Mixin
    Shared.ValidTime validTime;

    @Override
    public Integer call() throws Exception {
        String text = TextInput.body(body, stdin(), home());
        FactId given = Parse.fact("--id", id);
        FactId hypothesis = Parse.fact("--subsumes", subsumes);
        try (Store store = open()) {
            Transaction tx = store.begin(Parse.actor("--actor", actor.name));
            FactSpec spec = validTime.apply(sealing.apply(WriteOutput.spec(Parse.kind(kind), text, given, confidence, refs.specs(store))));
            FactId fid = hypothesis == null ? tx.assertFact(spec) : tx.subsume(hypothesis, spec);
            CommitResult r = refs.commit(tx, given, fid);
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
