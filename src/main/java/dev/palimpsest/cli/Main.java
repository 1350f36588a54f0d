package dev.palimpsest.cli;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code palimpsest} command. Exit codes: 0 ok, 1 internal error, 2 usage, 3 audit violations,
 * 4 not found (an unknown fact or commit, or a fact not live there), 5 rejected (bad input or gate
 * violation; nothing written), 6 no store at that path, 7 conflict (another writer moved main;
 * nothing written; retry), 8 judge unavailable (misconfigured or unreachable; nothing written). With {@code --json} every failure prints one {@link Failure} object on
 * stdout.
 */
@Command(name = "palimpsest", mixinStandardHelpOptions = true, version = "palimpsest 0.1.0",
        description = "A git-backed temporal knowledge store for AI agents, with signed commits.",
        subcommands = {CommandLine.HelpCommand.class, InitCommand.class, AssertCommand.class, ReviseCommand.class,
            RetractCommand.class, ForgetCommands.Forget.class, ForgetCommands.Expire.class,
            ForgetCommands.UnlearnCheck.class, ShowCommand.class, HistoryCommand.class, LogCommand.class,
            PredicateCommands.Live.class, PredicateCommands.Valid.class, PredicateCommands.Exists.class, PredicateCommands.Inbound.class,
            PredicateCommands.Stale.class, PredicateCommands.WeightCmd.class,
            ConsolidateCommands.Supersede.class, ConsolidateCommands.Merge.class,
            KeysCommand.class, AuditCommand.class, HooksCommand.class,
            ReceiptCommands.Ingest.class, BulkCommands.Import.class, BulkCommands.Export.class, ReceiptCommands.Report.class, ReceiptCommands.RetractSource.class,
            ReceiptCommands.RevokeRelation.class, ReceiptCommands.Review.class, ReceiptCommands.Entail.class,
            DemoCommand.class, BenchCommand.class,
            ClaimCommands.Claim.class, ClaimCommands.Current.class, ClaimCommands.Chain.class,
            ClaimCommands.DeadEndsCmd.class, ClaimCommands.Contradictions.class,
            DeriveCommands.Dependents.class, DeriveCommands.Explain.class, FileCommand.class,
            RecallCommands.Search.class, RecallCommands.BriefCmd.class, RecallCommands.KnownEntities.class,
            JudgeCommands.Verify.class, JudgeCommands.VerifyEval.class, JudgeCommands.RederiveAudit.class,
            PolicyCommand.class,
            SyncCommands.Clone.class, SyncCommands.RemoteCmd.class, SyncCommands.Push.class, SyncCommands.Pull.class,
            SyncCommands.Sync.class, McpCommand.class, HubCommands.Serve.class, HubCommands.Token.class})
public final class Main implements Root {
    public static final int OK = 0;
    public static final int INTERNAL = 1;
    public static final int USAGE = 2;
    public static final int AUDIT_VIOLATIONS = 3;
    public static final int NOT_FOUND = 4;
    public static final int REJECTED = 5;
    public static final int NO_STORE = 6;
    public static final int CONFLICT = 7;
    public static final int JUDGE_UNAVAILABLE = 8;

    @Mixin
    GlobalOptions global;

    /** Where {@code --body-file -} reads from. */
    final InputStream stdin;

    private Main(InputStream stdin) {
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

    public static void main(String[] args) {
        logToStandardError(logLevels(jsonAmong(args), System.console() != null));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(args, System.in, out, err));
    }

