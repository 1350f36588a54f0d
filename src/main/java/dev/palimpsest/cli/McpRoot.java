package dev.palimpsest.cli;

import java.io.InputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The {@code palimpsest} command with {@code mcp} as its only subcommand: what runs when the command
 * line names {@code mcp}, so an MCP server's start does not pay for reflecting over every other
 * command (about a second of CPU). It parses an {@code mcp} command line exactly as {@link Main}'s
 * full tree does: same global options, same subcommand, same help.
 */
@Command(name = "palimpsest", mixinStandardHelpOptions = true, version = "palimpsest 0.1.0",
        description = "A git-backed temporal knowledge store for AI agents, with signed commits.",
        subcommands = McpCommand.class)
final class McpRoot implements Root {
    @Mixin
    GlobalOptions global;

    private final InputStream stdin;

    private McpRoot(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public GlobalOptions global() {
        return global;
    }

    @Override
    public InputStream stdin() {
        return stdin;
    }

    /**
     * True when the first argument after the global options ({@code --store P}, {@code --home P},
     * their {@code =} forms, {@code --json}) is {@code mcp}; anything else, {@code --help} or an
     * unknown option first too, goes to the full tree.
     */
    static boolean serves(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ("--store".equals(a) || "--home".equals(a)) {
                i++;
            } else if (!"--json".equals(a) && !a.startsWith("--store=") && !a.startsWith("--home=")) {
                return "mcp".equals(a);
            }
        }
        return false;
    }

    /** The command tree, configured as {@link Main#commandLine} configures the full one. */
    static CommandLine commandLine(InputStream in) {
        CommandLine cl = new CommandLine(new McpRoot(in));
        cl.setExpandAtFiles(false);
        Main.configure(cl);
        return cl;
    }
}
