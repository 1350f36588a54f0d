package dev.palimpsest.hub;

import dev.palimpsest.internal.hub.GitHttp;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.mcp.Caller;
import dev.palimpsest.web.WebView;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The filter in front of every hub path: checks {@code Host} (a loopback-bound hub answers only to
 * loopback names, against DNS rebinding) and {@code Origin} (absent, the hub's own, or configured;
 * 403 otherwise), authenticates the token ({@code Authorization: Bearer T}, or the HTTP basic
 * password; 401 with {@code WWW-Authenticate} otherwise: a Bearer challenge at {@code /mcp}, a Basic
 * one elsewhere, so git asks for its password and a browser for the token on a web view page) and
 * leaves the caller in the request attributes the MCP and git servlets read; {@code /health} needs no token. An
 * {@code MCP-Protocol-Version} the MCP transport does not speak is 400. Writes one
 * access-log line per request when it ends (method, path, status, milliseconds, actor: never the
 * token nor the query). Counts the requests in flight so a stop can drain them ({@link #drain}).
 * Thread-safe.
 */
final class Gatekeeper implements Filter {
    static final String HEALTH = "/health";
    static final String GIT = "/git";
    static final String MCP = "/mcp";
    private static final String ACTOR = "dev.palimpsest.hub.actor";

    private final Tokens tokens;
    private final boolean loopbackOnly;
    private final List<String> allowedOrigins;
    private final PrintStream log;
    private final List<String> protocolVersions;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean draining;

    Gatekeeper(Tokens tokens, boolean loopbackOnly, List<String> allowedOrigins, List<String> protocolVersions,
            PrintStream log) {
        this.tokens = tokens;
        this.protocolVersions = List.copyOf(protocolVersions);
        this.loopbackOnly = loopbackOnly;
        this.allowedOrigins = List.copyOf(allowedOrigins);
        this.log = log;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse res = (HttpServletResponse) response;
        long start = System.nanoTime();
        // an MCP event stream (GET /mcp) lasts as long as its session: it is closed at a stop, not drained
        boolean counted = !(req.getMethod().equals("GET") && req.getRequestURI().equals("/mcp"));
        if (counted) {
            inFlight.incrementAndGet();
        }
        boolean async = false;
        try {
            if (draining && !req.getRequestURI().equals(HEALTH)) {
                res.setHeader("Retry-After", "5");
                res.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "the hub is stopping");
            } else if (admitted(req, res)) {
                chain.doFilter(req, res);
            }
        } finally {
            if (req.isAsyncStarted()) {
                async = true;
                req.getAsyncContext().addListener(new AsyncListener() {
                    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

                    private void end() {
                        if (ended.compareAndSet(false, true)) {
                            logLine(req, res, start);
                            if (counted) {
                                done();
                            }
                        }
                    }

                    @Override
                    public void onComplete(AsyncEvent e) {
                        end();
                    }

                    @Override
                    public void onTimeout(AsyncEvent e) {
                        end();
                    }

                    @Override
                    public void onError(AsyncEvent e) {
                        end();
                    }

                    @Override
                    public void onStartAsync(AsyncEvent e) {
                    }
                });
            } else {
                logLine(req, res, start);
            }
            if (counted && !async) {
                done();
            }
        }
    }

    /** The requests in flight now (MCP event streams aside). */
    int inFlight() {
        return inFlight.get();
    }

    private void done() {
        if (inFlight.decrementAndGet() == 0) {
            synchronized (inFlight) {
                inFlight.notifyAll();
            }
        }
    }

    /**
     * Starts draining: from now on every request but {@code /health} is answered 503 with
     * {@code Retry-After}; then waits up to {@code millis} for the requests already admitted (MCP
     * event streams aside) to end. True when none is left.
     */
    boolean drain(long millis) {
        draining = true;
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (inFlight) {
            while (inFlight.get() > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return false;
                }
                try {
                    inFlight.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    private boolean admitted(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = req.getRequestURI();
        if (loopbackOnly && !loopbackName(hostOf(req.getHeader("Host")))) {
            res.sendError(HttpServletResponse.SC_FORBIDDEN, "Host not allowed: this hub answers on loopback names only");
            return false;
        }
        String origin = req.getHeader("Origin");
        if (origin != null && !originAllowed(origin, req)) {
            res.sendError(HttpServletResponse.SC_FORBIDDEN, "Origin not allowed");
            return false;
        }
        if (path.equals(HEALTH)) {
            return true;
        }
        boolean git = path.equals(GIT) || path.startsWith(GIT + "/");
        Optional<String> presented = presented(req.getHeader("Authorization"));
        Optional<Tokens.Token> token = presented.flatMap(p -> tokens.authenticate(p, Instant.now()));
        if (token.isEmpty()) {
            // git clients and browsers (the web view) answer a Basic challenge with the token as password;
            // MCP clients get the Bearer challenge of the MCP authorization spec
            boolean basic = git || !path.equals(MCP);
            res.addHeader("WWW-Authenticate", basic ? "Basic realm=\"palimpsest\", charset=\"UTF-8\""
                    : "Bearer realm=\"palimpsest\"" + (presented.isPresent() ? ", error=\"invalid_token\"" : ""));
            if (!git && basic) {
                res.setHeader("Content-Security-Policy", WebView.CSP);
                res.setHeader("X-Content-Type-Options", "nosniff");
            }
            res.sendError(HttpServletResponse.SC_UNAUTHORIZED,
                    presented.isPresent() ? "the token is unknown, revoked or expired" : "a bearer token is required");
            return false;
        }
        String version = req.getHeader("MCP-Protocol-Version");
        if (!git && version != null && !protocolVersions.contains(version.trim())) {
            res.sendError(HttpServletResponse.SC_BAD_REQUEST, "unsupported MCP-Protocol-Version '" + version
                    + "': this server speaks " + String.join(", ", protocolVersions));
            return false;
        }
        Tokens.Token t = token.get();
        req.setAttribute(ACTOR, t.actor().value() + (t.readOnly() ? " (read-only)" : ""));
        req.setAttribute(Caller.ATTRIBUTE, new Caller(t.actor(), t.readOnly()));
        req.setAttribute(GitHttp.ACCESS, t.readOnly() ? GitHttp.Access.READ : GitHttp.Access.WRITE);
        req.setAttribute(GitHttp.ACTOR, t.actor());
        return true;
    }

    /** The token in an {@code Authorization} header: a bearer token, or a basic password. */
    static Optional<String> presented(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String h = header.trim();
        int sp = h.indexOf(' ');
        if (sp < 0) {
            return Optional.empty();
        }
        String scheme = h.substring(0, sp).toLowerCase(Locale.ROOT);
        String value = h.substring(sp + 1).trim();
        if (scheme.equals("bearer")) {
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
        }
        if (scheme.equals("basic")) {
            try {
                String pair = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
                int colon = pair.indexOf(':');
                return colon < 0 || colon == pair.length() - 1 ? Optional.empty() : Optional.of(pair.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private boolean originAllowed(String origin, HttpServletRequest req) {
        if (allowedOrigins.contains(origin)) {
            return true;
        }
        String host = req.getHeader("Host");
        return host != null && origin.equalsIgnoreCase(req.getScheme() + "://" + host);
    }

    static String hostOf(String hostHeader) {
        if (hostHeader == null) {
            return "";
        }
        try {
            String h = URI.create("http://" + hostHeader.trim()).getHost();
            return h == null ? "" : h.toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    static boolean loopbackName(String host) {
        return host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]") || host.equals("::1")
                || host.endsWith(".localhost");
    }

    private void logLine(HttpServletRequest req, HttpServletResponse res, long start) {
        long ms = (System.nanoTime() - start) / 1_000_000;
        Object actor = req.getAttribute(ACTOR);
        log.println("palimpsest hub: method=" + req.getMethod() + " path=" + req.getRequestURI() + " status="
                + res.getStatus() + " ms=" + ms + " actor=" + (actor == null ? "-" : "\"" + actor + "\""));
    }
}
