package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.palimpsest.internal.judge.CachingJudge;
import dev.palimpsest.internal.judge.OpenAiJudge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenAI-compatible adapter against a local chat-completions server with scripted replies. */
class OpenAiJudgeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIRST = "{\"supported\": true}";
    private static final String SECOND = "{\"supported\": false, \"reason\": \"no\"}";
    private HttpServer server;
    private final List<String> bodies = Collections.synchronizedList(new ArrayList<>());
    private final List<String> auth = Collections.synchronizedList(new ArrayList<>());
    private final List<String> paths = Collections.synchronizedList(new ArrayList<>());
    /** Scripted behaviours, one per request: a status and content, or "sleep" to stall past the timeout. */
    private final ConcurrentLinkedQueue<Object[]> script = new ConcurrentLinkedQueue<>();

    @TempDir
    Path tmp;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.createContext("/v1/chat/completions", ex -> {
            paths.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auth.add(ex.getRequestHeaders().getFirst("Authorization"));
            Object[] step = script.poll();
            if (step == null) {
                step = new Object[] {500, "script exhausted"};
            }
            if ("stall-body".equals(step[0]) || "drip".equals(step[0]) || "huge".equals(step[0])) {
                misbehave((String) step[0], ex);
                return;
            }
            if ("sleep".equals(step[0])) {
                try {
                    Thread.sleep(4000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                step = new Object[] {200, "late"};
            }
            int status = (Integer) step[0];
            String body = status == 200 ? JSON.createObjectNode().set("choices", JSON.createArrayNode().add(
                    JSON.createObjectNode().set("message", JSON.createObjectNode().put("role", "assistant")
                            .put("content", (String) step[1])))).toString() : "{\"error\":\"" + step[1] + "\"}";
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            try {
                ex.sendResponseHeaders(status, b.length);
                ex.getResponseBody().write(b);
            } catch (IOException gone) {
                // the client timed out and left
            }
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private OpenAiJudge judge(String key, Duration timeout, int retries) {
        return new OpenAiJudge(base(), "openai/gpt-4o-mini", key, timeout, retries, Duration.ofMillis(1));
    }

    @Test
    void sendsOneUserMessageWithModelAndBearerKeyAndReadsTheContent() throws Exception {
        script.add(new Object[] {200, "{\"supported\": true}"});
        String reply = judge("sk-test-123", Duration.ofSeconds(5), 0).complete(JudgeRequest.user("Is it so?", 0));
        assertThat(reply).isEqualTo("{\"supported\": true}");
        assertThat(paths).containsExactly("POST /v1/chat/completions");
        assertThat(auth).containsExactly("Bearer sk-test-123");
        JsonNode sent = JSON.readTree(bodies.get(0));
        assertThat(sent.toString()).isEqualTo(
                "{\"model\":\"openai/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Is it so?\"}]}");
    }

    @Test
    void drawsAfterTheFirstCarryASeedAndNoKeyMeansNoAuthorization() throws Exception {
        script.add(new Object[] {200, "a"});
        judge(null, Duration.ofSeconds(5), 0).complete(JudgeRequest.user("q", 3));
        assertThat(auth).containsExactly((String) null);
        assertThat(JSON.readTree(bodies.get(0)).get("seed").asInt()).isEqualTo(3);
    }

    @Test
    void aSampledDrawSendsItsTemperatureAndSeed() throws Exception {
        script.add(new Object[] {200, "a"});
        judge(null, Duration.ofSeconds(5), 0).complete(JudgeRequest.sampled("q", 2, 0.7));
        JsonNode sent = JSON.readTree(bodies.get(0));
        assertThat(sent.get("temperature").asDouble()).isEqualTo(0.7);
        assertThat(sent.get("seed").asInt()).isEqualTo(2);
        assertThatThrownBy(() -> JudgeRequest.sampled("q", 0, 2.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void retriesServerErrorsAndRateLimitsThenSucceeds() {
        script.add(new Object[] {503, "busy"});
        script.add(new Object[] {429, "slow down"});
        script.add(new Object[] {200, "third time"});
        assertThat(judge("k", Duration.ofSeconds(5), 2).complete(JudgeRequest.user("q", 0))).isEqualTo("third time");
        assertThat(bodies).hasSize(3);
    }

    @Test
    void waitsTheBackoffBeforeEachRetry() {
        script.add(new Object[] {503, "busy"});
        script.add(new Object[] {200, "after the pause"});
        OpenAiJudge j = new OpenAiJudge(base(), "openai/gpt-4o-mini", "k", Duration.ofSeconds(5), 1,
                Duration.ofMillis(300));
        long start = System.nanoTime();
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo("after the pause");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void givesUpAfterTheBoundedRetriesWithoutNamingTheKey() {
        for (int i = 0; i < 5; i++) {
            script.add(new Object[] {500, "down"});
        }
        assertThatThrownBy(() -> judge("sk-secret-key", Duration.ofSeconds(5), 2).complete(JudgeRequest.user("q", 0)))
                .isInstanceOf(PalimpsestInternalException.class)
                .hasMessageContaining("HTTP 500")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("sk-secret-key"));
        assertThat(bodies).hasSize(3);
    }

    @Test
    void clientErrorsAreNotRetried() {
        script.add(new Object[] {401, "bad key"});
        script.add(new Object[] {200, "never"});
        assertThatThrownBy(() -> judge("k", Duration.ofSeconds(5), 3).complete(JudgeRequest.user("q", 0)))
                .hasMessageContaining("HTTP 401");
        assertThat(bodies).hasSize(1);
    }

    @Test
    void aStalledServerTimesOutAndTheRetryIsAnswered() {
        script.add(new Object[] {"sleep"});
        script.add(new Object[] {200, "on time"});
        assertThat(judge("k", Duration.ofMillis(1000), 1).complete(JudgeRequest.user("q", 0))).isEqualTo("on time");
        assertThat(bodies).hasSize(2);
        script.add(new Object[] {"sleep"});
        assertThatThrownBy(() -> judge("k", Duration.ofMillis(1000), 0).complete(JudgeRequest.user("q", 0)))
                .hasMessageContaining("timed out after 1000 ms");
    }

    /** Headers at once, then a body that stalls, drips a byte every 100 ms, or never ends. */
    private static void misbehave(String how, com.sun.net.httpserver.HttpExchange ex) {
        byte[] b = ("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"supported\\\": true}\"}}]}")
                .getBytes(StandardCharsets.UTF_8);
        try (var out = ex.getResponseBody()) {
            ex.sendResponseHeaders(200, "huge".equals(how) ? 0 : b.length);
            if ("huge".equals(how)) {
                byte[] chunk = new byte[64 * 1024];
                java.util.Arrays.fill(chunk, (byte) ' ');
                for (int i = 0; i < 64; i++) {
                    out.write(chunk);
                }
                out.write(b);
                return;
            }
            out.write(b, 0, 10);
            out.flush();
            if ("stall-body".equals(how)) {
                Thread.sleep(4000);
                out.write(b, 10, b.length - 10);
                return;
            }
            for (int i = 10; i < b.length; i++) {
                Thread.sleep(100);
                out.write(b[i]);
                out.flush();
            }
        } catch (IOException | InterruptedException gone) {
            // the client gave up
        }
    }

    @Test
    void theTimeoutBoundsTheBodyToo() {
        for (String how : List.of("stall-body", "drip")) {
            script.add(new Object[] {how});
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> judge("k", Duration.ofMillis(1000), 0).complete(JudgeRequest.user("q", 0)))
                    .as(how).hasMessageContaining("timed out after 1000 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as(how).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void aReplyOverTheSizeLimitIsRefused() {
        script.add(new Object[] {"huge"});
        assertThatThrownBy(() -> judge("k", Duration.ofSeconds(10), 0).complete(JudgeRequest.user("q", 0)))
                .hasMessageContaining("I/O error");
    }

    @Test
    void aReplyWithoutContentIsAFailureNotAnAnswer() {
        script.add(new Object[] {200, ""});
        assertThatThrownBy(() -> judge("k", Duration.ofSeconds(5), 0).complete(JudgeRequest.user("q", 0)))
                .hasMessageContaining("without choices[0].message.content");
    }

    @Test
    void aReRunIsServedFromTheCacheFileWithoutCallingTheServer() throws Exception {
        Path file = tmp.resolve("idx/judge-cache.jsonl");
        script.add(new Object[] {200, FIRST});
        script.add(new Object[] {200, SECOND});
        CachingJudge j = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo(FIRST);
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo(FIRST);
        assertThat(j.complete(JudgeRequest.user("q", 1))).isEqualTo(SECOND); // another draw is another request
        assertThat(j.hits()).isEqualTo(1);
        assertThat(j.misses()).isEqualTo(2);
        assertThat(bodies).hasSize(2);
        assertThat(Files.readAllLines(file)).hasSize(2).allSatisfy(l -> assertThat(l).doesNotContain("\"k\""));
        CachingJudge rerun = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThat(rerun.complete(JudgeRequest.user("q", 0))).isEqualTo(FIRST);
        assertThat(rerun.complete(JudgeRequest.user("q", 1))).isEqualTo(SECOND);
        assertThat(rerun.hits()).isEqualTo(2);
        assertThat(rerun.misses()).isZero();
        assertThat(bodies).hasSize(2);
    }

    @Test
    void failuresAreNeverCached() throws Exception {
        Path file = tmp.resolve("c.jsonl");
        script.add(new Object[] {500, "x"});
        script.add(new Object[] {200, FIRST});
        CachingJudge j = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThatThrownBy(() -> j.complete(JudgeRequest.user("q", 0))).isInstanceOf(PalimpsestInternalException.class);
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo(FIRST);
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void aQuotaBannerAnsweredWith200IsNotCachedSoTheRecoveredEndpointIsAskedAgain() throws Exception {
        Path file = tmp.resolve("c.jsonl");
        String banner = "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day";
        script.add(new Object[] {200, banner});
        script.add(new Object[] {200, FIRST});
        CachingJudge j = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo(banner);
        assertThat(Files.exists(file)).isFalse();
        CachingJudge recovered = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThat(recovered.complete(JudgeRequest.user("q", 0))).isEqualTo(FIRST);
        assertThat(Files.readAllLines(file)).hasSize(1).allSatisfy(l -> assertThat(l).doesNotContain("Rate limit"));
        assertThat(bodies).hasSize(2);
    }

    @Test
    void anUnparseableReplyLeftInAnOlderCacheFileIsAskedAgain() throws Exception {
        Path file = tmp.resolve("c.jsonl");
        Files.writeString(file, JSON.createObjectNode().put("key", CachingJudge.key("openai/gpt-4o-mini",
                JudgeRequest.user("q", 0))).put("reply", "quota exceeded").toString() + "\n");
        script.add(new Object[] {200, SECOND});
        CachingJudge j = new CachingJudge(judge("k", Duration.ofSeconds(5), 0), file);
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo(SECOND);
        assertThat(j.misses()).isEqualTo(1);
    }

    @Test
    void cacheKeysSeparateModelsMessagesRolesDrawsAndTemperatures() {
        String k = CachingJudge.key("m", JudgeRequest.user("q", 0));
        assertThat(k).hasSize(64).isEqualTo(CachingJudge.key("m", JudgeRequest.user("q", 0)));
        assertThat(CachingJudge.key("m2", JudgeRequest.user("q", 0))).isNotEqualTo(k);
        assertThat(CachingJudge.key("m", JudgeRequest.user("q ", 0))).isNotEqualTo(k);
        assertThat(CachingJudge.key("m", JudgeRequest.user("q", 1))).isNotEqualTo(k);
        assertThat(CachingJudge.key("m", JudgeRequest.sampled("q", 0, 1.0))).isNotEqualTo(k)
                .isNotEqualTo(CachingJudge.key("m", JudgeRequest.sampled("q", 0, 0.5)));
        assertThat(CachingJudge.key("m", new JudgeRequest(List.of(new JudgeRequest.Message("system", "q")), 0)))
                .isNotEqualTo(k);
    }

    @Test
    void badConfigurationIsRefused() {
        assertThatThrownBy(() -> new OpenAiJudge("ftp://x", "m", null, Duration.ofSeconds(1), 0, Duration.ZERO))
                .isInstanceOf(dev.palimpsest.model.JudgeUnavailableException.class).hasMessageContaining("'ftp://x'");
        assertThatThrownBy(() -> new OpenAiJudge(base(), "m", "sk-abc\nX-Evil: 1", Duration.ofSeconds(1), 0, Duration.ZERO))
                .isInstanceOf(dev.palimpsest.model.JudgeUnavailableException.class)
                .hasMessageContaining("no valid HTTP header value: character 7 of 16 is a control character")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("sk-abc"));
        assertThatThrownBy(() -> new OpenAiJudge(base(), " ", null, Duration.ofSeconds(1), 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpenAiJudge(base(), "m", null, Duration.ofSeconds(1), -1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new OpenAiJudge(base() + "/", "m", "sk-x", Duration.ofSeconds(1), 0, Duration.ZERO).toString())
                .doesNotContain("sk-x").endsWith("/v1/chat/completions]");
    }
}
