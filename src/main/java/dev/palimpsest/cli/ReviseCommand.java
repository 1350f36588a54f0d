package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "revise", description = "Write a new version of a live fact (new body, added refs).")
final class ReviseCommand extends Context implements Callable<Integer> {
    @Option(names = "--actor", required = true)
    String actor;

    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(names = "--body", required = true)
    String body;

    @Mixin
    RefOptions refs;

    @Override
    public Integer call() throws Exception {
        FactId fid = FactId.of(id);
        try (Store store = open()) {
            CommitResult r = store.begin(ActorName.of(actor)).revise(fid, body, refs.specs(store)).commit();
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
