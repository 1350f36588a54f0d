package dev.palimpsest.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * An MCP server over one open store, on the official MCP Java SDK's stdio transport: one JSON-RPC
 * message per line on the output stream, nothing else (diagnostics go to standard error). Every
 * tool calls the public API and returns the API's answer as structured content (the CLI's
 * {@code --json} fields); a failure is a tool error ({@code isError}) carrying
 * {@code {"error": {exit, kind, message, violations}}}, and the server goes on answering. Every
 * write is one signed commit by the server's actor through the store's gate.
 *
 * <p>Thread-safe: the SDK may run calls concurrently; the store serialises writers.
 */
public final class PalimpsestMcpServer {
    static final String INSTRUCTIONS = "Palimpsest is a git-backed temporal memory: every fact is a versioned file,"
            + " every write one signed commit, and history is never rewritten. Start with brief (or search); before writing"
            + " about an entity, ask current"
            + " and dead_ends (what is believed, what was already corrected). Write claims with their source and a"
            + " verbatim quote; correct with supersede (or claim with supersedes), never by deleting. Retract with"
            + " dry_run first to see the cascade. Every read takes at (a commit) to answer as of that moment; pin"
            + " what you read with palimpsest://fact/{id}@{commit}. Personal data goes in with sensitive (or"
            + " retain_until); forget erases such content (its data key is destroyed), unlearn_check proves it.";

    private final McpSyncServer server;
    private final CountDownLatch inputEnded;

    private PalimpsestMcpServer(McpSyncServer server, CountDownLatch inputEnded) {
        this.server = server;
        this.inputEnded = inputEnded;
    }

    /**
     * Starts serving {@code store} on {@code in} and {@code out}: writes are signed by {@code actor}
     * and the store's options carry the {@code run} (null: none), which also becomes the run of the
     * claims and files written.
     */
    public static PalimpsestMcpServer start(Store store, ActorName actor, String run, InputStream in, OutputStream out) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(actor, "actor");
        CountDownLatch ended = new CountDownLatch(1);
        ObjectMapper json = new ObjectMapper();
        Session session = new Session(store, actor, run);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(new JacksonMcpJsonMapper(json),
                watch(Objects.requireNonNull(in, "in"), ended), Objects.requireNonNull(out, "out"));
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (ToolDef d : tools(session)) {
            tools.add(spec(d, json));
        }
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("palimpsest", "0.1.0")
                .instructions(INSTRUCTIONS)
                .jsonMapper(new JacksonMcpJsonMapper(json))
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(json))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .tools(tools)
                .resourceTemplates(FactResources.templates(session, json))
                .build();
        return new PalimpsestMcpServer(server, ended);
    }

    /** Serves until {@code in} ends, then closes the session. */
    public static void serve(Store store, ActorName actor, String run, InputStream in, OutputStream out)
            throws InterruptedException {
        PalimpsestMcpServer s = start(store, actor, run, in, out);
        s.awaitInputEnd();
        s.close();
    }

    /** Blocks until the input stream ends (the client closed it) or fails. */
    public void awaitInputEnd() throws InterruptedException {
        inputEnded.await();
    }

    /** Closes the session gracefully. */
    public void close() {
        server.closeGracefully();
    }

    /** Every tool, in the order they are listed: recall, read, write, review, erasure. */
    static List<ToolDef> tools(Session s) {
        List<ToolDef> all = new ArrayList<>(RecallTools.all(s));
        all.addAll(ClaimTools.recall(s));
        all.addAll(ReadTools.all(s));
        all.add(ClaimTools.claim(s));
        all.addAll(WriteTools.all(s));
        all.addAll(FileReviewTools.all(s));
        all.addAll(ForgetTools.all(s));
        return all;
    }

    private static SyncToolSpecification spec(ToolDef d, ObjectMapper json) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(d.name()).title(d.title()).description(d.description())
                .inputSchema(d.input()).outputSchema(d.output())
                .annotations(new McpSchema.ToolAnnotations(d.title(), d.readOnly(), d.destructive(), d.readOnly(),
                        false, null))
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, req) -> call(d, req.arguments(), json))
                .build();
    }

    /** Runs one call; whatever goes wrong becomes a tool error, never an exception out of the server. */
    static CallToolResult call(ToolDef d, Map<String, Object> arguments, ObjectMapper json) {
        try {
            Map<String, Object> out = d.handler().call(new Args(arguments));
            return CallToolResult.builder().structuredContent(out).addTextContent(text(json, out)).isError(false)
                    .build();
        } catch (Exception e) {
            ToolFailure f = ToolFailure.of(e);
            if (f.exit() == 1) {
                System.err.println("palimpsest mcp: internal error in " + d.name() + ": " + f.message());
            }
            Map<String, Object> err = f.json();
            return CallToolResult.builder().structuredContent(err).addTextContent(text(json, err)).isError(true)
                    .build();
        }
    }

    static String text(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render " + value.getClass().getSimpleName(), e);
        }
    }

    /** {@code in}, counting down {@code ended} when it reports its end or fails. */
    private static InputStream watch(InputStream in, CountDownLatch ended) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return ended(super.read());
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return ended(super.read(b, off, len));
                } catch (IOException e) {
                    ended.countDown();
                    throw e;
                }
            }

            private int ended(int n) {
                if (n < 0) {
                    ended.countDown();
                }
                return n;
            }
        };
    }
}
