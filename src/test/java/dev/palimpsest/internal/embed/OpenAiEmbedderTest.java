package dev.palimpsest.internal.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.palimpsest.api.Embedders;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.EmbedderUnavailableException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible embedder against a local fake endpoint: batches, order, scaling and every failure named. */
class OpenAiEmbedderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private final List<JsonNode> requests = new ArrayList<>();
    private final AtomicReference<String> auth = new AtomicReference<>();

    /** Serves {@code reply(request body)} with status {@code status}. */
    private String serve(int status, Function<JsonNode, String> reply) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/embeddings", ex -> {
            JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
            synchronized (requests) {
                requests.add(body);
            }
            auth.set(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] out = reply.apply(body).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A reply giving text i the vector (i+1, 0, 0), listed in reverse index order. */
    private static String reversed(JsonNode req) {
        StringBuilder b = new StringBuilder("{\"data\":[");
        int n = req.get("input").size();
        for (int i = n - 1; i >= 0; i--) {
            b.append("{\"index\":").append(i).append(",\"embedding\":[").append(i + 1).append(",0,0]}")
                    .append(i > 0 ? "," : "");
        }
        return b.append("]}").toString();
    }

    @Test
    void vectorsComeBackInTheTextsOrderAtUnitLengthInBatches() throws Exception {
        String url = serve(200, OpenAiEmbedderTest::reversed);
        Embedder e = Embedders.openAi(url, "tiny-embed", 3).key("sk-test-123").build();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < OpenAiEmbedder.BATCH + 3; i++) {
            texts.add("text " + i);
        }
        List<float[]> vs = e.embed(texts);
        assertThat(vs).hasSize(texts.size());
        assertThat(vs.get(0)).containsExactly(1f, 0f, 0f);
        assertThat(requests).hasSize(2);
        assertThat(requests.get(0).get("model").asText()).isEqualTo("tiny-embed");
        assertThat(requests.get(0).get("input")).hasSize(OpenAiEmbedder.BATCH);
        assertThat(requests.get(1).get("input").get(2).asText()).isEqualTo("text " + (OpenAiEmbedder.BATCH + 2));
        assertThat(auth.get()).isEqualTo("Bearer sk-test-123");
        assertThat(e.name()).isEqualTo("openai-tiny-embed-3");
        assertThat(Embedder.validName(e.name())).isTrue();
        float[] v = e.embed(List.of("a", "b")).get(1);
        assertThat((double) Vectors.dot(v, v)).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void aReplyOfTheWrongShapeIsAnErrorNamingTheEndpoint() throws Exception {
        String url = serve(200, req -> "{\"data\":[{\"index\":0,\"embedding\":[1,0]}]}");
        Embedder e = Embedders.openAi(url, "tiny-embed", 3).build();
        EmbedderUnavailableException x = catchThrowableOfType(() -> e.embed(List.of("a")), EmbedderUnavailableException.class);
        assertThat(x.getMessage()).contains("tiny-embed").contains(url).contains("not 3 numbers");
        assertThat(x.kind()).isEqualTo("embedder-unavailable");
        EmbedderUnavailableException count = catchThrowableOfType(() -> e.embed(List.of("a", "b")),
                EmbedderUnavailableException.class);
        assertThat(count.getMessage()).contains("1 vectors for 2 texts");
    }

    @Test
    void aRefusedKeyIsNamedButNeverShown() throws Exception {
        String url = serve(401, req -> "{\"error\":\"bad key\"}");
        Embedder e = Embedders.openAi(url, "tiny-embed", 3).key("sk-secret-987").build();
        EmbedderUnavailableException x = catchThrowableOfType(() -> e.embed(List.of("a")), EmbedderUnavailableException.class);
        assertThat(x.getMessage()).contains("HTTP 401").contains("PALIMPSEST_EMBEDDER_KEY").doesNotContain("sk-secret-987");
    }

    @Test
    void aClosedPortAndABadUrlAreErrorsNotHangs() throws Exception {
        serve(200, OpenAiEmbedderTest::reversed);
        int port = server.getAddress().getPort();
        server.stop(0);
        server = null;
        Embedder e = Embedders.openAi("http://127.0.0.1:" + port + "/v1", "m", 3).timeout(Duration.ofSeconds(2)).build();
        assertThat(catchThrowableOfType(() -> e.embed(List.of("a")), EmbedderUnavailableException.class).getMessage())
                .contains("cannot connect");
        assertThat(catchThrowableOfType(() -> Embedders.openAi("ftp://x/v1", "m", 3).build(),
                EmbedderUnavailableException.class).getMessage()).contains("not an http(s) URL");
        assertThat(catchThrowableOfType(() -> Embedders.openAi("http://x/v1", "m", 0).build(),
                IllegalArgumentException.class).getMessage()).contains("dimensions");
    }
}
