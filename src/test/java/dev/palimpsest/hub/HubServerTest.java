package dev.palimpsest.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Rule;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub in process on a free loopback port, spoken to with a raw HTTP client as the MCP
 * Streamable HTTP transport and its authentication say: no token is 401 with a challenge, a foreign
 * Origin or Host is 403, /health answers without a token, a session is made by initialize and named
 * by Mcp-Session-Id, a notification is 202, an unknown session is 404, each call is signed by its
 * token's actor, and a read-only token's write is a tool error (rule read-only-token) that writes
 * nothing. The access log names the actor and never the token.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HubServerTest {
    private static final ActorName BOB = ActorName.of("bob");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private Store store;
    private HubServer hub;
    private String alice;
    private String bobToken;
    private String readOnly;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    void startAHub() throws Exception {
        store = TestStores.init(tmp);
        KeyHome home = new KeyHome(tmp.resolve("home"));
        store.begin(TestStores.ALICE).addKey(BOB, home.generateKey(BOB), KeyRole.AGENT).commit();
        Tokens tokens = new Tokens(home.dir());
        alice = tokens.add(TestStores.ALICE, false, Optional.empty(), Instant.now()).secret();
        bobToken = tokens.add(BOB, false, Optional.empty(), Instant.now()).secret();
        readOnly = tokens.add(BOB, true, Optional.empty(), Instant.now()).secret();
        hub = HubServer.start(store, HubConfig.loopback(0, home), new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterAll
    void stopTheHub() {
        if (hub != null) {
            hub.stop();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void healthAnswersWithoutATokenWithReadinessHeadAndIndex() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/health")).GET().build());
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode h = JSON.readTree(r.body());
        assertThat(h.get("ready").asBoolean()).isTrue();
        assertThat(h.get("head").asText()).hasSize(40);
        assertThat(h.get("index").asText()).isIn("warming", "ready");
    }

    @Test
    void mcpWithoutATokenIs401WithABearerChallenge() throws Exception {
        HttpResponse<String> r = send(post(null, null, initialize()));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        HttpResponse<String> bad = send(post("pal_00000000_" + "A".repeat(43), null, initialize()));
        assertThat(bad.statusCode()).isEqualTo(401);
        assertThat(bad.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                v -> assertThat(v).contains("invalid_token"));
    }

    @Test
    void aForeignOriginOrHostIs403EvenWithAToken() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/mcp")).header("Authorization", "Bearer " + alice)
                .header("Origin", "http://evil.example").header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(initialize())).build());
        assertThat(r.statusCode()).isEqualTo(403);
        HttpResponse<String> own = send(HttpRequest.newBuilder(uri("/health"))
                .header("Origin", "http://127.0.0.1:" + hub.port()).GET().build());
        assertThat(own.statusCode()).isEqualTo(200);
    }

    @Test
    void anMcpSessionListsToolsAndWritesSignedByTheTokensActor() throws Exception {
        Session s = open(bobToken);
        HttpResponse<String> list = send(s.post(rpc(2, "tools/list", Map.of())));
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode tools = message(list).get("result").get("tools");
        assertThat(tools.findValuesAsText("name")).contains("brief", "assert", "search");

        CommitId before = store.head();
        HttpResponse<String> call = send(s.post(rpc(3, "tools/call", Map.of("name", "assert", "arguments",
                Map.of("id", "hub-note-1", "kind", "source", "body", "Written over HTTP by bob.")))));
        JsonNode result = message(call).get("result");
        assertThat(result.get("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(store.head()).isNotEqualTo(before);
        assertThat(store.log(1).get(0).actor()).isEqualTo(BOB.value());
        assertThat(((dev.palimpsest.model.FactRead.Found) store.read(dev.palimpsest.model.FactId.of("hub-note-1"))).fact().body())
                .contains("over HTTP");
    }

    @Test
    void aReadOnlyTokenCanReadButItsWriteIsAToolErrorThatWritesNothing() throws Exception {
        Session s = open(readOnly);
        HttpResponse<String> brief = send(s.post(rpc(2, "tools/call", Map.of("name", "search", "arguments",
                Map.of("query", "anything")))));
        assertThat(message(brief).get("result").get("isError").asBoolean()).isFalse();
        CommitId before = store.head();
        HttpResponse<String> call = send(s.post(rpc(3, "tools/call", Map.of("name", "assert", "arguments",
                Map.of("id", "hub-note-ro", "kind", "source", "body", "Must not be written.")))));
        JsonNode result = message(call).get("result");
        assertThat(result.get("isError").asBoolean()).isTrue();
        assertThat(result.toString()).contains(Rule.READ_ONLY_TOKEN.id());
        assertThat(store.head()).isEqualTo(before);
    }

    @Test
    void aNotificationIs202AnUnsupportedProtocolVersionIs400AndAnUnknownSessionIs404() throws Exception {
        Session s = open(alice);
        HttpResponse<String> note = send(s.post(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "method",
                "notifications/initialized"))));
        assertThat(note.statusCode()).isEqualTo(202);
        Session wrongVersion = new Session(alice, s.id, "1999-01-01");
        assertThat(send(wrongVersion.post(rpc(8, "tools/list", Map.of()))).statusCode()).isEqualTo(400);
        Session unknown = new Session(alice, "no-such-session", s.version);
        HttpResponse<String> r = send(unknown.post(rpc(9, "tools/list", Map.of())));
        assertThat(r.statusCode()).isEqualTo(404);
    }

    @Test
    void theAccessLogNamesTheActorAndNeverTheToken() throws Exception {
        open(alice);
        String text = log.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("method=POST path=/mcp status=200").contains("actor=\"alice\"");
        assertThat(text).doesNotContain(alice).doesNotContain(bobToken).doesNotContain(readOnly);
    }

    @Test
    void aRevokedOrExpiredTokenIs401FromTheNextRequestOn() throws Exception {
        Tokens tokens = new Tokens(tmp.resolve("home"));
        Tokens.Issued issued = tokens.add(TestStores.ALICE, false, Optional.empty(), Instant.now());
        assertThat(send(post(issued.secret(), null, initialize())).statusCode()).isEqualTo(200);
        tokens.revoke(issued.token().id());
        assertThat(send(post(issued.secret(), null, initialize())).statusCode()).isEqualTo(401);
        Tokens.Issued brief = tokens.add(TestStores.ALICE, false, Optional.of(Instant.now().plusMillis(300)), Instant.now());
        Thread.sleep(400);
        assertThat(send(post(brief.secret(), null, initialize())).statusCode()).isEqualTo(401);
    }

    /** An initialized session: its id and the negotiated protocol version. */
    private record Session(String token, String id, String version) {
        HttpRequest post(String body) {
            return HttpRequest.newBuilder(URI.create(base + "/mcp")).header("Authorization", "Bearer " + token)
                    .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                    .header("Mcp-Session-Id", id).header("MCP-Protocol-Version", version)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        }

        static String base;
    }

    private Session open(String token) throws Exception {
        Session.base = "http://127.0.0.1:" + hub.port();
        HttpResponse<String> init = send(post(token, null, initialize()));
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        String version = message(init).get("result").get("protocolVersion").asText();
        Session s = new Session(token, id, version);
        assertThat(send(s.post(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"))))
                .statusCode()).isEqualTo(202);
        return s;
    }

    private static String initialize() throws Exception {
        return rpc(1, "initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "hub-test", "version", "1")));
    }

    private static String rpc(int id, String method, Map<String, Object> params) throws Exception {
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
    }

    /** The JSON-RPC message of an answer: the body itself, or the data of its first SSE message event. */
    private static JsonNode message(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String body = r.body();
        if (r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            StringBuilder data = new StringBuilder();
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) {
                    data.append(line.substring(5).trim());
                } else if (line.isBlank() && data.length() > 0) {
                    break;
                }
            }
            body = data.toString();
        }
        return JSON.readTree(body);
    }

    private HttpRequest post(String token, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("/mcp")).header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + hub.port() + path);
    }

    private HttpResponse<String> send(HttpRequest r) throws Exception {
        return http.send(r, HttpResponse.BodyHandlers.ofString());
    }
}
