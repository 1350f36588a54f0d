package dev.palimpsest.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The stdio transport of one MCP session, in place of the SDK's {@code StdioServerTransportProvider}:
 * one thread reads one JSON-RPC message per line and hands it to the SDK's session, another writes
 * each outgoing message as one line, and neither ever stops on a bad message. A line that is no
 * valid message gets the JSON-RPC error it calls for (parse error -32700 with id null for bad JSON or
 * nesting deeper than {@value #MAX_DEPTH}; invalid request -32600 for anything else, with the id when
 * the id is valid) and a warning on standard error; a blank line is skipped with a warning; several
 * messages on one line are each handled. A batch (a JSON array) is one invalid request: MCP removed
 * JSON-RPC batching in its 2025-06-18 revision, so its elements are not run. Requests are handled
 * concurrently and each gets exactly one answer: when the session ends a request without answering,
 * or its answer cannot be written as JSON, the answer is an internal error (-32603). Thread-safe.
 */
final class StdioTransport implements McpServerTransportProvider {
    /** The longest line read as a message, in bytes (16 MiB, as the SDK's transport). */
    static final int MAX_LINE = 16 << 20;
    /** The deepest nesting of arrays and objects in a message. */
    static final int MAX_DEPTH = 128;
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int INTERNAL_ERROR = -32603;

    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);
    private static final byte[] STOP = new byte[0];
    private static final long FLUSH_MILLIS = 1000;

    /** Why a session ended. */
    enum End {
        /** The client closed standard input: answers can still be read. */
        INPUT_CLOSED,
        INPUT_FAILED,
        OUTPUT_FAILED,
        /** The process that started the server is gone. */
        PARENT_GONE,
        CLOSED
    }

    private final ObjectMapper json;
    private final ObjectMapper reader;
    private final McpJsonMapper mapper;
    private final InputStream in;
    private final OutputStream out;
    private final int maxLine;
    private final BlockingQueue<byte[]> outbox = new LinkedBlockingQueue<>();
    /** The requests handed to the session and not answered yet, by {@link #key}. */
    private final Set<Object> unanswered = ConcurrentHashMap.newKeySet();
    private final AtomicReference<End> end = new AtomicReference<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean writable = true;
    private volatile McpServerSession session;
    private volatile Thread writer;
    /** Messages handed to the session whose handling has not finished. */
    private int running;

    /** A transport that reads {@code in} and writes {@code out} once its session is set; no argument may be null. */
    StdioTransport(ObjectMapper json, InputStream in, OutputStream out) {
        this(json, in, out, MAX_LINE);
    }

    /** As the three-argument constructor, with lines of at most {@code maxLine} bytes. */
    StdioTransport(ObjectMapper json, InputStream in, OutputStream out, int maxLine) {
        this.json = Objects.requireNonNull(json, "json");
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        if (maxLine < 1) {
            throw new IllegalArgumentException("maxLine " + maxLine + " < 1");
        }
        this.maxLine = maxLine;
        this.mapper = new JacksonMcpJsonMapper(json);
        this.reader = JsonMapper.builder(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build()).build())
                .build();
    }

    /** Creates the one session and starts reading and writing. */
    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        Objects.requireNonNull(factory, "factory");
        synchronized (this) {
            if (session != null) {
                throw new IllegalStateException("a stdio transport serves one session");
            }
            session = factory.create(new Channel());
        }
        writer = daemon("mcp-stdout", this::write);
        daemon("mcp-stdin", this::read);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Mono.defer(() -> session == null ? Mono.error(new IllegalStateException("no session to notify"))
                : session.sendNotification(method, params));
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> session == null || !session.getId().equals(sessionId)
                ? Mono.error(new IllegalStateException("no session " + sessionId))
                : session.sendNotification(method, params));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.defer(() -> session == null ? Mono.fromRunnable(this::stop) : session.closeGracefully());
    }

    @Override
    public void close() {
        if (session == null) {
            stop();
        } else {
            session.close();
        }
    }

    /** Ends the session for {@code why}, unless it already ended; nothing read afterwards is handled. */
    void end(End why) {
        if (end.compareAndSet(null, Objects.requireNonNull(why, "why"))) {
            ended.countDown();
        }
    }

    /** Why the session ended; empty while it runs. */
    Optional<End> ended() {
        return Optional.ofNullable(end.get());
    }

    /** Waits up to {@code millis} for the session to end; true when it did. */
    boolean awaitEnd(long millis) throws InterruptedException {
        return ended.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Waits up to {@code millis} until no message is being handled; true when none is. */
    synchronized boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (running > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** How many messages are being handled. */
    synchronized int running() {
        return running;
    }

    private void read() {
        LineReader lines = new LineReader(in, maxLine);
        try {
            for (long n = 1; end.get() == null; n++) {
                byte[] line = lines.next();
                if (line == null) {
                    end(End.INPUT_CLOSED);
                } else if (end.get() == null) {
                    accept(line, n);
                }
            }
        } catch (IOException e) {
            log.warn("reading standard input failed: {}", e.toString());
            end(End.INPUT_FAILED);
        } catch (RuntimeException | Error e) {
            log.error("the reader of standard input failed", e);
            end(End.INPUT_FAILED);
        }
    }

    /** Handles line {@code n}: each message on it, or the error it calls for. */
    private void accept(byte[] line, long n) {
        if (line == LineReader.TOO_LONG) {
            refuse(n, null, INVALID_REQUEST, "Invalid Request: a message is at most " + maxLine + " bytes");
            return;
        }
        if (blank(line)) {
            log.warn("line {} of standard input is blank: skipped", n);
            return;
        }
        try (JsonParser p = reader.createParser(line)) {
            while (true) {
                JsonNode message;
                try {
                    if (p.nextToken() == null) {
                        return;
                    }
                    message = reader.readTree(p);
                } catch (IOException | StackOverflowError e) {
                    String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.toString();
                    refuse(n, null, PARSE_ERROR, "Parse error: " + why);
                    return;
                }
                dispatch(message, n);
            }
        } catch (IOException e) {
            refuse(n, null, PARSE_ERROR, "Parse error: " + e.getMessage());
        }
    }

    private void dispatch(JsonNode message, long n) {
        if (!message.isObject()) {
            refuse(n, null, INVALID_REQUEST, message.isArray()
                    ? "Invalid Request: batches (JSON arrays) are not supported; send one message per line"
                    : "Invalid Request: a message is a JSON object, not " + kind(message));
            return;
        }
        JsonNode idNode = message.get("id");
        Object id = idNode == null ? null : id(idNode);
        if (idNode != null && id == null) {
            refuse(n, null, INVALID_REQUEST, "Invalid Request: id is a string or an integer, not " + kind(idNode));
            return;
        }
        if (!"2.0".equals(message.path("jsonrpc").textValue())) {
            refuse(n, id, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
            return;
        }
        JsonNode method = message.get("method");
        if (method == null && id != null && (message.has("result") || message.has("error"))) {
            answer(message, n);
            return;
        }
        if (method == null || !method.isTextual()) {
            refuse(n, id, INVALID_REQUEST, method == null ? "Invalid Request: no method"
                    : "Invalid Request: method is a string, not " + kind(method));
            return;
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isContainerNode() && !params.isNull()) {
            refuse(n, id, INVALID_REQUEST, "Invalid Request: params is an object, not " + kind(params));
            return;
        }
        try {
            if (id == null) {
                McpSchema.JSONRPCNotification note = json.convertValue(message, McpSchema.JSONRPCNotification.class);
                handle(note, failure -> {
                    if (failure != null) {
                        log.warn("notification {} failed: {}", note.method(), failure.toString());
                    }
                });
            } else {
                request(json.convertValue(message, McpSchema.JSONRPCRequest.class), n);
            }
        } catch (IllegalArgumentException e) {
            refuse(n, id, INVALID_REQUEST, "Invalid Request: " + e.getMessage());
        }
    }

    private void request(McpSchema.JSONRPCRequest request, long n) {
        Object key = key(request.id());
        if (!unanswered.add(key)) {
            refuse(n, request.id(), INVALID_REQUEST, "Invalid Request: id " + request.id()
                    + " is taken by a request still in flight");
            return;
        }
        handle(request, failure -> {
            if (unanswered.remove(key)) {
                String why = failure == null ? "the request ended without an answer" : failure.toString();
                log.warn("request {} ({}) failed: {}", request.id(), request.method(), why);
                reply(request.id(), INTERNAL_ERROR, "Internal error: " + why);
            }
        });
    }

    /** A client's answer to a request of the server's. */
    private void answer(JsonNode message, long n) {
        McpSchema.JSONRPCResponse response;
        try {
            response = json.convertValue(message, McpSchema.JSONRPCResponse.class);
        } catch (IllegalArgumentException e) {
            log.warn("line {} of standard input is no valid response: {}; dropped", n, e.getMessage());
            return;
        }
        handle(response, failure -> {
            if (failure != null) {
                log.warn("the response {} failed: {}", response.id(), failure.toString());
            }
        });
    }

    /**
     * Hands {@code message} to the session; {@code after} runs once its handling ends, with the
     * failure or null. Requests run concurrently: the session answers on other threads.
     */
    private void handle(McpSchema.JSONRPCMessage message, Consumer<Throwable> after) {
        synchronized (this) {
            running++;
        }
        AtomicBoolean done = new AtomicBoolean();
        Consumer<Throwable> finish = failure -> {
            if (done.compareAndSet(false, true)) {
                try {
                    after.accept(failure);
                } finally {
                    synchronized (this) {
                        running--;
                        notifyAll();
                    }
                }
            }
        };
        try {
            session.handle(message).subscribe(ignored -> { }, finish, () -> finish.accept(null));
        } catch (RuntimeException | StackOverflowError e) {
            finish.accept(e);
        }
    }

    /** Queues {@code message} from the session; an answer that cannot be written as JSON becomes an internal error. */
    private void send(McpSchema.JSONRPCMessage message) {
        Object answers = message instanceof McpSchema.JSONRPCResponse r ? r.id() : null;
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(message);
        } catch (JsonProcessingException | RuntimeException | StackOverflowError e) {
            if (answers == null) {
                throw new IllegalStateException("cannot write " + message.getClass().getSimpleName() + " as JSON", e);
            }
            log.warn("the answer to request {} cannot be written as JSON: {}", answers, e.toString());
            bytes = error(answers, INTERNAL_ERROR, "Internal error: the answer cannot be written as JSON: " + e);
        }
        if (answers != null) {
            unanswered.remove(key(answers));
        }
        enqueue(bytes);
    }

    /** Logs line {@code n}'s fault and answers it with the error. */
    private void refuse(long n, Object id, int code, String message) {
        log.warn("line {} of standard input: {} (answered with error {})", n, message, code);
        reply(id, code, message);
    }

    private void reply(Object id, int code, String message) {
        enqueue(error(id, code, message));
    }

    /** A JSON-RPC error response; {@code id} null is written as null. */
    private byte[] error(Object id, int code, String message) {
        ObjectNode m = json.createObjectNode();
        m.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        m.set("id", id == null ? NullNode.getInstance() : json.valueToTree(id));
        m.putObject("error").put("code", code).put("message", message);
        try {
            return json.writeValueAsBytes(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an error response", e);
        }
    }

    private void enqueue(byte[] line) {
        if (writable) {
            outbox.add(line);
        } else {
            log.debug("output closed: a message was dropped");
        }
    }

    private void write() {
        try {
            for (byte[] line = outbox.take(); line != STOP; line = outbox.take()) {
                out.write(line);
                out.write('\n');
                if (outbox.isEmpty()) {
                    out.flush();
                }
            }
            out.flush();
        } catch (IOException | RuntimeException | Error e) {
            writable = false;
            outbox.clear();
            log.warn("writing standard output failed: {}", e.toString());
            end(End.OUTPUT_FAILED);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the session, writes what is queued (waiting up to a second) and stops writing. */
    private void stop() {
        end(End.CLOSED);
        if (stopped.compareAndSet(false, true)) {
            writable = false;
            outbox.add(STOP);
            Thread w = writer;
            if (w != null && w != Thread.currentThread()) {
                try {
                    w.join(FLUSH_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** The id as the SDK holds it (a String, Integer or Long); null when JSON-RPC allows no such id. */
    private static Object id(JsonNode id) {
        if (id.isTextual()) {
            return id.textValue();
        }
        if (id.isIntegralNumber() && id.canConvertToLong()) {
            return id.canConvertToInt() ? (Object) id.intValue() : (Object) id.longValue();
        }
        return null;
    }

    /** Equal for ids that are equal in JSON: 7 as an Integer or a Long. */
    private static Object key(Object id) {
        return id instanceof Number n ? (Object) n.longValue() : id;
    }

    /** What a JSON value is, for a message: "an object", "a string", or the value itself (null, true, 1.5). */
    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case OBJECT, POJO -> "an object";
            case ARRAY -> "an array";
            case STRING, BINARY -> "a string";
            default -> n.toString();
        };
    }

    private static boolean blank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The session's side of the transport: what it sends is written as one line. */
    private final class Channel implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> send(Objects.requireNonNull(message, "message")));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return mapper.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(StdioTransport.this::stop);
        }

        @Override
        public void close() {
            stop();
        }
    }

    /**
     * Lines of bytes, split at {@code '\n'} (a {@code '\r'} before it dropped): a line longer than
     * the limit is skipped and comes back as {@link #TOO_LONG}, the last line needs no newline. Not
     * thread-safe: one reader.
     */
    private static final class LineReader {
        static final byte[] TOO_LONG = new byte[0];

        private final InputStream in;
        private final int max;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int limit;

        LineReader(InputStream in, int max) {
            this.in = in;
            this.max = max;
        }

        /** The next line, {@link #TOO_LONG}, or null at the end of the input. */
        byte[] next() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean read = false;
            boolean tooLong = false;
            while (true) {
                if (pos == limit) {
                    int n = in.read(buf);
                    if (n < 0) {
                        if (!read) {
                            return null;
                        }
                        break;
                    }
                    pos = 0;
                    limit = n;
                }
                read = true;
                int nl = pos;
                while (nl < limit && buf[nl] != '\n') {
                    nl++;
                }
                if (!tooLong && line.size() + (nl - pos) > max) {
                    tooLong = true;
                    line = new ByteArrayOutputStream();
                }
                if (!tooLong) {
                    line.write(buf, pos, nl - pos);
                }
                pos = nl < limit ? nl + 1 : limit;
                if (nl < limit) {
                    break;
                }
            }
            if (tooLong) {
                return TOO_LONG;
            }
            byte[] b = line.toByteArray();
            return b.length > 0 && b[b.length - 1] == '\r' ? Arrays.copyOf(b, b.length - 1) : b;
        }
    }
}
