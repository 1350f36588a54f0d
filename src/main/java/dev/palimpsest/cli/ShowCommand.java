package dev.palimpsest.cli;

import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "show", description = "Print a fact as of a commit (default: main); exit 4 if not live there.")
final class ShowCommand extends Context implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ID", description = "The fact to show.")
    String id;

    @Mixin
    Shared.At at;

    @Option(names = "--fallback", description = "For a retracted fact, show its last valid version, labelled.")
    boolean fallback;

    @Override
    public Integer call() throws Exception {
        FactId fid = Parse.fact("ID", id);
        try (Store store = open()) {
            CommitId c = at(store, at);
            FactRead read = store.read(fid, c);
            if (read instanceof FactRead.Found f) {
                if (json()) {
                    Map<String, Object> m = Render.fact(f.fact(), f.version());
                    m.put("retracted", false);
                    printJson(m);
                } else {
                    out().print(Render.factText(f.fact(), f.version()));
                }
                return Main.OK;
            }
            if (read instanceof FactRead.Retracted r) {
                if (!fallback) {
                    throw new NotFoundException(fid + " was retracted at " + r.retractedAt().hex() + " (reason: "
                            + r.reason() + "); --fallback shows its last valid version");
                }
                if (json()) {
                    Map<String, Object> m = Render.fact(r.lastFact(), r.lastVersion());
                    m.put("retracted", true);
                    m.put("retracted_at", r.retractedAt().hex());
                    m.put("reason", r.reason());
                    printJson(m);
                } else {
                    out().println("RETRACTED at " + r.retractedAt().hex() + ": " + Render.safe(r.reason()));
                    out().println("last valid version:");
                    out().print(Render.factText(r.lastFact(), r.lastVersion()));
                }
                return Main.OK;
            }
            throw new NotFoundException(fid + " does not exist at " + c.hex());
        }
    }
}
