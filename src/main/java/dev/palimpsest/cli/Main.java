package dev.palimpsest.cli;

import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code palimpsest} command. Exit codes: 0 ok, 1 internal error, 2 usage, 3 audit violations,
 * 4 not found at that commit, 5 rejected (bad input or gate violation; nothing written).
 */
@Command(name = "palimpsest", mixinStandardHelpOptions = true, version = "palimpsest 0.1.0",
        description = "A git-backed temporal knowledge store for AI agents, with signed commits.",
        subcommands = {InitCommand.class, AssertCommand.class, ReviseCommand.class, RetractCommand.class,
            ShowCommand.class, HistoryCommand.class, LogCommand.class,
            PredicateCommands.Live.class, PredicateCommands.Exists.class, PredicateCommands.Inbound.class,
            PredicateCommands.Stale.class, PredicateCommands.WeightCmd.class,
            ConsolidateCommands.Supersede.class, ConsolidateCommands.Merge.class,
            KeysCommand.class, AuditCommand.class, HooksCommand.class,
            ReceiptCommands.Ingest.class, ReceiptCommands.Report.class, ReceiptCommands.RetractSource.class,
            ReceiptCommands.RevokeRelation.class, ReceiptCommands.Review.class, ReceiptCommands.Entail.class,
            DemoCommand.class, BenchCommand.class})
public final class Main {
    public static final int OK = 0;
    public static final int INTERNAL = 1;
    public static final int USAGE = 2;
    public static final int AUDIT_VIOLATIONS = 3;
    public static final int NOT_FOUND = 4;
    public static final int REJECTED = 5;

    @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "PATH",
            description = "The store (a bare git repository). Default: $PALIMPSEST_STORE.")
    Path store;

    @Option(names = "--home", scope = ScopeType.INHERIT, paramLabel = "PATH",
            description = "The key home holding secret keys. Default: $PALIMPSEST_HOME, else ~/.palimpsest.")
    Path home;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON.")
    boolean json;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line and returns its exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        addHelp(cl);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            int code = exitCode(ex);
            String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            if (code == INTERNAL) {
                line.getErr().println("internal error: " + msg);
                Throwable cause = ex.getCause();
                while (cause != null) {
                    line.getErr().println("  caused by: " + cause);
                    cause = cause.getCause();
                }
            } else {
                line.getErr().println("error: " + msg);
            }
            line.getErr().flush();
            return code;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Gives every subcommand --help and --version, like the top-level command. */
    private static void addHelp(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().mixinStandardHelpOptions(true);
            addHelp(sub);
        }
    }

    static int exitCode(Exception ex) {
        if (ex instanceof NotFoundException) {
            return NOT_FOUND;
        }
        if (ex instanceof RejectedException || ex instanceof IllegalArgumentException) {
            return REJECTED;
        }
        if (ex instanceof ConflictException) {
            return INTERNAL;
        }
        if (ex instanceof UsageException) {
            return USAGE;
        }
        if (ex instanceof PalimpsestInternalException) {
            return INTERNAL;
        }
        return INTERNAL;
    }

    /** A usage problem found after parsing (a missing required global option). */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
