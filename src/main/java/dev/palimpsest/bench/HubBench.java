package dev.palimpsest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.hub.HubConfig;
import dev.palimpsest.hub.HubServer;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.PushResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The hub under load: {@code serve} in process on a scratch store on a free loopback port, MCP
 * clients each writing N facts over Streamable HTTP (one session, {@code tools/call assert}) while
 * replicas cloned over HTTP loop write-locally, pull (merging), push for a set time (a push refused
 * because main moved is retried after a pull). Then every replica pulls once more and every
 * acknowledged write (an MCP call answered without error, a push accepted) must be live on the
 * hub's main and on every replica, every replica must be at the hub's main, and the hub's store
 * must audit clean. Reports p50/p99 per operation, pushes per second and retries.
 */
public final class HubBench {
    /** What to run: the scratch folder, MCP clients, writes per client, replicas and seconds of replica load. */
    public record Options(Path dir, int mcpClients, int writes, int replicas, int seconds) {}

    /**
     * The outcome: wall seconds of the load, acknowledged MCP writes and pushed facts, pushes
     * accepted and per second, pushes retried after a pull (main moved) and the hub's other refusals
     * by message, MCP calls answered with an error, p50/p99 per operation, the hub's final main, the
     * 1-minute load average before and after, and every violation (empty: all held).
     */
    public record Result(double seconds, int mcpClients, int replicas, long mcpAcknowledged, long pushedFacts,
            long pushes, long mergedPushes, double pushesPerSecond, long pushRetries, Map<String, Long> pushRefusals,
            long mcpErrors,
            Map<String, Stats> latency, String hubHead, double loadBefore, double loadAfter, List<String> violations) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StoreOptions OPTIONS = StoreOptions.defaults().withFsync(false);
    private static final ActorName OWNER = ActorName.of("bench");
    private static final int MAX_PUSH_ATTEMPTS = 1000;

    private final Options options;
    private final PrintWriter log;
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, List<Long>> samples = new TreeMap<>();
    private final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Long> refusals = Collections.synchronizedMap(new TreeMap<>());
    private long pushes;
    private long pushRetries;
    private long mergedPushes;
    private long pushedFacts;
    private long mcpAcknowledged;
    private long mcpErrors;

