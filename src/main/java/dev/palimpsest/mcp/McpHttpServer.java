package dev.palimpsest.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.Judge;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The MCP server of {@link PalimpsestMcpServer} (the same tools, resources, prompts and completions)
 * on the official SDK's Streamable HTTP transport: a servlet answering POST, GET and DELETE at
 * {@value #ENDPOINT}, with sessions ({@code Mcp-Session-Id}), SSE answers, 202 for notifications and
 * 404 for an unknown session. The servlet's container authenticates each request and leaves its
 * {@link Caller} in the request attribute {@link Caller#ATTRIBUTE}: every call is signed by that
 * caller's actor, and a read-only caller's write calls are refused. Thread-safe.
 */
public final class McpHttpServer implements AutoCloseable {
    /** The path the servlet answers at. */
    public static final String ENDPOINT = "/mcp";

    private final HttpServletStreamableServerTransportProvider transport;
    private final McpSyncServer server;

    private McpHttpServer(HttpServletStreamableServerTransportProvider transport, McpSyncServer server) {
        this.transport = transport;
        this.server = server;
    }

    /**
     * A server over {@code store} listing the tools of {@code set}; {@code run}, when present, is the
     * run of the claims and files written (the store's options carry its trailer); {@code judges} as
     * for {@link PalimpsestMcpServer#start}; a request body above {@code maxRequestBytes} is refused
     * (413). Arguments must not be null.
     *
     * @throws IllegalArgumentException when {@code maxRequestBytes} is not positive
     */
    public static McpHttpServer start(Store store, Optional<String> run, ToolSet set, List<Judge> judges,
            int maxRequestBytes) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(judges, "judges");
        if (maxRequestBytes <= 0) {
            throw new IllegalArgumentException("maxRequestBytes must be positive, not " + maxRequestBytes);
        }
        ObjectMapper json = new ObjectMapper();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(new JacksonMcpJsonMapper(json))
                .mcpEndpoint(ENDPOINT)
                .maxRequestSize(maxRequestBytes)
                .contextExtractor(request -> request.getAttribute(Caller.ATTRIBUTE) instanceof Caller c
                        ? McpTransportContext.create(Map.of(Caller.ATTRIBUTE, c)) : McpTransportContext.EMPTY)
                .build();
        Session session = Session.perCaller(store, run.orElse(null), judges);
        McpSyncServer server = PalimpsestMcpServer.configure(McpServer.sync(transport), session, set, json).build();
        return new McpHttpServer(transport, server);
    }

    /** The servlet to mount at {@value #ENDPOINT} (it checks that the request path ends with it). */
    public HttpServlet servlet() {
        return transport;
    }

    /**
     * The protocol versions the transport speaks: a request's {@code MCP-Protocol-Version} header,
     * when present, must name one of them (the container answers 400 otherwise).
     */
    public List<String> protocolVersions() {
        return List.copyOf(transport.protocolVersions());
    }

    /** Closes every session and the server; calls still running are not waited for. Idempotent. */
    @Override
    public void close() {
        server.closeGracefully();
    }
}
