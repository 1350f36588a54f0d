package dev.palimpsest.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.StoreOptions;
import java.io.InputStream;
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
    Root main() {
        picocli.CommandLine cl = spec.commandLine();
        while (!(cl.getCommand() instanceof Root)) {
            cl = cl.getParent();
        }
        return cl.getCommand();
    }

    Path storePath() {
        Root main = main();
        if (main.global().store != null) {
            return main.global().store;
        }
        String env = System.getenv("PALIMPSEST_STORE");
        if (env == null || env.isBlank()) {
            throw new Main.UsageException("no store given: pass --store PATH or set PALIMPSEST_STORE");
        }
        return Path.of(env);
    }

    KeyHome home() {
        return main().global().home != null ? KeyHome.of(main().global().home) : KeyHome.fromEnvironment();
    }

    boolean json() {
        return main().global().json;
    }

    InputStream stdin() {
        return main().stdin();
    }

    /** Opens the store; a path that holds none is exit 6, not "not found". */
    Store open() {
        try {
            return Store.open(storePath(), home(), storeOptions());
        } catch (NotFoundException e) {
            throw new Main.NoStoreException(e.getMessage());
        }
    }

    /** The default options with the embedder chosen by {@code --embedder} or the environment. */
    StoreOptions storeOptions() {
        return StoreOptions.defaults().withEmbedder(embedder(main().global().embedder));
    }

    /**
     * The embedder named by {@code choice} (null: {@code $PALIMPSEST_EMBEDDER}, else local); {@code
     * openai} reads {@code $PALIMPSEST_EMBEDDER_URL}, {@code _MODEL}, {@code _DIMENSIONS} and {@code _KEY}.
     */
    static dev.palimpsest.model.Embedder embedder(String choice) {
        String c = choice != null ? choice : System.getenv("PALIMPSEST_EMBEDDER");
        if (c == null || c.isBlank() || c.equals("local")) {
            return dev.palimpsest.model.Embedder.LOCAL;
        }
        if (c.equals("none")) {
            return dev.palimpsest.model.Embedder.NONE;
        }
        if (!c.equals("openai")) {
            throw new Main.UsageException("--embedder must be local, none or openai, not '" + c + "'");
        }
        String url = System.getenv("PALIMPSEST_EMBEDDER_URL");
        String model = System.getenv("PALIMPSEST_EMBEDDER_MODEL");
        String dims = System.getenv("PALIMPSEST_EMBEDDER_DIMENSIONS");
        if (url == null || url.isBlank() || model == null || model.isBlank() || dims == null) {
            throw new Main.UsageException("--embedder openai needs $PALIMPSEST_EMBEDDER_URL, $PALIMPSEST_EMBEDDER_MODEL"
                    + " and $PALIMPSEST_EMBEDDER_DIMENSIONS");
        }
        int d;
        try {
            d = Integer.parseInt(dims.strip());
        } catch (NumberFormatException e) {
            throw new Main.UsageException("$PALIMPSEST_EMBEDDER_DIMENSIONS must be a number, not '" + dims + "'");
        }
        String key = System.getenv("PALIMPSEST_EMBEDDER_KEY");
        try {
            return dev.palimpsest.api.Embedders.openAi(url.strip(), model.strip(), d).key(key == null ? "" : key).build();
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }

    CommitId at(Store store, String revision) throws NotFoundException {
        return revision == null ? store.head() : store.resolve(revision);
    }

    /**
     * The commit a read asks about: {@code --at} resolved, or the commit {@code --as-of} names
     * (exit 4 when the store's history starts after that time), or main's tip; both is a usage error.
     */
    CommitId at(Store store, Shared.At at) throws NotFoundException, dev.palimpsest.model.RejectedException {
        if (at.asOf == null) {
            return at(store, at.revision);
        }
        if (at.revision != null) {
            throw new Main.UsageException("--at and --as-of exclude each other: give one");
        }
        java.time.Instant t;
        try {
            t = dev.palimpsest.model.Validity.parse("--as-of", at.asOf);
        } catch (dev.palimpsest.model.ValidTimeException e) {
            throw new dev.palimpsest.model.RejectedException(e.rule(), "--as-of", e.getMessage());
        }
        return store.commitAsOf(t).orElseThrow(() -> new NotFoundException("no commit of main is dated at or before "
                + t + ": the store's history starts later"));
    }

    /** Exit 4 unless {@code id} was ever written in the ancestry of {@code at}. */
    static void requireKnown(Store store, FactId id, CommitId at) throws NotFoundException {
        store.factExistsAt(id, at);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where a benchmark logs as it runs: standard output, or standard error under {@code --json} (stdout is then JSON only). */
    PrintWriter benchLog() {
        return json() ? spec.commandLine().getErr() : out();
    }

    void printJson(Object value) {
        printJson(out(), value);
    }

    static void printJson(PrintWriter out, Object value) {
        try {
            out.println(JSON.writeValueAsString(value));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
