package dev.palimpsest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.StoreOptions;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Round trips through {@code palimpsest mcp} over stdio, measured with the MCP SDK's own client: a
 * {@code show} of one fact and a one-fact {@code assert} (a signed commit, fsync on as the server
 * runs by default, and again with {@code --no-fsync} as {@code bench commit} measures), after a warm-up; beside the cost of the same two operations as one CLI process each, the
 * way an agent without MCP has to call the store. The server is this program's jar ({@code java -jar})
 * or, when run from classes, its class path.
 */
public final class McpBench {
    /** Results: round-trip percentiles, the CLI's per-call wall time, and the load average while measuring. */
    public record Result(Stats show, Stats assertOneFact, Stats assertNoFsync, Stats apiShow, Stats apiAssert,
            Stats apiAssertNoFsync, Stats cliShow, Stats cliAssert,
            double showCpuMillis, double assertCpuMillis, double assertNoFsyncCpuMillis, double loadAverage,
            String server) {}

    /**
     * The size of the {@code tools/list} answer an agent's client loads into its context, in bytes of
     * JSON as the SDK client re-serialises what it received, and the number of tools, for the default
     * tool set ({@code mcp}) and for {@code mcp --tools all}.
     */
    public record ToolsList(int coreBytes, int coreTools, int allBytes, int allTools) {}

    /** Round-trip times, and the CPU both processes (client and server) spent per call, in milliseconds. */
    private record Timed(Stats stats, double cpuMillis) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path workDir;
    private final PrintWriter log;

    public McpBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /** Runs the round trips with servers (and CLI processes) started by {@link #serverCommand()}. */
    public Result run(int samples, int warmup, int cliSamples) throws IOException, PalimpsestException {
        return run(samples, warmup, cliSamples, serverCommand());
    }

