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
import io.modelcontextprotocol.server.McpSyncServerExchange;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MCP server over one open store, on its own stdio transport ({@link StdioTransport}) under the
 * official MCP Java SDK's server and session: one JSON-RPC message per line on the output stream,
 * nothing else (diagnostics go to standard error). Every tool calls the public API and returns the
 * API's answer as structured content (the CLI's {@code --json} fields); a failure is a tool error
 * ({@code isError}) carrying {@code {"error": {exit, kind, message, violations}}}, and the server
 * goes on answering; a malformed line gets its JSON-RPC error and the server goes on reading. Every
 * write is one signed commit by the server's actor through the store's gate. Beside the tools of its
 * {@link ToolSet} it serves the fact resources ({@link FactResources}), the prompts of the common
 * flows ({@link Prompts}) and completions of their arguments ({@link Completions}). The session ends when
 * the input ends or fails, the output fails, or the process that started this one is gone.
 *
 * <p>Thread-safe: calls run concurrently; the store serialises writers.
 */
public final class PalimpsestMcpServer {
    /**
     * Said once for every tool: how to work with the store, the shared arguments, and the shape of
     * a failed call. The tools' own descriptions assume it.
     */
    static final String INSTRUCTIONS = "Palimpsest is a git-backed temporal memory: every fact is a versioned file,"
            + " every write one signed commit by you, and history is never rewritten. Start with brief (or search)"
            + " and cite the fact ids you use. Before writing about an entity, ask current and dead_ends. Record a"
            + " claim with its source fact and a verbatim quote; correct with supersede, never by deleting; retract"
            + " with dry_run first to see the cascade.\n"
            + "Shared arguments: at = the commit to read as of, any revision git understands (a commit id,"
            + " main~2; default: main's tip); answers are exactly what was true at that commit. A time instead"
            + " (ISO-8601 instant or date, UTC) reads as of it: the last commit dated at or before it. valid ="
            + " when a fact was true in the world, FROM/UNTIL (half-open; either side may be empty); valid_at ="
            + " ask in valid time. id, ids = fact"
            + " ids (pmid-1, claim-3fa2c1d0e9b8). refs = cited fact ids: ID (its version at the write is pinned) or"
            + " ID@COMMIT (as read at that commit). receipts = the evidence of a merge, edge or summary: alternative"
            + " bundles, each sufficient on its own, [[ID, ID@COMMIT], [ID]], members pinned like refs; a summary's"
            + " receipts are one flat receipt (ingest writes per-sentence ones). subject = an entity, matched by its normalised key (case,"
            + " punctuation and spacing do not matter: 'Auth Service' is 'auth-service'). A quote is verbatim,"
            + " 12+ characters, and checked against the cited version before anything is written: a miss is rule"
            + " quote-not-found. sensitive or retain_until (ISO-8601 instant) seal personal data so forget can"
            + " erase it later; a fact citing sealed content is sealed too unless plaintext is set.\n"
            + "A failed call is a tool error whose text is {\"error\": {exit, kind, message, violations}}: kind"
            + " not-found (exit 4), rejected (5: every violation with its rule and subject; nothing was written),"
            + " conflict (7: retry), internal (1). Pin what you read with palimpsest://fact/{id}@{commit}.";
    /**
     * How long calls still running may take once the input ended (the client can still read their
     * answers), short enough that the server is gone within a second of standard input closing.
     */
    static final long FINISH_AFTER_INPUT_MILLIS = 800;
    /** How long calls still running may take once nobody can read their answers (parent gone, output failed). */
    static final long FINISH_OTHERWISE_MILLIS = 500;
    private static final long PARENT_POLL_MILLIS = 200;
    private static final Logger log = LoggerFactory.getLogger(PalimpsestMcpServer.class);
    /** The tools of {@link ToolSet#CORE}. */
    static final Set<String> CORE = Set.of("brief", "search", "show", "history", "current", "dead_ends",
            "contradictions", "claim", "assert", "revise", "supersede", "retract");

    private final McpSyncServer server;
    private final StdioTransport transport;
    private final Optional<ProcessHandle> parent;
    private final Thread warmUp;

    private PalimpsestMcpServer(McpSyncServer server, StdioTransport transport, Optional<ProcessHandle> parent,
            Thread warmUp) {
        this.server = server;
        this.transport = transport;
        this.parent = parent;
        this.warmUp = warmUp;
    }

    /**
     * Starts serving {@code store} on {@code in} and {@code out} with the {@link ToolSet#CORE core}
     * tools; see {@link #start(Store, ActorName, String, ToolSet, InputStream, OutputStream)}.
     */
    public static PalimpsestMcpServer start(Store store, ActorName actor, String run, InputStream in, OutputStream out) {
        return start(store, actor, run, ToolSet.CORE, in, out);
    }

