package dev.palimpsest.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.server.McpRequestHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link StdioTransport} in-process, under a real SDK session with handlers of the test's: every
 * request gets exactly one answer (an internal error when the session drops it or its answer is no
 * JSON), messages sent from many threads at once are each written whole on a line, and the input's
 * last line, its end and an over-long line are handled.
 */
class StdioTransportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anAnswerThatCannotBeWrittenAsJsonIsAnInternalErrorAndTheNextRequestIsAnswered() throws Exception {
        try (Harness h = new Harness(StdioTransport.MAX_LINE, t -> session(t, handlers(new CountDownLatch(0))))) {
            h.initialize();
            h.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"unwritable\"}");
            JsonNode error = h.next();
            assertThat(error.get("id").asInt()).isEqualTo(5);
            assertThat(error.get("error").get("code").asInt()).isEqualTo(StdioTransport.INTERNAL_ERROR);
            assertThat(error.get("error").get("message").asText()).contains("cannot be written as JSON");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"echo\",\"params\":{\"x\":1}}");
            JsonNode echo = h.next();
            assertThat(echo.get("id").asInt()).isEqualTo(6);
            assertThat(echo.get("result").get("x").asInt()).isEqualTo(1);
        }
    }

    @Test
    void aRequestTheSessionEndsWithoutAnAnswerIsAnsweredWithAnInternalError() throws Exception {
        try (Harness h = new Harness(StdioTransport.MAX_LINE, DroppingSession::new)) {
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"v\",\"method\":\"vanish\"}");
            JsonNode vanished = h.next();
            assertThat(vanished.get("id").asText()).isEqualTo("v");
            assertThat(vanished.get("error").get("code").asInt()).isEqualTo(StdioTransport.INTERNAL_ERROR);
            assertThat(vanished.get("error").get("message").asText()).contains("without an answer");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"fail\"}");
            JsonNode failed = h.next();
            assertThat(failed.get("id").asInt()).isEqualTo(7);
            assertThat(failed.get("error").get("code").asInt()).isEqualTo(StdioTransport.INTERNAL_ERROR);
            assertThat(failed.get("error").get("message").asText()).contains("lost on the way");
        }
    }

    @Test
    void messagesSentFromManyThreadsAtOnceAreEachWrittenWholeOnALineOfTheirOwn() throws Exception {
        int threads = 8;
        int each = 5000;
        try (Harness h = new Harness(StdioTransport.MAX_LINE, t -> session(t, Map.of()))) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int first = t * each;
                    sent.add(pool.submit(() -> {
                        for (int i = first; i < first + each; i++) {
                            h.channel.get().sendMessage(McpSchema.JSONRPCResponse.result(i, Map.of("n", i))).block();
                        }
                    }));
                }
                for (Future<?> f : sent) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            Set<Integer> ids = new HashSet<>();
            for (int i = 0; i < threads * each; i++) {
                JsonNode m = h.next();
                assertThat(m.get("result").get("n").asInt()).isEqualTo(m.get("id").asInt());
                ids.add(m.get("id").asInt());
            }
            assertThat(ids).hasSize(threads * each);
        }
    }

    @Test
    void aSecondRequestWithTheIdOfOneInFlightIsRefusedAndTheFirstIsAnswered() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Harness h = new Harness(StdioTransport.MAX_LINE, t -> session(t, handlers(release)))) {
            h.initialize();
            h.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"slow\"}");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");
            JsonNode refused = h.next();
            assertThat(refused.get("id").asInt()).isEqualTo(1);
            assertThat(refused.get("error").get("code").asInt()).isEqualTo(StdioTransport.INVALID_REQUEST);
            release.countDown();
            JsonNode answered = h.next();
            assertThat(answered.get("id").asInt()).isEqualTo(1);
            assertThat(answered.get("result").get("slow").asBoolean()).isTrue();
            h.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}");
            assertThat(h.next().has("result")).isTrue();
        }
    }

    @Test
    void aLineLongerThanTheLimitIsRefusedAndTheNextLineIsRead() throws Exception {
        try (Harness h = new Harness(200, t -> session(t, handlers(new CountDownLatch(0))))) {
            h.initialize();
            String big = "y".repeat(5000);
            h.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":{\"x\":\"" + big + "\"}}");
            JsonNode refused = h.next();
            assertThat(refused.get("id").isNull()).isTrue();
            assertThat(refused.get("error").get("code").asInt()).isEqualTo(StdioTransport.INVALID_REQUEST);
            assertThat(refused.get("error").get("message").asText()).contains("at most 200 bytes");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echo\"}\r");
            assertThat(h.next().get("id").asInt()).isEqualTo(3);
        }
    }

    @Test
    void theLastLineNeedsNoNewlineAndTheEndOfTheInputEndsTheSession() throws Exception {
        try (Harness h = new Harness(StdioTransport.MAX_LINE, t -> session(t, handlers(new CountDownLatch(0))))) {
            h.initialize();
            h.input.write("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"echo\"}".getBytes(StandardCharsets.UTF_8));
            h.input.close();
            assertThat(h.next().get("id").asInt()).isEqualTo(4);
            assertThat(h.transport.awaitEnd(10_000)).isTrue();
            assertThat(h.transport.ended()).contains(StdioTransport.End.INPUT_CLOSED);
            assertThat(h.transport.awaitIdle(10_000)).isTrue();
        }
    }

    /** A result that Jackson cannot write. */
    static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    private static Map<String, McpRequestHandler<?>> handlers(CountDownLatch release) {
        McpRequestHandler<Object> echo = (exchange, params) -> Mono.just(params == null ? Map.of() : params);
        McpRequestHandler<Object> unwritable = (exchange, params) -> Mono.just(new Unwritable());
        McpRequestHandler<Object> slow = (exchange, params) -> Mono.fromCallable(() -> {
            release.await();
            return (Object) Map.of("slow", true);
        }).subscribeOn(Schedulers.boundedElastic());
        return Map.of("echo", echo, "unwritable", unwritable, "slow", slow);
    }

    private static McpServerSession session(McpServerTransport t, Map<String, McpRequestHandler<?>> handlers) {
        return new McpServerSession("test", Duration.ofSeconds(10), t,
                init -> Mono.just(new McpSchema.InitializeResult("2025-06-18",
                        McpSchema.ServerCapabilities.builder().build(), new McpSchema.Implementation("test", "1"),
                        null)),
                handlers, Map.of());
    }

    /** A session that ends {@code vanish} without an answer and fails {@code fail}. */
    static final class DroppingSession extends McpServerSession {
        DroppingSession(McpServerTransport t) {
            super("dropping", Duration.ofSeconds(10), t, init -> Mono.empty(), Map.of(), Map.of());
        }

        @Override
        public Mono<Void> handle(McpSchema.JSONRPCMessage message) {
            if (message instanceof McpSchema.JSONRPCRequest r && r.method().equals("vanish")) {
                return Mono.empty();
            }
            if (message instanceof McpSchema.JSONRPCRequest r && r.method().equals("fail")) {
                return Mono.error(new IllegalStateException("lost on the way"));
            }
            return super.handle(message);
        }
    }

    /** A transport fed through a pipe, its output lines collected. */
    private static final class Harness implements AutoCloseable {
        final PipedOutputStream input = new PipedOutputStream();
        final BlockingQueue<String> output = new LinkedBlockingQueue<>();
        final AtomicReference<McpServerTransport> channel = new AtomicReference<>();
        final StdioTransport transport;

        Harness(int maxLine, Function<McpServerTransport, McpServerSession> sessions) throws IOException {
            transport = new StdioTransport(JSON, new PipedInputStream(input, 1 << 20), new Lines(output), maxLine);
            transport.setSessionFactory(t -> {
                channel.set(t);
                return sessions.apply(t);
            });
        }

        void initialize() throws Exception {
            send("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
            assertThat(next().has("result")).isTrue();
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        void send(String line) throws IOException {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        }

        /** The next line written, as JSON. */
        JsonNode next() throws Exception {
            String line = output.poll(30, TimeUnit.SECONDS);
            assertThat(line).as("a line within 30 s").isNotNull();
            return JSON.readTree(line);
        }

        @Override
        public void close() throws IOException {
            input.close();
            transport.close();
        }
    }

    /** An output stream that hands each line written to a queue. */
    private static final class Lines extends OutputStream {
        private final BlockingQueue<String> lines;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Lines(BlockingQueue<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                lines.add(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else {
                line.write(b);
            }
        }
    }
}
