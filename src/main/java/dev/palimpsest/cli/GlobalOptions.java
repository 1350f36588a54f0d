package dev.palimpsest.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code --store}, {@code --home}, {@code --json} and {@code --embedder}: mixed into the top command, inherited by every subcommand. */
final class GlobalOptions {
    @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "PATH",
            description = "The store (a bare git repository). Default: $PALIMPSEST_STORE.")
    Path store;

    @Option(names = "--home", scope = ScopeType.INHERIT, paramLabel = "PATH",
            description = "The key home holding secret keys. Default: $PALIMPSEST_HOME, else ~/.palimpsest.")
    Path home;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print JSON on stdout; a failure prints one {\"error\": ...} object there.")
    boolean json;

    @Option(names = "--embedder", scope = ScopeType.INHERIT, paramLabel = "local|none|openai",
            description = "The semantic channel's model: the bundled local one, none, or an OpenAI-compatible endpoint"
                    + " ($PALIMPSEST_EMBEDDER_URL, _MODEL, _DIMENSIONS, _KEY). Default: $PALIMPSEST_EMBEDDER, else local.")
    String embedder;
}