    public HubBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    public Result run() throws IOException, PalimpsestException, InterruptedException {
        Path dir = options.dir().toAbsolutePath();
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path hubDir = dir.resolve("hub.git");
        double loadBefore = PullBench.loadAverage();
        Tokens tokens = new Tokens(home.dir());
        Map<ActorName, String> secrets = new LinkedHashMap<>();
        List<ActorName> mcpActors = new ArrayList<>();
        List<ActorName> replicaActors = new ArrayList<>();
        for (int i = 1; i <= options.mcpClients(); i++) {
            mcpActors.add(ActorName.of("mcp-" + i));
        }
        for (int i = 1; i <= options.replicas(); i++) {
            replicaActors.add(ActorName.of("replica-" + i));
        }
        Store store = Store.initializer(hubDir).home(home).actor(OWNER).options(OPTIONS).create();
        HubServer hub = null;
        double seconds;
        String hubHead;
        List<Path> replicaDirs = new ArrayList<>();
        try {
            Transaction keys = store.begin(OWNER);
            List<ActorName> all = new ArrayList<>(mcpActors);
            all.addAll(replicaActors);
            for (ActorName a : all) {
                keys.addKey(a, home.generateKey(a), KeyRole.AGENT);
                secrets.put(a, tokens.add(a, false, Optional.empty(), Instant.now()).secret());
            }
            keys.commit();
            hub = HubServer.start(store, HubConfig.loopback(0, home), new PrintStream(OutputStream.nullOutputStream(),
                    true, StandardCharsets.UTF_8));
            String base = hub.url();
            log.printf("  hub at %s; %d MCP clients x %d writes, %d replicas for %d s%n", base, options.mcpClients(),
                    options.writes(), options.replicas(), options.seconds());
            log.flush();
            for (int i = 0; i < replicaActors.size(); i++) {
                Path r = dir.resolve("replica-" + (i + 1) + ".git");
                String url = "http://x:" + secrets.get(replicaActors.get(i)) + "@127.0.0.1:" + hub.port() + "/git";
                PullResult c = Replication.cloneStore(url, r, OPTIONS, TransferProgress.none());
                if (c instanceof PullResult.Refused) {
                    throw new IllegalStateException("the clone of the hub into " + r + " was refused");
                }
                replicaDirs.add(r);
            }
            long t0 = System.nanoTime();
            long deadline = t0 + options.seconds() * 1_000_000_000L;
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < mcpActors.size(); i++) {
                int n = i;
                threads.add(start("hub-bench-mcp-" + (i + 1), () -> mcpClient(base, secrets.get(mcpActors.get(n)), n + 1)));
            }
            for (int i = 0; i < replicaActors.size(); i++) {
                int n = i;
                threads.add(start("hub-bench-replica-" + (i + 1), () -> replica(replicaDirs.get(n), home,
                        replicaActors.get(n), n + 1, deadline)));
            }
            for (Thread t : threads) {
                while (t.isAlive()) {
                    t.join(15_000);
                    if (t.isAlive()) {
                        synchronized (this) {
                            log.printf("  %.0f s: %d MCP writes acknowledged, %d pushes, %d push retries%n",
                                    (System.nanoTime() - t0) / 1e9, mcpAcknowledged, pushes, pushRetries);
                        }
                        log.flush();
                    }
                }
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            // every replica pulls once more and must then be at the hub's main, holding every acknowledged write
            hubHead = store.head().hex();
            for (int i = 0; i < replicaDirs.size(); i++) {
                try (Store r = Store.open(replicaDirs.get(i), home, OPTIONS)) {
                    r.replication().pullAs("origin", replicaActors.get(i), TransferProgress.none());
                    if (!r.head().hex().equals(hubHead)) {
                        violations.add("replica-" + (i + 1) + " did not converge: at " + r.head().hex() + ", hub at "
                                + hubHead);
                    }
                    missing("replica-" + (i + 1), r);
                }
            }
            missing("the hub", store);
        } finally {
            if (hub != null && !hub.stop()) {
                violations.add("the hub did not stop cleanly");
            }
            store.close();
        }
        try (Auditor a = Auditor.open(hubDir)) {
            a.audit(AuditProgress.none()).violations().forEach(v -> violations.add("audit of the hub: " + v));
        }
        Map<String, Stats> latency = new LinkedHashMap<>();
        synchronized (samples) {
            samples.forEach((k, v) -> latency.put(k, Stats.of(v.stream().mapToLong(Long::longValue).toArray())));
        }
        return new Result(seconds, options.mcpClients(), options.replicas(), mcpAcknowledged, pushedFacts, pushes,
                mergedPushes, pushes / seconds, pushRetries, new TreeMap<>(refusals), mcpErrors, latency, hubHead, loadBefore,
                PullBench.loadAverage(), List.copyOf(violations));
    }

