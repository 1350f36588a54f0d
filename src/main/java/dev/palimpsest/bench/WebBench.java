package dev.palimpsest.bench;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.hub.HubConfig;
import dev.palimpsest.hub.HubServer;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

/**
 * The web view's speed: a scratch store of {@code facts} claims (the generator of {@code bench
 * search}: entities, supersessions, retractions, in commits of {@code batch}), served by a hub in
 * process on a free loopback port, and each page asked over HTTP with a read-only token, page by
 * page in the order listed: its first request in the hub (cold for the page's own code), then
 * {@code samples} more with other facts, entities, words and commits (warm); the status page comes
 * last, since its first request starts an audit of main in the background. Every answer must be 200 with HTML; anything else
 * is a violation. The store has no embedder (the search page's words and entities, not its meaning).
 */
public final class WebBench {
    /** What to run: the scratch folder, the facts, the facts per commit and the warm requests per page. */
    public record Options(Path dir, int facts, int batch, int samples) {
        public Options {
            Objects.requireNonNull(dir, "dir");
            if (facts < 1 || batch < 1 || samples < 1) {
                throw new IllegalArgumentException("facts, batch and samples must be at least 1");
            }
        }
    }

    /** What one run measured: per page the first request's milliseconds and the warm requests. */
    public record Result(int facts, int commits, double buildSeconds, double warmUpSeconds,
            Map<String, Double> firstMillis, Map<String, Stats> warm, double auditSeconds, double loadBefore,
            double loadAfter, List<String> violations) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private static final String[] WORDS = {"queue", "latency", "owner", "region", "cache", "release", "schema"};

    private final Options options;
    private final PrintWriter log;
    private final List<String> violations = new ArrayList<>();

    public WebBench(Options options, PrintWriter log) {
        this.options = Objects.requireNonNull(options, "options");
        this.log = Objects.requireNonNull(log, "log");
    }

    /** One page: its name and the path of its {@code i}-th request. */
    private record Page(String name, Function<Integer, String> path) {}

