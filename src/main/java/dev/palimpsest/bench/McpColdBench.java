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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The cold start of {@code palimpsest mcp} as a user sees it: over {@code samples} fresh server
 * processes on one store of {@code facts} claims (built once, then opened by one untimed server so
 * its derived files are saved, as on a store in use), the time from spawning the process to the
 * answer of {@code initialize}, of a first {@code show}, and of a first {@code search} (free text and
 * an entity) right after it, each measured with the MCP SDK's client over stdio. Not thread-safe.
 */
public final class McpColdBench {
    /** Targets of issue 31: the first tool call within 1 s of the spawn, the first search within 200 ms more. */
    public static final double TARGET_FIRST_CALL_MILLIS = 1000;
    public static final double TARGET_SEARCH_AFTER_MILLIS = 200;

    /**
     * Results, from the spawn of the process: {@code initialize} answered, the first {@code show}
     * answered, the first {@code search} answered, and the search alone (its answer minus the show's);
     * and the CPU time the server process had used when its first search was answered (every thread:
     * less sensitive than wall time to what else the machine runs).
     */
    public record Result(int facts, int commits, Stats initialize, Stats firstCall, Stats firstSearch,
            Stats searchAfterCall, Stats serverCpu, double loadAverage, List<String> server) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private static final int ENTITIES = 200;
    private static final int BATCH = 10;
    private final Path workDir;
    private final PrintWriter log;

    public McpColdBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    /**
     * Builds the store (or reuses the one kept in the scratch folder for this size) and times
     * {@code samples} fresh servers started by {@code server} (a command line before {@code mcp}).
     * With a {@code cdsArchive}, one untimed server first writes a class data sharing archive there
     * ({@code -XX:ArchiveClassesAtExit}) and every timed server starts with it ({@code
     * -XX:SharedArchiveFile}).
     */
    public Result run(int facts, int samples, List<String> server, Optional<Path> cdsArchive)
            throws IOException, PalimpsestException {
        Path dir = workDir.resolve("bench-mcp-cold-" + facts);
        Path home = dir.resolve("home");
        Path gitDir = dir.resolve("store.git");
        Path done = dir.resolve("built");
        int commits;
        if (Files.exists(done)) {
            commits = Integer.parseInt(Files.readString(done).trim());
            log.printf("bench mcp cold: reusing %,d facts in %,d commits in %s%n", facts, commits, dir);
        } else {
            commits = build(dir, home, gitDir, facts);
            Files.writeString(done, commits + "\n");
        }
        sample(server, gitDir, home, 0); // saves whatever derived file the build left behind, like a store in use
        if (cdsArchive.isPresent()) {
            Path jsa = cdsArchive.get().toAbsolutePath();
            Files.deleteIfExists(jsa);
            sample(withJvmOptions(server, List.of("-XX:ArchiveClassesAtExit=" + jsa)), gitDir, home, 0);
            if (!Files.isRegularFile(jsa)) {
                throw new IOException("the server wrote no class data sharing archive at " + jsa);
            }
            log.printf("bench mcp cold: wrote the class data sharing archive %s (%,d bytes)%n", jsa, Files.size(jsa));
            server = withJvmOptions(server, List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off",
                    "-Xlog:cds+dynamic=off"));
        }
        log.println("bench mcp cold: server " + String.join(" ", server) + " mcp; " + samples + " fresh processes");
        log.flush();
        long[] init = new long[samples];
        long[] call = new long[samples];
        long[] search = new long[samples];
        long[] after = new long[samples];
        long[] cpu = new long[samples];
        for (int i = 0; i < samples; i++) {
            long[] t = sample(server, gitDir, home, i + 1);
            init[i] = t[0];
            call[i] = t[1];
            search[i] = t[2];
            after[i] = t[2] - t[1];
            cpu[i] = t[3];
            log.printf("  process %d: initialize %.0f ms, first show %.0f ms, first search %.0f ms; server CPU %.0f ms%n",
                    i + 1, t[0] / 1e6, t[1] / 1e6, t[2] / 1e6, t[3] / 1e6);
            log.flush();
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Result r = new Result(facts, commits, Stats.of(init), Stats.of(call), Stats.of(search), Stats.of(after), Stats.of(cpu), load,
                server);
        log.println("  from spawn: initialize answered " + r.initialize());
        log.println("  from spawn: first show answered " + r.firstCall() + " (target p50 <= "
                + (int) TARGET_FIRST_CALL_MILLIS + " ms)");
        log.println("  from spawn: first search answered " + r.firstSearch());
        log.println("  first search after the first show " + r.searchAfterCall() + " (target p50 <= "
                + (int) TARGET_SEARCH_AFTER_MILLIS + " ms)");
        log.println("  server CPU (all threads) when the first search was answered " + r.serverCpu());
        log.printf("  load average %.1f on %d cores%n", load, Runtime.getRuntime().availableProcessors());
        log.flush();
        return r;
    }

