package dev.palimpsest.hub;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.hub.GitHttp;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.mcp.McpHttpServer;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.web.WebView;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.SizeLimitHandler;

/**
 * The team hub: one open store served over HTTP in an embedded Jetty, MCP Streamable HTTP at
 * {@code /mcp} (the stdio server's tools, each call signed by its token's actor), git smart HTTP at
 * {@code /git} (pushes audited as a pull is), {@code /health} and, at every other path, the read-only
 * web view ({@link WebView}: timeline, facts, entities, search, provenance, status); every path but
 * {@code /health} needs a token from the key home's token file ({@link Gatekeeper}). {@link #stop()}
 * stops accepting, lets requests in flight finish within the configured timeout and closes the MCP
 * sessions and the repository; the store stays the caller's to close. Library types (Jetty, JGit) never leave this
 * class. Thread-safe.
 */
public final class HubServer implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HubServer.class);

    private final Server jetty;
    private final McpHttpServer mcp;
    private final GitHttp git;
    private final HubConfig config;
    private final Health health;
    private final Gatekeeper gatekeeper;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);

    private HubServer(Server jetty, McpHttpServer mcp, GitHttp git, HubConfig config, Health health,
            Gatekeeper gatekeeper) {
        this.gatekeeper = gatekeeper;
        this.jetty = jetty;
        this.mcp = mcp;
        this.git = git;
        this.config = config;
        this.health = health;
    }

    /**
     * Starts serving {@code store} as {@code config} says, writing the access log to {@code log}.
     *
     * @throws NotFoundException when the store's repository is gone
     * @throws IllegalStateException when the address cannot be bound (in use, not local), naming it
     */
    public static HubServer start(Store store, HubConfig config, PrintStream log) throws NotFoundException {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(log, "log");
        boolean loopback;
        try {
            loopback = InetAddress.getByName(config.host()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve the listen host '" + config.host() + "'", e);
        }
        GitHttp git = GitHttp.open(store.gitDir(), true,
                (commit, actor) -> store.replication().adopt(dev.palimpsest.model.CommitId.of(commit.name()), actor,
                        dev.palimpsest.model.TransferProgress.none()),
                range -> LOG.info("accepted a push: {}", range));
        McpHttpServer mcp = McpHttpServer.start(store, config.run(), config.tools(), List.of(), config.maxMcpBodyBytes());
        Health health = new Health(store);
        Server jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setDelayDispatchUntilContent(false); // a request counts as in flight (for a stop's drain) from its headers on
        ServerConnector connector;
        if (config.tls().isPresent()) {
            org.eclipse.jetty.util.ssl.SslContextFactory.Server ssl = new org.eclipse.jetty.util.ssl.SslContextFactory.Server();
            ssl.setKeyStoreType("PKCS12");
            ssl.setKeyStorePath(config.tls().get().keystore().toString());
            ssl.setKeyStorePassword(config.tls().get().password());
            org.eclipse.jetty.server.SecureRequestCustomizer secure = new org.eclipse.jetty.server.SecureRequestCustomizer();
            secure.setSniHostCheck(false); // clients may name the hub by address; the certificate is theirs to check
            http.addCustomizer(secure);
            connector = new ServerConnector(jetty, new org.eclipse.jetty.server.SslConnectionFactory(ssl, "http/1.1"),
                    new HttpConnectionFactory(http));
        } else {
            connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        }
        connector.setHost(config.host());
        connector.setPort(config.port());
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder mcpHolder = new ServletHolder("mcp", mcp.servlet());
        mcpHolder.setAsyncSupported(true);
        context.addServlet(mcpHolder, McpHttpServer.ENDPOINT);
        context.addServlet(new ServletHolder("git", git.servlet()), Gatekeeper.GIT + "/*");
        context.addServlet(new ServletHolder("health", health), Gatekeeper.HEALTH);
        context.addServlet(new ServletHolder("web", new WebView(store, health::indexState)), "/"); // every other path
        Gatekeeper gatekeeper = new Gatekeeper(new Tokens(config.home().dir()), loopback, config.allowedOrigins(),
                mcp.protocolVersions(), log);
        FilterHolder gate = new FilterHolder(gatekeeper);
        gate.setAsyncSupported(true);
        context.addFilter(gate, "/*", EnumSet.of(DispatcherType.REQUEST));
        GracefulHandler graceful = new GracefulHandler(new SizeLimitHandler(config.maxPushBytes(), -1));
        ((SizeLimitHandler) graceful.getHandler()).setHandler(context);
        jetty.setHandler(graceful);
        jetty.setStopTimeout(config.stopTimeout().toMillis());
        jetty.setStopAtShutdown(false);
        try {
            jetty.start();
        } catch (Exception e) {
            mcp.close();
            git.close();
            health.awaitWarmUp(config.stopTimeout().toMillis());
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // nothing more to release
            }
            throw new IllegalStateException("cannot serve on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        health.ready();
        return new HubServer(jetty, mcp, git, config, health, gatekeeper);
    }

    /** The port the hub listens on (the one picked when the configuration said 0). */
    public int port() {
        for (var c : jetty.getConnectors()) {
            if (c instanceof ServerConnector sc) {
                return sc.getLocalPort();
            }
        }
        throw new IllegalStateException("the hub has no connector");
    }

    /** The requests in flight now, MCP event streams aside (for tests and health). */
    int inFlight() {
        return gatekeeper.inFlight();
    }

    /** The hub's base URL, e.g. {@code http://127.0.0.1:8420} ({@code https} with TLS). */
    public String url() {
        String h = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return (config.tls().isPresent() ? "https://" : "http://") + h + ":" + port();
    }

    /**
     * Stops: new requests are answered 503 ({@code /health} says {@code stopping}), the requests
     * in flight get up to the configured stop timeout to finish, then the MCP sessions and their
     * event streams are closed, the server stops and the repository is closed. Idempotent; true
     * when nothing was cut off.
     */
    public boolean stop() {
        if (!stopped.compareAndSet(false, true)) {
            awaitStopped();
            return true;
        }
        health.stopping();
        boolean clean = true;
        try {
            // new requests get 503; the ones admitted finish (MCP calls, fetches, pushes), then the MCP
            // sessions and their event streams close, then the server stops
            clean = gatekeeper.drain(config.stopTimeout().toMillis());
            if (!clean) {
                LOG.warn("requests still running after {} ms are cut off", config.stopTimeout().toMillis());
            }
            mcp.close();
            jetty.stop();
        } catch (Exception e) {
            clean = false;
            LOG.warn("the hub did not stop cleanly: {}", e.getMessage());
        } finally {
            git.close();
            if (!health.awaitWarmUp(config.stopTimeout().toMillis())) {
                clean = false;
                LOG.warn("the search index warm-up is still running at stop");
            }
            done.countDown();
        }
        return clean;
    }

    /** Blocks until {@link #stop()} has finished. */
    public void awaitStopped() {
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** {@code /health}: {@code {ready, head, index}}; 200 when ready, 503 while starting or stopping. */
    static final class Health extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private static final ObjectMapper JSON = new ObjectMapper();
        private final transient Store store;
        private final transient AtomicReference<String> state = new AtomicReference<>("starting");
        private final transient AtomicReference<String> index = new AtomicReference<>("warming");
        private final transient Thread warmUp;

        Health(Store store) {
            this.store = store;
            Thread t = new Thread(() -> {
                try {
                    store.recall().prepare();
                    index.set("ready");
                } catch (RuntimeException e) {
                    index.set("failed: " + e.getMessage());
                }
            }, "palimpsest-hub-warm-up");
            t.setDaemon(true);
            t.start();
            this.warmUp = t;
        }

        /**
         * Waits up to {@code millis} for the search index warm-up (native embedder code must not be
         * running when the store closes or the process exits); true when it has ended.
         */
        boolean awaitWarmUp(long millis) {
            try {
                warmUp.join(Math.max(1, millis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return !warmUp.isAlive();
        }

        void ready() {
            state.set("ready");
        }

        /** How the search index stands: {@code warming}, {@code ready} or {@code failed: ...}. */
        String indexState() {
            return index.get();
        }

        void stopping() {
            state.set("stopping");
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
            boolean ready = state.get().equals("ready");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ready", ready);
            m.put("state", state.get());
            String head;
            try {
                head = store.head().hex();
            } catch (RuntimeException e) {
                head = null;
            }
            m.put("head", head);
            m.put("index", index.get());
            res.setStatus(ready ? 200 : 503);
            res.setContentType("application/json");
            res.setCharacterEncoding("UTF-8");
            res.setHeader("Cache-Control", "no-store");
            res.getWriter().write(JSON.writeValueAsString(m));
        }
    }
}
