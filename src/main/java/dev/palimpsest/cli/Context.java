package dev.palimpsest.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.CommitId;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every subcommand shares: the global options, the store it opens, and output. */
abstract class Context {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    /** The top-level command, which holds the inherited global options. */
    Main main() {
        picocli.CommandLine cl = spec.commandLine();
        while (!(cl.getCommand() instanceof Main)) {
            cl = cl.getParent();
        }
        return cl.getCommand();
    }

    Path storePath() {
        Main main = main();
        if (main.store != null) {
            return main.store;
        }
        String env = System.getenv("PALIMPSEST_STORE");
        if (env == null || env.isBlank()) {
            throw new Main.UsageException("no store given: pass --store PATH or set PALIMPSEST_STORE");
        }
        return Path.of(env);
    }

    KeyHome home() {
        return KeyHome.resolve(main().home);
    }

    boolean json() {
        return main().json;
    }

    Store open() throws NotFoundException {
        return Store.open(storePath(), home(), StoreOptions.defaults());
    }

    CommitId at(Store store, String revision) throws NotFoundException {
        return revision == null ? store.head() : store.resolve(revision);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    void printJson(Object value) {
        try {
            out().println(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