    /**
     * Starts serving {@code store} on {@code in} and {@code out}, listing the tools of {@code set}
     * beside the fact resources, the prompts and completions: writes are signed by {@code actor}
     * and the store's options carry the {@code run} (null: none), which also becomes the run of the
     * claims and files written. The other arguments must not be null.
     */
    public static PalimpsestMcpServer start(Store store, ActorName actor, String run, ToolSet set, InputStream in,
            OutputStream out) {
        return start(store, actor, run, set, List.of(), in, out);
    }

    /**
     * Starts serving as {@link #start(Store, ActorName, String, ToolSet, InputStream, OutputStream)}
     * does, with {@code judges}: the first reviews claims for {@code verify} and is the oracle of
     * {@code rederive_audit}, a second is that audit's second oracle (empty: {@code verify} answers
     * judge-unavailable and the audit grades only entailed edges).
     */
    public static PalimpsestMcpServer start(Store store, ActorName actor, String run, ToolSet set,
            List<dev.palimpsest.model.Judge> judges, InputStream in, OutputStream out) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(judges, "judges");
        Thread warmUp = warmUp(store);
        ObjectMapper json = new ObjectMapper();
        Session session = new Session(store, actor, run, judges);
        StdioTransport transport = new StdioTransport(json, in, out);
        McpSyncServer server = configure(McpServer.sync(transport), session, set, json).build();
        return new PalimpsestMcpServer(server, transport, ProcessHandle.current().parent(), warmUp);
    }

    /**
     * Puts the one implementation of the tools, resources, prompts and completions on {@code spec},
     * whatever its transport: stdio ({@link #start}) or Streamable HTTP ({@link McpHttpServer}).
     */
    static <S extends McpServer.SyncSpecification<S>> McpServer.SyncSpecification<S> configure(
            McpServer.SyncSpecification<S> spec, Session session, ToolSet set, ObjectMapper json) {
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (ToolDef d : tools(session, set)) {
            tools.add(spec(d, json));
        }
        return spec.serverInfo("palimpsest", "0.1.0")
                .instructions(INSTRUCTIONS)
                .jsonMapper(new JacksonMcpJsonMapper(json))
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(json))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).prompts(false)
                        .completions().build())
                .tools(tools)
                .resourceTemplates(FactResources.templates(session, json))
                .prompts(Prompts.all())
                .completions(Completions.all(session));
    }

    /**
     * Opens and catches up the search index on a daemon thread while the server starts (loading
     * Lucene and reading the index take longer than the rest of the start), so the first search finds
     * it ready; a failure is left for the first search to meet and report.
     */
    static Thread warmUp(Store store) {
        Thread t = new Thread(() -> {
            try {
                store.recall().prepare();
            } catch (RuntimeException e) {
                log.debug("warming up the search index failed; the first search tries again", e);
            }
        }, "palimpsest-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Serves the {@link ToolSet#CORE core} tools until the session ends; see
     * {@link #serve(Store, ActorName, String, ToolSet, InputStream, OutputStream)}.
     */
    public static boolean serve(Store store, ActorName actor, String run, InputStream in, OutputStream out)
            throws InterruptedException {
        return serve(store, actor, run, ToolSet.CORE, in, out);
    }

    /**
     * Serves the tools of {@code set} until the session ends (see {@link #awaitEnd()}), then closes
     * it (see {@link #close()}); true when no call was left running, so the store may be closed.
     */
    public static boolean serve(Store store, ActorName actor, String run, ToolSet set, InputStream in, OutputStream out)
            throws InterruptedException {
        return serve(store, actor, run, set, List.of(), in, out);
    }

    /** Serves as {@link #serve(Store, ActorName, String, ToolSet, InputStream, OutputStream)} does, with {@code judges}. */
    public static boolean serve(Store store, ActorName actor, String run, ToolSet set,
            List<dev.palimpsest.model.Judge> judges, InputStream in, OutputStream out) throws InterruptedException {
        PalimpsestMcpServer s = start(store, actor, run, set, judges, in, out);
        s.awaitEnd();
        return s.close();
    }

    /**
     * Blocks until the session ends: the input ends or fails, the output fails, {@link #close()} is
     * called, or the process that started this one is gone (checked every 200 ms: it is no longer
     * alive, or this process was handed to another parent).
     */
    public void awaitEnd() throws InterruptedException {
        while (!transport.awaitEnd(PARENT_POLL_MILLIS)) {
            if (orphaned()) {
                log.warn("the process that started this server (pid {}) is gone: stopping", parent.get().pid());
                transport.end(StdioTransport.End.PARENT_GONE);
            }
        }
    }

    /**
     * Ends the session: calls still running may finish (for up to 0.8 s when the input ended, since the
     * client can still read their answers; 0.5 s otherwise), queued answers are written, and the SDK's
     * session is closed. True when no call was left running and the search index warm-up has ended
     * (it shares the same time), so the store may be closed.
     */
    public boolean close() throws InterruptedException {
        transport.end(StdioTransport.End.CLOSED);
        boolean inputEnded = transport.ended().orElseThrow() == StdioTransport.End.INPUT_CLOSED;
        long budget = inputEnded ? FINISH_AFTER_INPUT_MILLIS : FINISH_OTHERWISE_MILLIS;
        long deadline = System.nanoTime() + budget * 1_000_000;
        boolean idle = transport.awaitIdle(budget);
        warmUp.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        idle = idle && !warmUp.isAlive();
        if (!idle) {
            log.warn("{} call(s){} still running at exit: they are abandoned and the store is left open (its derived"
                    + " indexes catch up from git at the next open)", transport.running(),
                    warmUp.isAlive() ? " and the search index warm-up" : "");
        }
        server.closeGracefully();
        return idle;
    }

    private boolean orphaned() {
        if (parent.isEmpty()) {
            return false;
        }
        long now = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        return now != parent.get().pid() || !parent.get().isAlive();
    }

    /** The tools of {@code set}, in the order they are listed: recall, read, write, review, erasure. */
    static List<ToolDef> tools(Session s, ToolSet set) {
        List<ToolDef> all = new ArrayList<>(RecallTools.all(s));
        all.addAll(ClaimTools.recall(s));
        all.addAll(ReadTools.all(s));
        all.add(ClaimTools.claim(s));
        all.addAll(WriteTools.all(s));
        all.addAll(ReceiptTools.writes(s));
        all.addAll(FileReviewTools.all(s));
        all.addAll(ReceiptTools.reads(s));
        all.addAll(ForgetTools.all(s));
        return set == ToolSet.ALL ? all : all.stream().filter(t -> CORE.contains(t.name())).toList();
    }

    /** The {@code tools/list} answer for {@code set}, as the server writes it: what a client loads into its context. */
    static String toolsList(Session s, ToolSet set, ObjectMapper json) {
        List<McpSchema.Tool> listed = tools(s, set).stream().map(d -> spec(d, json).tool()).toList();
        try {
            return new JacksonMcpJsonMapper(json).writeValueAsString(new McpSchema.ListToolsResult(listed, null));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot render tools/list", e);
        }
    }

    private static SyncToolSpecification spec(ToolDef d, ObjectMapper json) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(d.name()).title(d.title()).description(d.description())
                .inputSchema(d.input()).outputSchema(d.output())
                .annotations(new McpSchema.ToolAnnotations(null, d.readOnly(), d.readOnly() ? null : d.destructive(),
                        null, d.openWorld(), null))
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, req) -> callAs(exchange, d, req.arguments(), json))
                .build();
    }

    /**
     * Runs one call as the caller its transport named (over HTTP: the token's actor, bound for the
     * call's length), or as the session's own actor when the transport named none (stdio). A
     * read-only caller asking a write tool gets a tool error, kind {@code rejected}, rule
     * {@code read-only-token}, and nothing is written.
     */
    static CallToolResult callAs(McpSyncServerExchange exchange, ToolDef d, Map<String, Object> arguments,
            ObjectMapper json) {
        Object named = exchange == null ? null : exchange.transportContext().get(Caller.ATTRIBUTE);
        if (!(named instanceof Caller caller)) {
            return call(d, arguments, json);
        }
        if (caller.readOnly() && !d.readOnly()) {
            return call(new ToolDef(d.name(), d.title(), d.description(), d.input(), d.output(), d.readOnly(),
                    d.destructive(), false, d.openWorld(), a -> {
                        throw new RejectedException(Rule.READ_ONLY_TOKEN, "actor " + caller.actor(),
                                "holds a read-only token: " + d.name() + " writes, so it was not run");
                    }), arguments, json);
        }
        return Session.as(caller, () -> call(d, arguments, json));
    }

    /**
     * Runs one call; whatever goes wrong, an {@link Error} such as a stack overflow too, becomes a tool
     * error, never an exception out of the server (the SDK's scheduler would drop a fatal error and
     * leave the request unanswered).
     */
    static CallToolResult call(ToolDef d, Map<String, Object> arguments, ObjectMapper json) {
        try {
            Map<String, Object> out = d.handler().call(new Args(arguments));
            String text;
            if (d.prose()) {
                out = new LinkedHashMap<>(out);
                text = (String) out.remove(ToolDef.TEXT);
            } else {
                text = text(json, out);
            }
            return CallToolResult.builder().structuredContent(out).addTextContent(text).isError(false).build();
        } catch (Exception | Error e) {
            ToolFailure f = ToolFailure.of(e);
            if (f.exit() == 1) {
                log.error("internal error in {}: {}", d.name(), f.message(), e);
            }
            // text only: a structuredContent must match the tool's output schema, and clients that check it
            // (the TypeScript SDK's) would throw away the message instead of showing it
            return CallToolResult.builder().addTextContent(text(json, f.json())).isError(true).build();
        }
    }

    static String text(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render " + value.getClass().getSimpleName(), e);
        }
    }
}
