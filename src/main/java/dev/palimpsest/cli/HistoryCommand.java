package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.HistoryEntry;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "history", description = "List a fact's versions and retractions on main, newest first.")
final class HistoryCommand extends Context implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ID", description = "The fact whose history to list.")
    String id;

    @Override
    public Integer call() throws Exception {
        FactId fid = Parse.fact("ID", id);
        try (Store store = open()) {
            List<HistoryEntry> h = store.history(fid);
            if (h.isEmpty()) {
                throw new dev.palimpsest.model.NotFoundException(fid + " was never written on main");
            }
            if (json()) {
                printJson(h.stream().map(Render::history).toList());
            } else {
                for (HistoryEntry e : h) {
                    out().printf("%s %-9s %s %s%n", e.commit().hex(), e.change(), e.actor(), e.time());
                }
            }
        }
        return Main.OK;
    }
}