    private static List<String> withJvmOptions(List<String> server, List<String> options) {
        List<String> c = new ArrayList<>(server);
        c.addAll(1, options);
        return List.copyOf(c);
    }

    private int build(Path dir, Path home, Path gitDir, int facts) throws IOException, PalimpsestException {
        long t0 = System.nanoTime();
        Files.createDirectories(dir);
        Random rnd = new Random(31);
        int[] next = {0};
        boolean[] gone = new boolean[facts + 1];
        int commits = 1;
        try (Store store = Store.initializer(gitDir).home(new KeyHome(home)).actor(ACTOR)
                .options(StoreOptions.defaults().withFsync(false)).create()) {
            Transaction first = store.begin(ACTOR);
            first.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
            first.commit();
            commits++;
            while (next[0] < facts) {
                SearchBench.write(store, rnd, Math.min(BATCH, facts - next[0]), next, gone, ENTITIES, facts);
                commits++;
            }
        }
        log.printf("bench mcp cold: built %,d claims about %d entities in %,d commits in %.1f s%n", facts, ENTITIES,
                commits, (System.nanoTime() - t0) / 1e9);
        return commits;
    }

    /**
     * Spawns one server and returns the nanoseconds from the spawn to initialize, show and search
     * answered, and the server's CPU time then.
     */
    private static long[] sample(List<String> server, Path gitDir, Path home, int i) {
        List<String> args = new ArrayList<>(server.subList(1, server.size()));
        args.addAll(List.of("mcp", "--store", gitDir.toString(), "--home", home.toString(), "--actor", ACTOR.value()));
        ServerParameters params = ServerParameters.builder(server.get(0)).args(args).build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build();
        Random rnd = new Random(i);
        String entity = SearchBench.entity(rnd.nextInt(ENTITIES));
        String text = SearchBench.word(rnd.nextInt(5000)) + " " + SearchBench.word(rnd.nextInt(5000));
        try {
            long t0 = System.nanoTime();
            client.initialize();
            long init = System.nanoTime() - t0;
            check(client.callTool(new McpSchema.CallToolRequest("show", Map.of("id", "docs"))), "show");
            long show = System.nanoTime() - t0;
            check(client.callTool(new McpSchema.CallToolRequest("search", Map.of("query", text, "entity",
                    List.of(entity)))), "search");
            long search = System.nanoTime() - t0;
            long cpu = ProcessHandle.current().children().mapToLong(p -> p.info().totalCpuDuration()
                    .map(Duration::toNanos).orElse(0L)).sum();
            return new long[] {init, show, search, cpu};
        } finally {
            client.closeGracefully();
        }
    }

    private static void check(McpSchema.CallToolResult r, String tool) {
        if (Boolean.TRUE.equals(r.isError())) {
            throw new IllegalStateException(tool + " failed: " + r.content());
        }
    }
}