    /** Runs the round trips with servers (and CLI processes) started by {@code server}, a command line before {@code mcp}. */
    public Result run(int samples, int warmup, int cliSamples, List<String> server)
            throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir, "bench-mcp-");
        Path home = dir.resolve("home");
        Path gitDir = dir.resolve("store.git");
        try (Store store = Store.initializer(gitDir).home(new KeyHome(home)).actor(ACTOR)
                .options(StoreOptions.defaults()).create()) {
            Transaction tx = store.begin(ACTOR);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.")
                    .id(FactId.of("pmid-1")));
            tx.commit();
        }
        Stats apiShow;
        Stats apiAssert;
        Stats apiAssertNoFsync;
        try (Store store = Store.open(gitDir, new KeyHome(home), StoreOptions.defaults())) {
            apiShow = api(warmup, samples, i -> store.read(FactId.of("pmid-1"), store.head()));
            apiAssert = api(warmup, samples, i -> assertOne(store, "api fact " + i));
        }
        try (Store store = Store.open(gitDir, new KeyHome(home), StoreOptions.defaults().withFsync(false))) {
            apiAssertNoFsync = api(warmup, samples, i -> assertOne(store, "api unsynced fact " + i));
        }
        log.println("  in-process API, same store: read " + apiShow + "; one-fact commit " + apiAssert
                + " (fsync on), " + apiAssertNoFsync + " (fsync off)");
        log.println("bench mcp: server " + String.join(" ", server) + "; " + warmup + " warm-up calls, " + samples
                + " samples each");
        Timed show;
        Timed assertOne;
        McpSyncClient client = connect(server, gitDir, home, false);
        try {
            show = time(client, warmup, samples, i -> Map.of("id", "pmid-1"), "show");
            log.printf("  show     round trip %s; CPU %.3f ms per call (client + server)%n", show.stats(),
                    show.cpuMillis());
            assertOne = time(client, warmup, samples, i -> Map.of("body", "fact number " + i, "refs", List.of("pmid-1")),
                    "assert");
            log.printf("  assert   round trip %s; CPU %.3f ms per call (one signed commit each, fsync on)%n",
                    assertOne.stats(), assertOne.cpuMillis());
        } finally {
            client.closeGracefully();
        }
        Timed assertNoFsync;
        client = connect(server, gitDir, home, true);
        try {
            assertNoFsync = time(client, warmup, samples, i -> Map.of("body", "unsynced fact " + i, "refs",
                    List.of("pmid-1")), "assert");
            log.printf("  assert   round trip %s; CPU %.3f ms per call (mcp --no-fsync, as bench commit)%n",
                    assertNoFsync.stats(), assertNoFsync.cpuMillis());
        } finally {
            client.closeGracefully();
        }
        Stats cliShow = cli(server, cliSamples, i -> List.of("show", "pmid-1", "--store", gitDir.toString()));
        log.println("  CLI show   per process " + cliShow);
        Stats cliAssert = cli(server, cliSamples, i -> List.of("assert", "--store", gitDir.toString(), "--home",
                home.toString(), "--actor", ACTOR.value(), "--body", "cli fact " + i));
        log.println("  CLI assert per process " + cliAssert);
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        log.printf("  load average %.1f on %d cores%n", load, Runtime.getRuntime().availableProcessors());
        log.flush();
        return new Result(show.stats(), assertOne.stats(), assertNoFsync.stats(), apiShow, apiAssert, apiAssertNoFsync,
                cliShow, cliAssert, show.cpuMillis(),
                assertOne.cpuMillis(), assertNoFsync.cpuMillis(), load, String.join(" ", server));
    }

    /** Lists the tools of a server started as {@code mcp} and of one started as {@code mcp --tools all}. */
    public ToolsList toolsList() throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir, "bench-mcp-tools-");
        Path home = dir.resolve("home");
        Path gitDir = dir.resolve("store.git");
        Store.initializer(gitDir).home(new KeyHome(home)).actor(ACTOR).options(StoreOptions.defaults()).create().close();
        List<String> server = serverCommand();
        JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        int[] bytes = new int[2];
        int[] tools = new int[2];
        for (int i = 0; i < 2; i++) {
            McpSyncClient client = connect(server, gitDir, home, false, i == 0 ? List.of() : List.of("--tools", "all"));
            try {
                McpSchema.ListToolsResult listed = client.listTools();
                bytes[i] = json.writeValueAsBytes(listed).length;
                tools[i] = listed.tools().size();
            } finally {
                client.closeGracefully();
            }
        }
        log.printf("  tools/list %,d bytes for the %d core tools (mcp), %,d bytes for all %d (mcp --tools all)%n",
                bytes[0], tools[0], bytes[1], tools[1]);
        log.flush();
        return new ToolsList(bytes[0], tools[0], bytes[1], tools[1]);
    }

    private static McpSyncClient connect(List<String> server, Path gitDir, Path home, boolean noFsync) {
        return connect(server, gitDir, home, noFsync, List.of());
    }

    private static McpSyncClient connect(List<String> server, Path gitDir, Path home, boolean noFsync,
            List<String> options) {
        List<String> args = new ArrayList<>(server.subList(1, server.size()));
        args.addAll(List.of("mcp", "--store", gitDir.toString(), "--home", home.toString(), "--actor", ACTOR.value(),
                "--run", "bench-run"));
        if (noFsync) {
            args.add("--no-fsync");
        }
        args.addAll(options);
        ServerParameters params = ServerParameters.builder(server.get(0)).args(args).build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    private interface Call {
        void run(int i) throws PalimpsestException;
    }

    private static void assertOne(Store store, String body) throws PalimpsestException {
        Transaction tx = store.begin(ACTOR);
        tx.assertFact(FactSpec.of(Kind.CLAIM, body).refs(dev.palimpsest.model.RefSpec.cites(FactId.of("pmid-1"))));
        tx.commit();
    }

    private static Stats api(int warmup, int samples, Call call) throws PalimpsestException {
        long[] nanos = new long[samples];
        for (int i = 0; i < warmup + samples; i++) {
            long t0 = System.nanoTime();
            call.run(i);
            if (i >= warmup) {
                nanos[i - warmup] = System.nanoTime() - t0;
            }
        }
        return Stats.of(nanos);
    }

    private interface Arguments<T> {
        T of(int i);
    }

    private static Timed time(McpSyncClient client, int warmup, int samples, Arguments<Map<String, Object>> args,
            String tool) {
        long[] nanos = new long[samples];
        long cpu0 = 0;
        for (int i = 0; i < warmup + samples; i++) {
            if (i == warmup) {
                cpu0 = cpuNanos();
            }
            McpSchema.CallToolRequest req = new McpSchema.CallToolRequest(tool, args.of(i));
            long t0 = System.nanoTime();
            McpSchema.CallToolResult r = client.callTool(req);
            long t = System.nanoTime() - t0;
            if (Boolean.TRUE.equals(r.isError())) {
                throw new IllegalStateException(tool + " failed: " + r.content());
            }
            if (i >= warmup) {
                nanos[i - warmup] = t;
            }
        }
        return new Timed(Stats.of(nanos), (cpuNanos() - cpu0) / 1e6 / samples);
    }

    /** CPU time of this JVM and of its children (the server) so far. */
    private static long cpuNanos() {
        long self = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long children = ProcessHandle.current().children()
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
        return self + children;
    }

    private static Stats cli(List<String> server, int samples, Arguments<List<String>> args) throws IOException {
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            List<String> cmd = new ArrayList<>(server);
            cmd.addAll(args.of(i));
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            try {
                if (p.waitFor() != 0) {
                    throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            nanos[i] = System.nanoTime() - t0;
        }
        return Stats.of(nanos);
    }

    /**
     * {@code java -jar <this jar>}, or {@code java -cp <class path> dev.palimpsest.cli.Main} when not run from a jar,
     * with {@code jvmOptions} after {@code java}.
     */
    public static List<String> serverCommand(List<String> jvmOptions) {
        List<String> c = new ArrayList<>(serverCommand());
        c.addAll(1, jvmOptions);
        return List.copyOf(c);
    }

    /** {@code java -jar <this jar>}, or {@code java -cp <class path> dev.palimpsest.cli.Main} when not run from a jar. */
    static List<String> serverCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            Path self = Path.of(McpBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self) && self.toString().endsWith(".jar")) {
                return List.of(java, "-jar", self.toString());
            }
        } catch (URISyntaxException | SecurityException e) {
            // fall back to the class path
        }
        return List.of(java, "-cp", System.getProperty("java.class.path"), "dev.palimpsest.cli.Main");
    }
}
