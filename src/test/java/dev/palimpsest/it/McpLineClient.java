package dev.palimpsest.it;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.palimpsest.cli.Main;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code palimpsest mcp} spoken to line by line, in a child JVM: each line a test sends reaches the
 * server's stdin as it is and every line the server prints is kept, so a test sees the protocol's
 * bytes (the SDK's client would neither send malformed lines nor show what came back).
 */
final class McpLineClient implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final ChildJvm jvm;
    /** Where lines go: the server's stdin, or null for the child's own stdin. */
    private final OutputStream input;

    McpLineClient(ChildJvm jvm) {
        this(jvm, null);
    }

    /** A client writing to {@code input} (a pipe the server reads) and reading what {@code jvm} prints. */
    McpLineClient(ChildJvm jvm, OutputStream input) {
        this.jvm = jvm;
        this.input = input;
    }

    /** Starts {@code palimpsest mcp} for {@code actor} on the store; call {@link #initialize()} next. */
    static McpLineClient start(Path store, Path home, String actor) {
        return new McpLineClient(ChildJvm.start(command(store, home, actor)));
    }

    /** The command line of the server JVM, listing every tool. */
    static List<String> command(Path store, Path home, String actor) {
        return ChildJvm.command(Main.class, "mcp", "--store", store.toString(), "--home", home.toString(), "--actor",
                actor, "--tools", "all");
    }

    /** A JSON-RPC request line; {@code id} is written as JSON (a quoted string or a number). */
    static String request(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    /** A {@code tools/call} request line. */
    static String call(String id, String tool, String arguments) {
        return request(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    /** The initialize handshake: request, answer, then the initialized notification. */
    void initialize() throws InterruptedException {
        send(request("\"init\"", "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"line-client\",\"version\":\"1\"}}"));
        JsonNode init = answer("\"init\"", 0, 60_000);
        if (!init.has("result")) {
            throw new AssertionError("initialize failed: " + init);
        }
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    void send(String line) {
        if (input == null) {
            jvm.send(line);
            return;
        }
        try {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the server", e);
        }
    }

    List<String> lines() {
        return jvm.lines();
    }

    /**
     * The index of the server's first line from {@code from} on that answers {@code id} (JSON); -1
     * when none came in time.
     */
    int awaitAnswer(String id, int from, long timeoutMillis) throws InterruptedException {
        JsonNode want = parse(id);
        return jvm.awaitMatch(from, l -> want.equals(parse(l).path("id")) && parse(l).has("jsonrpc"), timeoutMillis);
    }

    /** The server's answer to {@code id} (JSON), from line {@code from} on; fails when none came in time. */
    JsonNode answer(String id, int from, long timeoutMillis) throws InterruptedException {
        int i = awaitAnswer(id, from, timeoutMillis);
        if (i < 0) {
            throw new AssertionError("no answer to id " + id + " within " + timeoutMillis + " ms; alive "
                    + jvm.process().isAlive() + "; stdout " + lines() + "\nstderr:\n" + jvm.stderr());
        }
        return parse(lines().get(i));
    }

    /** The line as JSON; a line that is not JSON is the missing node. */
    static JsonNode parse(String line) {
        try {
            JsonNode n = JSON.readTree(line);
            return n == null ? MissingNode.getInstance() : n;
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }

    /** Closes the server's stdin and waits a little for it to exit; kills it if it does not. */
    @Override
    public void close() throws InterruptedException {
        Process p = jvm.process();
        if (p.isAlive()) {
            try {
                jvm.closeInput();
            } catch (RuntimeException e) {
                // the pipe is already gone
            }
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
