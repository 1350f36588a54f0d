package dev.palimpsest.internal.embed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.EmbedderUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An embedder behind any OpenAI-compatible {@code POST {base}/embeddings} endpoint (OpenAI, a local
 * server such as llama.cpp, Ollama or vLLM): it sends {@code {"model", "input": [texts]}} in batches
 * of at most {@value #BATCH} texts and reads {@code data[i].embedding} in {@code index} order, each
 * scaled to unit length. A reply with another count or length of vectors, a status other than 200,
 * a body over 64 MiB, a connection failure or a timeout ({@code timeout} bounds each request) is
 * an {@link EmbedderUnavailableException} naming the endpoint and model, never the key. Thread-safe.
 */
public final class OpenAiEmbedder implements Embedder {
    /** Texts per request. */
    static final int BATCH = 256;
    private static final int MAX_REPLY_BYTES = 64 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final String model;
    private final String key;
    private final int dimensions;
    private final Duration timeout;
    private final HttpClient http;
    private final String name;

    /**
     * An embedder of {@code model} at {@code baseUrl} (the part before {@code /embeddings}, e.g.
     * {@code https://api.openai.com/v1}) whose vectors have {@code dimensions} entries; {@code key}
     * (blank: none) is sent as a bearer token.
     */
    public OpenAiEmbedder(String baseUrl, String model, String key, int dimensions, Duration timeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        this.model = Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("embedder model must not be blank");
        }
        if (dimensions < 1 || dimensions > 8192) {
            throw new IllegalArgumentException("embedder dimensions must be in [1, 8192], got " + dimensions);
        }
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        URI u;
        try {
            u = URI.create(base + "/embeddings");
        } catch (IllegalArgumentException e) {
            throw new EmbedderUnavailableException("embedder URL '" + baseUrl + "' is malformed: " + e.getMessage());
        }
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
            throw new EmbedderUnavailableException("embedder URL '" + baseUrl + "' is not an http(s) URL with a host");
        }
        this.endpoint = u;
        this.key = key == null || key.isBlank() ? null : key;
        if (this.key != null && !this.key.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new EmbedderUnavailableException("the embedder key is no valid HTTP header value (a control or "
                    + "non-ASCII character; is there a line break in $PALIMPSEST_EMBEDDER_KEY?)");
        }
        this.dimensions = dimensions;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        this.name = "openai-" + model.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-")
                .replaceAll("^[^a-z0-9]+", "") + "-" + dimensions;
    }

    /** {@code openai-MODEL-DIMENSIONS}, the model in lower case with other characters as {@code -}. */
    @Override
    public String name() {
        return name.length() > 100 ? name.substring(0, 100) : name;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += BATCH) {
            out.addAll(batch(texts.subList(from, Math.min(texts.size(), from + BATCH))));
        }
        return out;
    }

    private List<float[]> batch(List<String> texts) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", model);
        ArrayNode input = body.putArray("input");
        texts.forEach(t -> input.add(t.isBlank() ? " " : t));
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        String what = "embedder " + model + " at " + endpoint;
        try {
            HttpResponse<InputStream> res = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            byte[] bytes;
            try (InputStream in = res.body()) {
                bytes = in.readNBytes(MAX_REPLY_BYTES + 1);
            }
            if (res.statusCode() != 200) {
                throw new EmbedderUnavailableException(what + " answered HTTP " + res.statusCode()
                        + (res.statusCode() == 401 || res.statusCode() == 403 ? " (check the key, $PALIMPSEST_EMBEDDER_KEY)" : ""));
            }
            if (bytes.length > MAX_REPLY_BYTES) {
                throw new EmbedderUnavailableException(what + " answered more than " + MAX_REPLY_BYTES + " bytes");
            }
            return vectors(JSON.readTree(bytes), texts.size(), what);
        } catch (java.net.http.HttpTimeoutException e) {
            throw new EmbedderUnavailableException(what + " timed out after " + timeout.toMillis() + " ms", e);
        } catch (java.net.ConnectException e) {
            throw new EmbedderUnavailableException(what + ": cannot connect (connection refused or unreachable)", e);
        } catch (IOException e) {
            throw new EmbedderUnavailableException(what + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbedderUnavailableException("interrupted while asking " + what, e);
        }
    }

    private List<float[]> vectors(JsonNode root, int count, String what) {
        JsonNode data = root.path("data");
        if (!data.isArray() || data.size() != count) {
            throw new EmbedderUnavailableException(what + " answered " + (data.isArray() ? data.size() : "no")
                    + " vectors for " + count + " texts");
        }
        float[][] out = new float[count][];
        for (int i = 0; i < count; i++) {
            JsonNode d = data.get(i);
            int at = d.path("index").isInt() ? d.path("index").asInt() : i;
            JsonNode e = d.path("embedding");
            if (at < 0 || at >= count || out[at] != null || !e.isArray() || e.size() != dimensions) {
                throw new EmbedderUnavailableException(what + " answered a vector that is not " + dimensions
                        + " numbers at a new index in [0, " + count + ") (entry " + i + ")");
            }
            float[] v = new float[dimensions];
            for (int k = 0; k < dimensions; k++) {
                JsonNode x = e.get(k);
                if (!x.isNumber() || !Float.isFinite(x.floatValue())) {
                    throw new EmbedderUnavailableException(what + " answered a vector with a non-number (entry " + i + ")");
                }
                v[k] = x.floatValue();
            }
            out[at] = Vectors.unit(v);
        }
        return java.util.Arrays.asList(out);
    }

    @Override
    public String toString() {
        return "OpenAiEmbedder[" + model + " at " + endpoint + "]";
    }
}
