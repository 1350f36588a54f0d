package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.LogEntry;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "log", description = "List the store's commits on main, newest first.")
final class LogCommand extends Context implements Callable<Integer> {
    @Option(names = {"-n", "--limit"}, paramLabel = "N", defaultValue = "0", description = "At most this many (0: all).")
    int limit;

    @Override
    public Integer call() throws Exception {
        try (Store store = open()) {
            List<LogEntry> log = store.log(limit);
            if (json()) {
                printJson(log.stream().map(Render::log).toList());
            } else {
                for (LogEntry e : log) {
                    out().printf("%s %s %s %s%n", e.commit().abbreviated(), e.time(), e.actor(), Render.safe(e.subject()));
                }
            }
        }
        return Main.OK;
    }
}
