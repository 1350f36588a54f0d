package dev.palimpsest.cli;

import dev.palimpsest.api.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "retract", description = "Assert that a live fact is false; history keeps every version.")
final class RetractCommand extends Context implements Callable<Integer> {
    @Option(names = "--actor", required = true)
    String actor;

    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(names = "--reason", required = true)
    String reason;

    @Override
    public Integer call() throws Exception {
        FactId fid = FactId.of(id);
        try (Store store = open()) {
            CommitResult r = store.begin(ActorName.of(actor)).retract(fid, reason).commit();
            if (json()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("commit", r.commit().hex());
                m.put("retracted", r.retracted().stream().map(FactId::value).toList());
                printJson(m);
            } else {
                out().println("retracted " + r.retracted() + " " + r.commit().hex());
            }
        }
        return Main.OK;
    }
}
