package dev.palimpsest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.StoreOptions;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The many-processes torture run: on one store ("origin") several writer processes
 * (the CLI package's {@code TortureWorker}: asserts, sealed notes, claims, supersessions of shared targets,
 * retractions, forgets, expiries, searches, briefs), MCP servers each with several calls in flight,
 * and a replica ("replica", a clone) that writes and syncs with origin; writer processes are
 * SIGKILLed and restarted at seeded moments, and halfway sealed notes of origin and of the replica
 * are forgotten on origin. Afterwards it checks the store's promises: every acknowledged
 * write is in history; no fact was superseded twice; no secret of a forgotten fact was answered
 * after its forget was acknowledged, and none is in any byte under either store (git objects
 * after {@code git gc}, indexes, vault, temporary files) nor is its key in either vault; the
 * replica converged with origin; both audit clean and pass {@code git fsck --strict}.
 */
public final class TortureBench {
    /** A secret token: "zq" and ten letters, written only into sealed notes. */
    public static final Pattern TOKEN = Pattern.compile("zq[a-z]{10}");
    /** The main class of a worker process, in the CLI package (it runs CLI command lines). */
    static final String WORKER = "dev.palimpsest.cli.TortureWorker";

    /** Runs one CLI command line in this process and returns its exit code. */
    @FunctionalInterface
    public interface CommandLine {
        int run(String[] args, java.io.InputStream in, PrintWriter out, PrintWriter err);
    }
    private static final String ACTOR = "alice";

    /** What to run. */
    public record Options(Path dir, long seed, int seconds, int writers, int mcpServers, int inFlight, int targets,
            boolean kills) {
        public Options {
            if (seconds < 1 || writers < 1 || mcpServers < 0 || inFlight < 1 || targets < 1) {
                throw new IllegalArgumentException("seconds, writers, in-flight and targets must be at least 1, mcp at least 0");
            }
        }
    }

    /** What a run did and found; {@code violations} empty when every promise held. */
    public record Report(long seed, double seconds, long operations, double operationsPerSecond,
            Map<String, Long> byKind, int kills, Map<String, Long> checked, List<String> violations) {}

    private final Options o;
    private final PrintWriter progress;
    private final CommandLine cli;
    private final Path origin;
    private final Path replica;
    private final Path home;
    private final Random rnd;
    private final Map<String, AtomicLong> kinds = new ConcurrentHashMap<>();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final List<String[]> supers = Collections.synchronizedList(new ArrayList<>());
    private final List<String[]> seen = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String[]> parentForgets = new ConcurrentHashMap<>();
    private final List<String[]> originNotes = new ArrayList<>();

    public TortureBench(Options o, PrintWriter progress, CommandLine cli) {
        this.o = o;
        this.progress = progress;
        this.cli = cli;
        this.origin = o.dir().resolve("origin.git");
        this.replica = o.dir().resolve("replica.git");
        this.home = o.dir().resolve("home");
        this.rnd = new Random(o.seed());
    }

    /** A fresh secret token. */
    public static String token(Random r) {
        StringBuilder b = new StringBuilder("zq");
        for (int i = 0; i < 10; i++) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }

