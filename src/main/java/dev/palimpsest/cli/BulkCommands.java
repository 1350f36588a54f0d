package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ImportOptions;
import dev.palimpsest.model.ImportResult;
import dev.palimpsest.model.NoteSplit;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Bulk loading and unloading: import of markdown notes, export as JSON lines. */
final class BulkCommands {
    private BulkCommands() {}

    @Command(name = "import", description = "Import a folder of markdown notes as source facts (one per file, or per"
            + " section with --split), as one commit; an unchanged folder writes nothing, a changed note is revised.")
    static final class Import extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Parameters(index = "0", paramLabel = "DIR", description = "The folder of notes (*.md, *.markdown; hidden ones skipped).")
        Path dir;

        @Option(names = "--split", paramLabel = "file|h1|h2|h3", defaultValue = "file",
                description = "One fact per file (default) or per section starting at a heading of that level.")
        String split;

        @Option(names = "--number", description = "With --split: id each section by its position (ID.0 the text before"
                + " the first heading, ID.1, ID.2, ...) instead of its heading, so a brief shows the sections around a hit.")
        boolean number;

        @Option(names = "--id-prefix", paramLabel = "P", defaultValue = "note-",
                description = "The start of the ids made from paths for notes without an id (default: ${DEFAULT-VALUE}).")
        String prefix;

        @Override
        public Integer call() throws Exception {
            ImportOptions options;
            try {
                options = ImportOptions.defaults().split(NoteSplit.of(split)).idPrefix(prefix).numbered(number);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException(e.getMessage());
            }
            try (Store store = open()) {
                ImportResult r = store.bulk().importNotes(Parse.actor("--actor", actor.name), dir, options);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("commit", r.commit().map(CommitId::hex).orElse(null));
                    m.put("added", ids(r.added()));
                    m.put("revised", ids(r.revised()));
                    m.put("unchanged", r.unchanged());
                    printJson(m);
                } else {
                    out().println("imported: " + r.added().size() + " added, " + r.revised().size() + " revised, "
                            + r.unchanged() + " unchanged" + r.commit().map(c -> " in " + c.hex()).orElse(" (nothing to write)"));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "export", description = "Print the facts live at a commit as JSON lines, one object per fact"
            + " (sealed content withheld unless --include-sealed; forgotten content never).")
    static final class Export extends Context implements Callable<Integer> {
        @Mixin
        Shared.At at;

        @Option(names = "--include-sealed", description = "Write the content of sealed facts too (it then exists"
                + " outside the store, where forget cannot erase it).")
        boolean includeSealed;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                store.bulk().export(at(store, at), includeSealed, out());
                out().flush();
            }
            return Main.OK;
        }
    }

    static List<String> ids(List<FactId> ids) {
        return ids.stream().map(FactId::value).toList();
    }
}