    private void missing(String where, Store s) {
        List<String> ids;
        synchronized (acknowledged) {
            ids = List.copyOf(acknowledged);
        }
        int lost = 0;
        for (String id : ids) {
            if (s.find(FactId.of(id)).isEmpty()) {
                if (++lost <= 10) {
                    violations.add("acknowledged " + id + " is not live on " + where);
                }
            }
        }
        if (lost > 10) {
            violations.add((lost - 10) + " more acknowledged facts are not live on " + where);
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    private Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception | AssertionError e) {
                violations.add(name + " failed: " + e);
            }
        }, name);
        t.start();
        return t;
    }

    private void sample(String kind, long nanos) {
        synchronized (samples) {
            samples.computeIfAbsent(kind, k -> new ArrayList<>()).add(nanos);
        }
    }

    /** One MCP client: a session, then {@code writes} asserts, each acknowledged id recorded. */
    private void mcpClient(String base, String token, int n) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        URI mcp = URI.create(base + "/mcp");
        HttpResponse<String> init = http.send(post(mcp, token, null, null, rpc(0, "initialize", Map.of(
                "protocolVersion", "2025-06-18", "capabilities", Map.of(), "clientInfo", Map.of("name", "hub-bench",
                        "version", "1")))), HttpResponse.BodyHandlers.ofString());
        if (init.statusCode() != 200) {
            throw new IllegalStateException("initialize answered " + init.statusCode() + ": " + init.body());
        }
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        String version = message(init).get("result").get("protocolVersion").asText();
        HttpResponse<String> note = http.send(post(mcp, token, session, version, JSON.writeValueAsString(Map.of(
                "jsonrpc", "2.0", "method", "notifications/initialized"))), HttpResponse.BodyHandlers.ofString());
        if (note.statusCode() != 202) {
            throw new IllegalStateException("notifications/initialized answered " + note.statusCode());
        }
        for (int i = 1; i <= options.writes(); i++) {
            String id = "mcp-" + n + "-" + i;
            String body = rpc(i, "tools/call", Map.of("name", "assert", "arguments", Map.of("id", id, "kind", "source",
                    "body", "Written over MCP by client " + n + ", write " + i + ".")));
            long t = System.nanoTime();
            HttpResponse<String> r = http.send(post(mcp, token, session, version, body), HttpResponse.BodyHandlers.ofString());
            long took = System.nanoTime() - t;
            JsonNode result = r.statusCode() == 200 ? message(r).get("result") : null;
            if (result == null || result.path("isError").asBoolean(false)) {
                synchronized (this) {
                    mcpErrors++;
                }
                refused("mcp: " + (result == null ? "HTTP " + r.statusCode() : result.toString()));
                continue;
            }
            sample("mcp write", took);
            acknowledged.add(id);
            synchronized (this) {
                mcpAcknowledged++;
            }
        }
    }

    /** One replica: until the deadline, write a fact, pull (merging), push (retried after a pull when main moved). */
    private void replica(Path dir, KeyHome home, ActorName actor, int n, long deadline) throws Exception {
        try (Store s = Store.open(dir, home, OPTIONS)) {
            Replication rep = s.replication();
            List<String> unpushed = new ArrayList<>();
            for (int i = 1; System.nanoTime() < deadline; i++) {
                String id = "replica-" + n + "-" + i;
                long t = System.nanoTime();
                Transaction tx = s.begin(actor);
                tx.assertFact(FactSpec.of(Kind.SOURCE, "Written in replica " + n + ", write " + i + ".").id(FactId.of(id)));
                tx.commit();
                sample("local write", System.nanoTime() - t);
                unpushed.add(id);
                pull(rep, actor);
                for (int attempt = 1;; attempt++) {
                    t = System.nanoTime();
                    try {
                        boolean merged = rep.push("origin", TransferProgress.none()) instanceof PushResult.Merged;
                        sample(merged ? "push (merged by the hub)" : "push", System.nanoTime() - t);
                        acknowledged.addAll(unpushed);
                        synchronized (this) {
                            pushes++;
                            mergedPushes += merged ? 1 : 0;
                            pushedFacts += unpushed.size();
                        }
                        unpushed.clear();
                        break;
                    } catch (ConflictException e) {
                        sample("push refused (main moved)", System.nanoTime() - t);
                    } catch (RejectedException e) {
                        // the hub refused for another reason (e.g. main moved while it audited): listed, retried
                        sample("push refused (other)", System.nanoTime() - t);
                        refused("push: " + e.getMessage());
                    }
                    synchronized (this) {
                        pushRetries++;
                    }
                    if (attempt >= MAX_PUSH_ATTEMPTS) {
                        throw new IllegalStateException("replica-" + n + " could not push in " + attempt + " attempts");
                    }
                    pull(rep, actor);
                }
            }
        }
    }

    private void pull(Replication rep, ActorName actor) throws PalimpsestException {
        long t = System.nanoTime();
        PullResult r = rep.pullAs("origin", actor, TransferProgress.none());
        sample("pull", System.nanoTime() - t);
        if (r instanceof PullResult.Refused ref) {
            violations.add(actor + "'s pull was refused: " + ref.report().violations().stream().limit(3).toList());
        }
    }

    private void refused(String message) {
        String m = message.lines().findFirst().orElse("").replaceAll("[0-9a-f]{40}", "<commit>")
                .replaceAll("[0-9]+", "N");
        refusals.merge(m.length() > 300 ? m.substring(0, 300) : m, 1L, Long::sum);
    }

    private static HttpRequest post(URI uri, String token, String session, String version, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", version);
        }
        return b.build();
    }

    private static String rpc(int id, String method, Map<String, Object> params) throws IOException {
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
    }

    /** The JSON-RPC message of an answer: the body, or the data of its first SSE event. */
    private static JsonNode message(HttpResponse<String> r) throws IOException {
        String body = r.body();
        if (r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            StringBuilder data = new StringBuilder();
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) {
                    data.append(line.substring(5).trim());
                } else if (line.isBlank() && data.length() > 0) {
                    break;
                }
            }
            body = data.toString();
        }
        return JSON.readTree(body);
    }

    /** Deletes {@code dir} and everything under it. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
