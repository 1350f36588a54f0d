package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "revise", description = "Write a new version of a live fact (new body, added refs, new validity).")
final class ReviseCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Parameters(index = "0", paramLabel = "ID", description = "The live fact to revise.")
    String id;

    @Mixin
    Shared.Body body;

    @Mixin
    RefOptions refs;

    @Mixin
    Shared.ValidTime validTime;

    @Override
    public Integer call() throws Exception {
        FactId fid = Parse.fact("ID", id);
        String text = validTime.given() && body.text == null && body.file == null ? null
                : TextInput.body(body, stdin(), home());
        java.time.Instant from = validTime.start();
        java.time.Instant until = validTime.end();
        try (Store store = open()) {
            CommitResult r = refs.commit(store.begin(Parse.actor("--actor", actor.name))
                    .revise(fid, java.util.Optional.ofNullable(text), refs.specs(store), java.util.Optional.ofNullable(from),
                            java.util.Optional.ofNullable(until)));
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