    /**
     * The levels of SLF4J's simple binding (the CLI jar's) for one run: without {@code --json} the
     * library's notices ({@code dev.palimpsest}, e.g. "building the claims index") at info and every
     * other logger (JGit, the MCP SDK) at warn, DJL (the embedder's tokenizer, which warns that it found
     * no GPU) and JGit's pack list (a retired pack taken for corrupt) at error; with {@code --json} nothing, since standard error is
     * then kept clean. Catch-up progress ({@code dev.palimpsest.progress}) shows only on a terminal.
     */
    static Map<String, String> logLevels(boolean json, boolean terminal) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("defaultLogLevel", json ? "off" : "warn");
        m.put("log.dev.palimpsest", json ? "off" : "info");
        m.put("log.dev.palimpsest.progress", terminal ? "info" : "off");
        // the tokenizer library of the bundled embedder warns on every machine without a GPU driver
        m.put("log.ai.djl", json ? "off" : "error");
        // JGit 7.5 calls a pack corrupt, at warn with its stack trace, when a compaction retired it while a
        // second thread of this process still held the pack list that named it; it then reads the list again
        // and goes on (JGit 7.8 says "pack was deleted", at debug). A pack that cannot be read fails the read.
        m.put("log.org.eclipse.jgit.internal.storage.file.PackDirectory", json ? "off" : "error");
        return m;
    }

    /**
     * Sets SLF4J's simple binding to {@code levels}, on standard error, one line each
     * ({@code WARN StdioTransport - ...}); a {@code -Dorg.slf4j.simpleLogger.*} option given to the JVM
     * wins. Takes effect when the first logger is made, so only once per process.
     */
    static void logToStandardError(Map<String, String> levels) {
        Map<String, String> all = new java.util.LinkedHashMap<>(levels);
        all.putAll(Map.of("logFile", "System.err", "showThreadName", "false", "showShortLogName", "true"));
        all.forEach((key, value) -> {
            if (System.getProperty("org.slf4j.simpleLogger." + key) == null) {
                System.setProperty("org.slf4j.simpleLogger." + key, value);
            }
        });
    }

    /** {@code --json} is among the arguments, before any {@code --}. */
    static boolean jsonAmong(String[] args) {
        for (String a : args) {
            if ("--".equals(a)) {
                return false;
            }
            if ("--json".equals(a)) {
                return true;
            }
        }
        return false;
    }

    /** Runs one command line and returns its exit code; standard input is this process's. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, System.in, out, err);
    }

    /** Runs one command line, reading {@code --body-file -} from {@code in}, and returns its exit code. */
    public static int run(String[] args, InputStream in, PrintWriter out, PrintWriter err) {
        CommandLine cl = McpRoot.serves(args) ? McpRoot.commandLine(in) : commandLine(in);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            Failure f = Failure.of(ex);
            f.print(line.getOut(), line.getErr(), jsonRequested(cl, args));
            return f.exit();
        });
        cl.setParameterExceptionHandler((ex, given) -> usage(unknownOptionFirst(ex), jsonRequested(cl, given)));
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The command tree, configured: every subcommand has --help and --version; no @file expansion. */
    static CommandLine commandLine(InputStream in) {
        CommandLine cl = new CommandLine(new Main(in));
        cl.setExpandAtFiles(false);
        configure(cl);
        HelpGroups.install(cl);
        return cl;
    }

    /** picocli expands at the top command only and does not pass this setting down; set it everywhere anyway. */
    static void configure(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.setExpandAtFiles(false);
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                sub.getCommandSpec().mixinStandardHelpOptions(true);
            }
            configure(sub);
        }
    }

    private static int usage(ParameterException ex, boolean json) {
        CommandLine line = ex.getCommandLine();
        if (json) {
            Failure.of(ex).print(line.getOut(), line.getErr(), true);
            return USAGE;
        }
        PrintWriter err = line.getErr();
        err.println(Render.safe("error: " + ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("See '" + line.getCommandSpec().qualifiedName() + " --help'.");
        return USAGE;
    }

    /**
     * picocli reports a missing required option before an unknown one; a typo ({@code --actr}) is
     * both, and the unknown option is the one to name.
     */
    private static ParameterException unknownOptionFirst(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException) {
            return ex;
        }
        for (CommandLine line = ex.getCommandLine(); line != null; line = line.getParent()) {
            List<String> unknown = line.getUnmatchedArguments().stream().filter(a -> a.startsWith("-")).toList();
            if (!unknown.isEmpty()) {
                return new UnmatchedArgumentException(line, unknown);
            }
        }
        return ex;
    }

    /** {@code --json} was given: parsed, or (when parsing failed) present among the arguments. */
    private static boolean jsonRequested(CommandLine cl, String[] args) {
        Root main = cl.getCommand();
        return main.global() != null && main.global().json || jsonAmong(args);
    }

    /** A usage problem found after parsing (a missing required global option). */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** The store path holds no store (exit 6). */
    static final class NoStoreException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoStoreException(String message) {
            super(message);
        }
    }
}
