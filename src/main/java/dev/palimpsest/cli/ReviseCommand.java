package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "revise", description = "Write a new version of a live fact (new body, added refs).")
final class ReviseCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Parameters(index = "0", paramLabel = "ID", description = "The live fact to revise.")
    String id;

    @Mixin
    Shared.Body body;

    @Mixin
    RefOptions refs;

    @Override
    public Integer call() throws Exception {
        FactId fid = Parse.fact("ID", id);
        String text = TextInput.body(body, stdin(), home());
        try (Store store = open()) {
            CommitResult r = refs.commit(store.begin(Parse.actor("--actor", actor.name))
                    .revise(fid, text, refs.specs(store)));
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
