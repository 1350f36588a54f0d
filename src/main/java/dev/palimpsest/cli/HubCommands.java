package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.hub.HubConfig;
import dev.palimpsest.hub.HubServer;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.mcp.ToolSet;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code serve} (the team hub) and {@code token} (its bearer tokens): parse, call, print. */
final class HubCommands {
    private HubCommands() {}

    @Command(name = "serve", description = "Serve the store to a team over HTTP until SIGTERM or Ctrl-C: MCP"
            + " (Streamable HTTP) at /mcp, git smart HTTP at /git (clone, fetch, and pushes audited as a pull is),"
            + " /health. Every request but /health needs a token (see token add); writes are signed with the token's"
            + " actor's key from the key home. An access log line per request goes to standard error.")
    static final class Serve extends Context implements Callable<Integer> {
        @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8420",
                description = "The address to listen on (default: ${DEFAULT-VALUE}, loopback only; port 0 picks a free"
                        + " one). Anything but loopback exposes the hub to the network: put TLS in front of it.")
        String listen;

        @Option(names = "--tools", paramLabel = "SET", defaultValue = "core",
                description = "The MCP tools listed: core or all (as for mcp). Default: ${DEFAULT-VALUE}.")
        String tools;

        @Option(names = "--allow-origin", paramLabel = "ORIGIN",
                description = "A browser origin (scheme://host[:port]) allowed to call the hub besides its own;"
                        + " repeatable. Requests with any other Origin get 403.")
        List<String> origins = new ArrayList<>();

        @Option(names = "--run", paramLabel = "R",
                description = "The agent run the hub writes for: a Palimpsest-Run trailer on every commit.")
        String run;

        @Option(names = "--max-body", paramLabel = "BYTES", defaultValue = "4194304",
                description = "The largest MCP request body accepted (413 beyond). Default: ${DEFAULT-VALUE}.")
        int maxBody;

        @Option(names = "--max-push", paramLabel = "BYTES", defaultValue = "1073741824",
                description = "The largest git request body (a push's pack) accepted. Default: ${DEFAULT-VALUE}.")
        long maxPush;

        @Option(names = "--stop-timeout", paramLabel = "SECONDS", defaultValue = "10",
                description = "How long a stop waits for requests in flight. Default: ${DEFAULT-VALUE}.")
        int stopTimeout;

        @Option(names = "--tls-keystore", paramLabel = "FILE.p12",
                description = "Serve HTTPS with the key and certificate chain of this PKCS#12 keystore; its password"
                        + " is read from the environment variable named by --tls-password-env.")
        java.nio.file.Path tlsKeystore;

        @Option(names = "--tls-password-env", paramLabel = "VAR", defaultValue = "PALIMPSEST_TLS_PASSWORD",
                description = "The environment variable holding the keystore's password (never on the command line)."
                        + " Default: ${DEFAULT-VALUE}.")
        String tlsPasswordEnv;

