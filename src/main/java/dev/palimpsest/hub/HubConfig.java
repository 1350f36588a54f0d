package dev.palimpsest.hub;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.mcp.ToolSet;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a hub serves: the address it listens on ({@code host}, {@code port}; port 0 picks a free
 * one), the key home holding the actors' secret keys and the token file, the MCP tools listed, the
 * largest MCP request body and git push accepted, the origins browsers may call from beside the
 * hub's own, how long a stop waits for requests in flight, and the run written into the claims and
 * files MCP calls write, and TLS (empty: plain HTTP). Immutable; no field is null.
 */
public record HubConfig(String host, int port, KeyHome home, ToolSet tools, int maxMcpBodyBytes, long maxPushBytes,
        List<String> allowedOrigins, Duration stopTimeout, Optional<String> run, Optional<Tls> tls) {
    /**
     * HTTPS from a PKCS#12 keystore holding the hub's key and certificate chain, opened with
     * {@code password}. Immutable; its string form never shows the password.
     */
    public record Tls(java.nio.file.Path keystore, String password) {
        public Tls {
            Objects.requireNonNull(keystore, "keystore");
            Objects.requireNonNull(password, "password");
            if (!java.nio.file.Files.isRegularFile(keystore)) {
                throw new IllegalArgumentException("the TLS keystore " + keystore + " is not a readable file");
            }
        }

        @Override
        public String toString() {
            return "Tls[keystore=" + keystore + ", password=(hidden)]";
        }
    }

    /** The default address: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8420;
    public static final int DEFAULT_MAX_MCP_BODY = 4 << 20;
    public static final long DEFAULT_MAX_PUSH = 1L << 30;
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);

    public HubConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(tls, "tls");
        allowedOrigins = List.copyOf(allowedOrigins);
        if (host.isBlank()) {
            throw new IllegalArgumentException("the listen host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not in 0..65535");
        }
        if (maxMcpBodyBytes <= 0 || maxPushBytes <= 0) {
            throw new IllegalArgumentException("body limits must be positive");
        }
        if (stopTimeout.isNegative()) {
            throw new IllegalArgumentException("the stop timeout is negative");
        }
        for (String o : allowedOrigins) {
            if (!o.matches("https?://[^/\\s]+")) {
                throw new IllegalArgumentException("origin '" + o + "' is not scheme://host[:port]");
            }
        }
    }

    /** Loopback on {@code port}, core tools and the default limits. */
    public static HubConfig loopback(int port, KeyHome home) {
        return new HubConfig(DEFAULT_HOST, port, home, ToolSet.CORE, DEFAULT_MAX_MCP_BODY, DEFAULT_MAX_PUSH, List.of(),
                DEFAULT_STOP_TIMEOUT, Optional.empty(), Optional.empty());
    }

    /** This configuration listening on {@code host}:{@code port}. */
    public HubConfig listening(String host, int port) {
        return new HubConfig(host, port, home, tools, maxMcpBodyBytes, maxPushBytes, allowedOrigins, stopTimeout, run, tls);
    }

    /** This configuration listing {@code set}. */
    public HubConfig withTools(ToolSet set) {
        return new HubConfig(host, port, home, set, maxMcpBodyBytes, maxPushBytes, allowedOrigins, stopTimeout, run, tls);
    }

    /** This configuration also accepting browser calls from {@code origins}. */
    public HubConfig allowingOrigins(List<String> origins) {
        return new HubConfig(host, port, home, tools, maxMcpBodyBytes, maxPushBytes, origins, stopTimeout, run, tls);
    }

    /** This configuration serving HTTPS with {@code tls}. */
    public HubConfig withTls(Tls tls) {
        return new HubConfig(host, port, home, tools, maxMcpBodyBytes, maxPushBytes, allowedOrigins, stopTimeout, run,
                Optional.of(tls));
    }

    /** This configuration with body limits {@code mcp} (one MCP message) and {@code push} (one git request). */
    public HubConfig limiting(int mcp, long push) {
        return new HubConfig(host, port, home, tools, mcp, push, allowedOrigins, stopTimeout, run, tls);
    }
}