    public Result run() throws IOException, PalimpsestException, InterruptedException {
        Path dir = options.dir().toAbsolutePath();
        KeyHome home = new KeyHome(dir.resolve("home"));
        double loadBefore = PullBench.loadAverage();
        int entities = Math.max(1, options.facts() / 20);
        Random rnd = new Random(42);
        List<CommitId> history = new ArrayList<>();
        long t0 = System.nanoTime();
        StoreOptions opts = StoreOptions.defaults().withFsync(false).withoutEmbedder();
        Store store = Store.initializer(dir.resolve("store.git")).home(home).actor(ACTOR).options(opts).create();
        HubServer hub = null;
        try {
            Transaction first = store.begin(ACTOR);
            first.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
            history.add(first.commit().id());
            int[] next = {0};
            boolean[] gone = new boolean[options.facts() + 1];
            while (next[0] < options.facts()) {
                history.add(SearchBench.write(store, rnd, Math.min(options.batch(), options.facts() - next[0]), next, gone,
                        entities, options.facts()));
                if (history.size() % 100 == 0) {
                    log.printf("  %,d facts in %,d commits (%.0f s)%n", next[0], history.size(), (System.nanoTime() - t0) / 1e9);
                    log.flush();
                }
            }
            double build = (System.nanoTime() - t0) / 1e9;
            log.printf("built %,d facts in %,d commits in %.1f s%n", options.facts(), history.size(), build);
            log.flush();
            String token = new Tokens(home.dir()).add(ACTOR, true, Optional.empty(), Instant.now()).secret();
            long t1 = System.nanoTime();
            hub = HubServer.start(store, HubConfig.loopback(0, home),
                    new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            awaitIndex(http, hub.url());
            long t2 = System.nanoTime();
            // what a running hub has once a history walk met the commits the file lacks (ChangedPaths)
            try (GitRepo repo = GitRepo.open(store.gitDir(), false)) {
                repo.changedPaths().write();
                log.printf("commit-graph with the changed-path filters of %,d commits written in %.1f s%n",
                        repo.changedPaths().commits(), (System.nanoTime() - t2) / 1e9);
            }
            double warmUp = (System.nanoTime() - t1) / 1e9;
            log.printf("hub ready with its search index and commit-graph in %.1f s%n", warmUp);
            log.flush();

            int n = options.facts();
            List<Page> pages = List.of(
                    new Page("timeline at main", i -> "/"),
                    new Page("timeline at a past commit", i -> "/?at=" + past(history, i).hex()),
                    new Page("fact at main", i -> "/facts/c" + pick(i, n)),
                    new Page("fact at a past commit", i -> "/facts/c" + pick(i, n / 2) + "?at=" + history.get(
                            history.size() / 2 + Math.floorMod(i, Math.max(1, history.size() / 2))).hex()),
                    new Page("entity at main", i -> "/entities/" + enc(SearchBench.entity(pick(i, entities)))),
                    new Page("search two words at main", i -> "/search?q=" + enc(WORDS[i % WORDS.length] + " "
                            + WORDS[(i * 3 + 1) % WORDS.length])),
                    new Page("provenance graph at main", i -> "/graph/c" + pick(i, n)),
                    new Page("status", i -> "/status"),
                    // a commit not asked about before each time: the review queue computed, not cached
                    new Page("status at a past commit", i -> "/status?at=" + history.get(
                            history.size() - 2 - Math.floorMod(i, Math.max(1, history.size() - 2))).hex()));
            Map<String, Double> firstMillis = new LinkedHashMap<>();
            Map<String, Stats> warm = new LinkedHashMap<>();
            // page by page, the status pages last: the first request starts an audit of main in the
            // background, which is waited for (and timed) before the warm requests, as on a hub that runs
            double auditSeconds = 0;
            for (Page p : pages) {
                firstMillis.put(p.name(), get(http, hub.url(), token, p.path().apply(0)) / 1e6);
                if (p.name().equals("status")) {
                    long a0 = System.nanoTime();
                    awaitAudit(http, hub.url(), token);
                    auditSeconds = (System.nanoTime() - a0) / 1e9 + firstMillis.get(p.name()) / 1e3;
                    log.printf("audit of main (%,d commits) done in %.1f s%n", history.size(), auditSeconds);
                }
                long[] nanos = new long[options.samples()];
                for (int i = 0; i < nanos.length; i++) {
                    nanos[i] = get(http, hub.url(), token, p.path().apply(i + 1));
                }
                Stats s = Stats.of(nanos);
                warm.put(p.name(), s);
                log.printf("  %-28s first %8.1f ms, then p50 %7.2f ms, p99 %7.2f ms%n", p.name(), firstMillis.get(p.name()),
                        s.p50Millis(), s.p99Millis());
                log.flush();
            }
            return new Result(options.facts(), history.size(), build, warmUp, firstMillis, warm, auditSeconds, loadBefore,
                    PullBench.loadAverage(), List.copyOf(violations));
        } finally {
            if (hub != null) {
                hub.stop();
            }
            store.close();
        }
    }

    /** A fact number spread over {@code [0, n)} by the request's index (the same run asks the same ones). */
    private static int pick(int i, int n) {
        return Math.floorMod(i * 7919 + 13, Math.max(1, n));
    }

    private static CommitId past(List<CommitId> history, int i) {
        return history.get(Math.floorMod(i * 31, Math.max(1, history.size() - 1)));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Waits for the hub's {@code /health} to say ready with its search index built. */
    private static void awaitIndex(HttpClient http, String base) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"index\":\"ready\"")) {
                return;
            }
            if (r.body().contains("\"index\":\"failed")) {
                throw new IllegalStateException("the hub's search index failed: " + r.body());
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the hub's search index was not ready in 30 minutes");
    }

    /** Nanoseconds of one GET of {@code path}, its body read; a non-200 or non-HTML answer is a violation. */
    /** Waits (at most 30 minutes) until the status page shows the audit of main finished. */
    private void awaitAudit(HttpClient http, String base, String token) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/status"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.body().contains("audit-clean") || r.body().contains("audit-violations") || r.body().contains("audit-failed")) {
                return;
            }
            Thread.sleep(200);
        }
        violations.add("the audit of main did not finish in 30 minutes");
    }

    private long get(HttpClient http, String base, String token, String path) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60)).build();
        long t = System.nanoTime();
        HttpResponse<String> r;
        try {
            r = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            long took = System.nanoTime() - t;
            if (violations.size() < 20) {
                violations.add("GET " + path + ": no answer in " + Math.round(took / 1e9) + " s");
            }
            return took;
        }
        long took = System.nanoTime() - t;
        String type = r.headers().firstValue("Content-Type").orElse("");
        if ((r.statusCode() != 200 || !type.startsWith("text/html")) && violations.size() < 20) {
            String body = r.body().length() > 200 ? r.body().substring(0, 200) : r.body();
            violations.add("GET " + path + ": " + r.statusCode() + " " + type + ": " + body.replaceAll("\\s+", " "));
        }
        return took;
    }
}