    public Report run() throws Exception {
        Files.createDirectories(o.dir());
        cli(origin, "init", "--actor", ACTOR);
        cli(origin, "assert", "--actor", ACTOR, "--kind", "source", "--id", "src", "--body",
                "The torture source: every claim of the run cites it.");
        for (int t = 0; t < o.targets(); t++) {
            cli(origin, "assert", "--actor", ACTOR, "--id", "t-" + t, "--body", "Target t-" + t + " as first stated.");
        }
        for (int i = 0; i < 2; i++) { // sealed notes of origin's own, forgotten halfway whatever the workers did
            String id = "origin-note-" + i;
            String token = token(rnd);
            cli(origin, "assert", "--actor", ACTOR, "--kind", "note", "--id", id, "--sensitive", "--body",
                    "Private note " + token + " about entity " + i);
            originNotes.add(new String[] {id, token});
            acked.add(id);
        }
        if (cli.run(new String[] {"clone", origin.toString(), "--store", replica.toString(), "--home", home.toString()},
                new ByteArrayInputStream(new byte[0]), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())) != 0) {
            throw new IOException("cannot clone " + origin);
        }
        Path logs = Files.createDirectories(o.dir().resolve("logs"));
        long started = System.currentTimeMillis();
        long deadline = started + o.seconds() * 1000L;
        List<Process> writers = new ArrayList<>();
        int incarnation = 0;
        for (int i = 0; i < o.writers(); i++) {
            writers.add(worker("writer", origin, logs.resolve("w" + (incarnation++) + ".log"), deadline));
        }
        Process rep = worker("replica", replica, logs.resolve("replica.log"), deadline);
        List<McpDriver> drivers = new ArrayList<>();
        for (int i = 0; i < o.mcpServers(); i++) {
            drivers.add(new McpDriver(i, deadline));
        }
        drivers.forEach(McpDriver::start);
        int kills = 0;
        boolean forgotHalfway = false;
        while (System.currentTimeMillis() < deadline - 1500) {
            Thread.sleep(1500 + rnd.nextInt(1500));
            if (!forgotHalfway && System.currentTimeMillis() > started + o.seconds() * 500L) {
                forgotHalfway = true;
                forgetReplicaNotes(logs.resolve("replica.log"));
            }
            if (o.kills() && System.currentTimeMillis() < deadline - 1500) {
                int victim = rnd.nextInt(writers.size());
                writers.get(victim).destroyForcibly().waitFor();
                kills++;
                writers.set(victim, worker("writer", origin, logs.resolve("w" + (incarnation++) + ".log"), deadline));
            }
        }
        for (Process p : writers) {
            waitOrKill(p, deadline);
        }
        waitOrKill(rep, deadline);
        for (McpDriver d : drivers) {
            d.finish();
        }
        double seconds = (System.currentTimeMillis() - started) / 1000.0;
        progress.printf("torture: %.1f s of load; checking%n", seconds);
        progress.flush();
        Map<String, Long> checked = check(logs);
        long ops = kinds.values().stream().mapToLong(AtomicLong::get).sum();
        Map<String, Long> byKind = new TreeMap<>();
        kinds.forEach((k, v) -> byKind.put(k, v.get()));
        List<String> vs;
        synchronized (violations) {
            vs = List.copyOf(violations);
        }
        return new Report(o.seed(), seconds, ops, ops / seconds, byKind, kills, checked, vs);
    }

    private Process worker(String role, Path store, Path log, long deadline) throws IOException {
        List<String> cmd = new ArrayList<>(java());
        cmd.addAll(List.of(WORKER, role, store.toString(), home.toString(),
                Long.toString(rnd.nextLong()), log.toString(), Long.toString(deadline), Integer.toString(o.targets())));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void waitOrKill(Process p, long deadline) throws InterruptedException {
        long left = Math.max(1, deadline + 60_000 - System.currentTimeMillis());
        if (!p.waitFor(left, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor();
        }
    }

    /**
     * Forgets, on origin, its own sealed notes and sealed notes the replica wrote (those that
     * reached origin): the replica must destroy their keys.
     */
    private void forgetReplicaNotes(Path log) throws IOException {
        for (String[] n : originNotes) {
            if (run(origin, "forget", n[0], "--actor", ACTOR, "--reason", "torture erasure of an origin note") == 0) {
                parentForgets.put(n[0], new String[] {n[0], n[1], Long.toString(System.currentTimeMillis())});
            }
        }
        for (String line : lines(log)) {
            String[] f = line.split(" ");
            if (f[0].equals("sealed") && parentForgets.size() < 3 + originNotes.size()) {
                if (run(origin, "forget", f[1], "--actor", ACTOR, "--reason", "torture erasure of a replica's note") == 0) {
                    parentForgets.put(f[1], new String[] {f[1], f[2], Long.toString(System.currentTimeMillis())});
                }
            }
        }
    }

    /** One MCP server with {@code inFlight} threads calling it at once; it starts in the background. */
    private final class McpDriver {
        private final int n;
        private final long deadline;
        private final List<Long> seeds = new ArrayList<>();
        private volatile McpSyncClient client;
        private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        /** The server's last lines on stderr (an internal error logs its stack there). */
        private final java.util.ArrayDeque<String> said = new java.util.ArrayDeque<>();
        private final Thread starter;

        McpDriver(int n, long deadline) {
            this.n = n;
            this.deadline = deadline;
            for (int i = 0; i < o.inFlight(); i++) {
                seeds.add(rnd.nextLong());
            }
            this.starter = new Thread(this::connect, "torture-mcp-start-" + n);
        }

        void start() {
            starter.start();
        }

        private void connect() {
            List<String> cmd = new ArrayList<>(McpBench.serverCommand());
            List<String> args = new ArrayList<>(cmd.subList(1, cmd.size()));
            args.addAll(0, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
            args.addAll(List.of("mcp", "--store", origin.toString(), "--home", home.toString(), "--actor", ACTOR,
                    "--run", "mcp-" + n, "--no-fsync"));
            StdioClientTransport t = new StdioClientTransport(ServerParameters.builder(cmd.get(0)).args(args).build(),
                    new JacksonMcpJsonMapper(new ObjectMapper()));
            t.setStdErrorHandler(line -> {
                synchronized (said) {
                    said.addLast(line);
                    if (said.size() > 40) {
                        said.removeFirst();
                    }
                }
            });
            McpSyncClient c = McpClient.sync(t).requestTimeout(Duration.ofSeconds(120))
                    .initializationTimeout(Duration.ofSeconds(120)).build();
            try {
                c.initialize();
            } catch (RuntimeException e) {
                violations.add("MCP server " + n + " did not start: " + e);
                return;
            }
            client = c;
            for (int i = 0; i < seeds.size(); i++) {
                long seed = seeds.get(i);
                String prefix = "m" + n + "x" + i + "-";
                Thread th = new Thread(() -> drive(new Random(seed), prefix), "torture-mcp-" + n + "-" + i);
                threads.add(th);
                th.start();
            }
        }

        private void drive(Random r, String prefix) {
            int k = 0;
            while (System.currentTimeMillis() < deadline) {
                int pick = r.nextInt(100);
                long startedAt = System.currentTimeMillis();
                try {
                    McpSchema.CallToolResult res;
                    if (pick < 30) {
                        String id = prefix + "c" + (k++);
                        res = call("mcp-claim", "claim", Map.of("id", id, "subject", "entity " + r.nextInt(20), "predicate",
                                "p" + r.nextInt(4), "object", "value " + r.nextInt(1000), "sources", List.of("src")));
                        if (!Boolean.TRUE.equals(res.isError())) {
                            acked.add(id);
                        }
                    } else if (pick < 45) {
                        String target = "t-" + r.nextInt(o.targets());
                        String id = prefix + "s" + (k++);
                        res = call("mcp-supersede", "supersede", Map.of("old", target, "id", id, "body",
                                "An MCP correction of " + target));
                        if (!Boolean.TRUE.equals(res.isError())) {
                            acked.add(id);
                            supers.add(new String[] {target, id});
                        }
                    } else if (pick < 70) {
                        res = call("mcp-search", "search", Map.of("query", "private note entity " + r.nextInt(20), "limit", 20));
                    } else if (pick < 85) {
                        res = call("mcp-brief", "brief", Map.of("query", "entity " + r.nextInt(20), "max_tokens", 600));
                    } else {
                        res = call("mcp-dead-ends", "dead_ends", Map.of("subject", "entity " + r.nextInt(20)));
                    }
                    Matcher m = TOKEN.matcher(String.valueOf(res.content()) + res.structuredContent());
                    while (m.find()) {
                        seen.add(new String[] {m.group(), Long.toString(startedAt)});
                    }
                } catch (RuntimeException e) {
                    violations.add("MCP call failed: " + e);
                    return;
                }
            }
        }

        private McpSchema.CallToolResult call(String kind, String tool, Map<String, Object> args) {
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
            kinds.computeIfAbsent(kind + (Boolean.TRUE.equals(r.isError()) ? "-refused" : ""), x -> new AtomicLong())
                    .incrementAndGet();
            String said = String.valueOf(r.content());
            boolean read = tool.equals("search") || tool.equals("brief") || tool.equals("dead_ends");
            if (Boolean.TRUE.equals(r.isError()) && (read && !raced(said) || said.contains("\"exit\":1"))) {
                String log;
                synchronized (this.said) {
                    log = String.join("\n", this.said);
                }
                violations.add("MCP " + tool + " " + args + " failed: " + r.content() + "\n  the server's last log lines:\n"
                        + log);
            }
            return r;
        }

        void finish() throws InterruptedException {
            starter.join(180_000);
            for (Thread t : List.copyOf(threads)) {
                t.join(180_000);
                if (t.isAlive()) {
                    violations.add("an MCP call did not return within three minutes of the deadline (" + t.getName() + ")");
                }
            }
            if (client != null) {
                client.closeGracefully();
            }
        }
    }

    /**
     * True for a read of a commit that a push had just taken off main's first-parent chain (the
     * replica's merge commits put its own line first): an answer the claims questions document.
     */
    public static boolean raced(String error) {
        return error.contains("is not on main's history");
    }

    // ---- the checks ----

    private Map<String, Long> check(Path logs) throws Exception {
        Map<String, Long> checked = new LinkedHashMap<>();
        Map<String, String[]> forgotten = new HashMap<>(parentForgets);
        Map<String, String> tokenOf = new HashMap<>();
        List<String[]> expired = new ArrayList<>();
        List<String[]> replicaSeen = new ArrayList<>();
        List<long[]> syncs = new ArrayList<>();
        try (Stream<Path> all = Files.list(logs)) {
            for (Path log : all.sorted().toList()) {
                for (String line : lines(log)) {
                    String[] f = line.split(" ");
                    switch (f[0]) {
                        case "op" -> kinds.computeIfAbsent(f[1] + (f[2].equals("0") ? "" : "-refused"), x -> new AtomicLong())
                                .incrementAndGet();
                        case "ack" -> acked.add(f[1]);
                        case "sealed" -> tokenOf.put(f[1], f[2]);
                        case "super" -> supers.add(new String[] {f[1], f[2]});
                        case "forgot" -> forgotten.put(f[1], new String[] {f[1], f[2], f[3]});
                        case "seen" -> seen.add(new String[] {f[1], f[2]});
                        case "fail" -> violations.add("a " + f[1] + " exited " + f[2] + ": " + line);
                        case "expired" -> expired.add(new String[] {f[1], f[2]});
                        case "rseen" -> replicaSeen.add(new String[] {f[1], f[2]});
                        case "synced" -> syncs.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
                        default -> { }
                    }
                }
            }
        }
        // the replica converges: one last sync, after which both mains are one commit
        int sync = run(replica, "sync", "origin", "--actor", ACTOR);
        if (sync != 0) {
            violations.add("the final sync of the replica exited " + sync);
        }
        String originHead = head(origin);
        if (!originHead.equals(head(replica))) {
            violations.add("the replica did not converge: origin at " + originHead + ", replica at " + head(replica));
        }
        try (Store s = Store.open(origin, new KeyHome(home), StoreOptions.defaults().withFsync(false))) {
            CommitId at = s.head();
            for (String id : acked) {
                try {
                    if (s.history(FactId.of(id)).isEmpty()) {
                        violations.add("acknowledged write lost: " + id);
                    }
                } catch (NotFoundException e) {
                    violations.add("acknowledged write lost: " + id);
                }
            }
            checked.put("acknowledgedWrites", (long) acked.size());
            Map<String, Set<String>> byTarget = new HashMap<>();
            synchronized (supers) {
                for (String[] s2 : supers) {
                    byTarget.computeIfAbsent(s2[0], x -> new HashSet<>()).add(s2[1]);
                }
            }
            for (Map.Entry<String, Set<String>> e : byTarget.entrySet()) {
                if (e.getValue().size() > 1) {
                    violations.add(e.getKey() + " superseded twice: " + e.getValue());
                }
            }
            for (int t = 0; t < o.targets(); t++) {
                long live = s.inbound(FactId.of("t-" + t), at).stream()
                        .filter(r -> RefRole.SUPERSEDES.equals(r.role())).map(InboundRef::referrer).distinct().count();
                if (live > 1) {
                    violations.add("t-" + t + " has " + live + " live superseders at " + at.hex());
                }
            }
            checked.put("supersessions", (long) byTarget.size());
        }
        for (String[] e : expired) {
            if (tokenOf.containsKey(e[0])) {
                forgotten.putIfAbsent(e[0], new String[] {e[0], tokenOf.get(e[0]), e[1]});
            }
        }
        synchronized (seen) {
            for (String[] s2 : seen) {
                for (String[] f : forgotten.values()) {
                    if (f[1].equals(s2[0]) && Long.parseLong(s2[1]) > Long.parseLong(f[2])) {
                        violations.add("a read started " + (Long.parseLong(s2[1]) - Long.parseLong(f[2]))
                                + " ms after the forget of " + f[0] + " answered its secret");
                    }
                }
            }
        }
        // the replica learns of a forget on origin by a pull: by the end of the first sync that began after it
        for (String[] s2 : replicaSeen) {
            for (String[] f : forgotten.values()) {
                long forgot = Long.parseLong(f[2]);
                long arrived = syncs.stream().filter(x -> x[0] > forgot).mapToLong(x -> x[1]).min().orElse(Long.MAX_VALUE);
                if (f[1].equals(s2[0]) && Long.parseLong(s2[1]) > arrived) {
                    violations.add("a read on the replica started " + (Long.parseLong(s2[1]) - arrived)
                            + " ms after a sync brought the forget of " + f[0] + " and answered its secret");
                }
            }
        }
        checked.put("answersWithSecrets", (long) seen.size() + replicaSeen.size());
        checked.put("forgotten", (long) forgotten.size());
        for (Path store : List.of(origin, replica)) {
            for (String[] f : forgotten.values()) {
                run(store, "unlearn-check", f[0]); // settles what killed processes left; its answer is checked below
            }
            gitGc(store);
            Set<String> tokens = new HashSet<>();
            forgotten.values().forEach(f -> tokens.add(f[1]));
            for (String hit : bytesHolding(store, tokens)) {
                violations.add("a forgotten secret is still in " + hit);
            }
            for (String[] f : forgotten.values()) {
                Path key = store.resolve("palimpsest-vault").resolve(dev.palimpsest.internal.layout.StorePaths.shard(
                        FactId.of(f[0]))).resolve(f[0] + ".key");
                if (Files.exists(key)) {
                    violations.add("the key of forgotten " + f[0] + " is still in " + store.getFileName());
                }
            }
            try (Auditor a = Auditor.open(store)) {
                a.audit(AuditProgress.none()).violations().forEach(v -> violations.add("audit of " + store.getFileName()
                        + ": " + v));
            }
            fsck(store);
        }
        checked.put("storesAudited", 2L);
        return checked;
    }

    private static List<String> lines(Path log) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        String all = Files.readString(log, StandardCharsets.UTF_8);
        int end = all.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(all.substring(0, end).split("\n")); // a torn last line is dropped
    }

    /** Paths under {@code store} (and "git objects" for what git cat-file prints) whose bytes hold a token. */
    private List<String> bytesHolding(Path store, Set<String> tokens) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> all = Files.walk(store)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                for (String t : tokens) {
                    if (text.contains(t)) {
                        out.add(store.relativize(p) + " (" + t + ")");
                    }
                }
            }
        }
        String objects = git(store, "cat-file", "--batch-all-objects", "--batch");
        for (String t : tokens) {
            if (objects != null && objects.contains(t)) {
                out.add("git objects of " + store.getFileName() + " (" + t + ")");
            }
        }
        return out;
    }

    private void gitGc(Path store) {
        git(store, "gc", "--quiet");
    }

    private void fsck(Path store) {
        String out = git(store, "fsck", "--strict", "--no-dangling");
        if (out != null && out.startsWith("exit ")) {
            violations.add("git fsck --strict of " + store.getFileName() + ": " + out);
        }
    }

    /** What git printed, "exit N: ..." when it failed, or null when there is no git to run. */
    private static String git(Path store, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "--git-dir", store.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int code = p.waitFor();
            return code == 0 ? out : "exit " + code + ": " + out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private String head(Path store) throws IOException {
        try (Auditor a = Auditor.open(store)) {
            return a.resolve("main").hex();
        } catch (NotFoundException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private int run(Path store, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", store.toString(), "--home", home.toString()));
        return cli.run(all.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
    }

    private void cli(Path store, String... args) throws IOException {
        int code = run(store, args);
        if (code != 0) {
            throw new IOException(String.join(" ", args) + " exited " + code);
        }
    }

    /** {@code java -cp <this jar or class path>} and JVM flags for a small worker process. */
    private static List<String> java() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        try {
            Path self = Path.of(TortureBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self) && self.toString().endsWith(".jar")) {
                cp = self.toString();
            }
        } catch (URISyntaxException | SecurityException e) {
            // the class path it is
        }
        return List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-cp", cp);
    }
}