        @Override
        public Integer call() throws Exception {
            int colon = listen.lastIndexOf(':');
            if (colon <= 0) {
                throw new Main.UsageException("--listen: '" + listen + "' is not HOST:PORT");
            }
            String host = listen.substring(0, colon).replaceAll("^\\[(.*)]$", "$1");
            int port;
            try {
                port = Integer.parseInt(listen.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new Main.UsageException("--listen: '" + listen + "' has no port number");
            }
            ToolSet set;
            try {
                set = ToolSet.of(tools);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--tools: " + e.getMessage());
            }
            if (run != null && !Fact.validRun(run)) {
                throw new RejectedException(Rule.INVALID_ARGUMENT, "--run", "'" + run
                        + "' does not match [A-Za-z0-9][A-Za-z0-9._:-]{0,79}");
            }
            HubConfig config;
            try {
                config = new HubConfig(host, port, home(), set, maxBody, maxPush, origins,
                        Duration.ofSeconds(stopTimeout), Optional.ofNullable(run), Optional.empty());
                if (tlsKeystore != null) {
                    String password = System.getenv(tlsPasswordEnv);
                    if (password == null) {
                        throw new Main.UsageException("--tls-keystore: set the keystore's password in $" + tlsPasswordEnv);
                    }
                    config = config.withTls(new HubConfig.Tls(tlsKeystore, password));
                }
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException(e.getMessage());
            }
            Store store;
            try {
                store = Store.open(storePath(), home(), run == null ? storeOptions() : storeOptions().inRun(run));
            } catch (NotFoundException e) {
                throw new Main.NoStoreException(e.getMessage());
            }
            HubServer hub;
            try {
                hub = HubServer.start(store, config, System.err);
            } catch (RuntimeException | NotFoundException e) {
                store.close();
                throw e;
            }
            CountDownLatch closed = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                System.err.println("palimpsest serve: stopping (draining requests for up to " + stopTimeout + " s)");
                if (hub.stop()) {
                    store.close();
                    System.err.println("palimpsest serve: stopped");
                } else {
                    // a call still running holds the store: closing it under the call could save a half-updated index
                    System.err.println("palimpsest serve: stopped; requests still running were cut off and the store"
                            + " is left open (its derived indexes catch up from git at the next open)");
                }
                closed.countDown();
            }, "palimpsest-serve-stop"));
            boolean loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
            if (!loopback && tlsKeystore == null) {
                System.err.println("palimpsest serve: warning: listening on " + host + " without TLS: tokens cross the"
                        + " network in clear (use --tls-keystore or a TLS proxy)");
            }
            System.err.println("palimpsest serve: serving " + store.gitDir() + " at " + hub.url() + " (MCP "
                    + hub.url() + "/mcp, git " + hub.url() + "/git, health " + hub.url() + "/health)");
            closed.await();
            return Main.OK;
        }
    }

    @Command(name = "token", description = "The hub's bearer tokens, kept as hashes in the key home (never in git).",
            subcommands = {TokenAdd.class, TokenList.class, TokenRevoke.class})
    static final class Token implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new Main.UsageException("name a subcommand: token add, token list or token revoke");
        }
    }

    @Command(name = "add", description = "Make a token that acts as ACTOR at the hub and print it once: keep it"
            + " secret (only its hash is kept). Its writes are signed with ACTOR's key from the hub's key home.")
    static final class TokenAdd extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ACTOR", description = "The actor the token acts as.")
        String actor;

        @Option(names = "--read-only", description = "The token may read and fetch, never write or push.")
        boolean readOnly;

        @Option(names = "--expires", paramLabel = "TIME",
                description = "When the token stops working: an ISO-8601 instant or date (UTC), or a duration from"
                        + " now such as 30d, 12h or 90m.")
        String expires;

        @Override
        public Integer call() throws Exception {
            ActorName who = Parse.actor("ACTOR", actor);
            Instant now = Instant.now();
            Optional<Instant> until = expires == null ? Optional.empty() : Optional.of(when(expires, now));
            Tokens.Issued issued = new Tokens(home().dir()).add(who, readOnly, until, now);
            if (!readOnly && !home().hasKey(who)) {
                spec.commandLine().getErr().println("warning: the key home " + home().dir() + " holds no key for "
                        + who + ": the hub will refuse this token's writes until it does");
            }
            if (json()) {
                Map<String, Object> m = row(issued.token());
                m.put("token", issued.secret());
                printJson(m);
            } else {
                out().println(issued.secret());
                spec.commandLine().getErr().println("token " + issued.token().id() + " for " + who
                        + (readOnly ? " (read-only)" : "") + until.map(u -> ", expires " + u).orElse("")
                        + ": shown once, keep it secret");
            }
            return Main.OK;
        }
    }

    @Command(name = "list", description = "List the tokens (id, actor, mode, created, expires); never the secrets.")
    static final class TokenList extends Context implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            List<Tokens.Token> all = new Tokens(home().dir()).list();
            if (json()) {
                printJson(all.stream().map(HubCommands::row).toList());
                return Main.OK;
            }
            Instant now = Instant.now();
            for (Tokens.Token t : all) {
                out().println(t.id() + "  " + t.actor() + "  " + (t.readOnly() ? "read-only" : "read-write") + "  created "
                        + t.created() + "  " + t.expires().map(e -> (t.expiredAt(now) ? "expired " : "expires ") + e)
                                .orElse("never expires"));
            }
            return Main.OK;
        }
    }

    @Command(name = "revoke", description = "Revoke a token by its id: the hub refuses it from its next request on.")
    static final class TokenRevoke extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The token's id (see token list).")
        String id;

        @Override
        public Integer call() throws Exception {
            Tokens.Token t = new Tokens(home().dir()).revoke(id);
            if (json()) {
                printJson(row(t));
            } else {
                out().println("revoked token " + t.id() + " of " + t.actor());
            }
            return Main.OK;
        }
    }

    static Map<String, Object> row(Tokens.Token t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.id());
        m.put("actor", t.actor().value());
        m.put("read_only", t.readOnly());
        m.put("created", t.created().toString());
        m.put("expires", t.expires().map(Instant::toString).orElse(null));
        return m;
    }

    /** An instant, a date (its start, UTC) or a duration from {@code now} (30d, 12h, 90m). */
    static Instant when(String s, Instant now) throws RejectedException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,6})([dhm])").matcher(s);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return now.plus(switch (m.group(2)) {
                case "d" -> Duration.ofDays(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofMinutes(n);
            });
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException e2) {
                throw new RejectedException(Rule.INVALID_ARGUMENT, "--expires", "'" + s
                        + "' is no ISO-8601 instant or date, nor a duration such as 30d, 12h or 90m");
            }
        }
    }
}
