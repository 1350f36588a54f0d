package dev.palimpsest.internal.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.JudgeUnavailableException;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * A judge behind an OpenAI-compatible chat-completions endpoint: {@code POST <base>/chat/completions}
 * with {@code {"model", "messages"}} (and the request's {@code "temperature"} when set, {@code "seed": draw} for
 * draws after the first), the key as
 * a bearer token (omitted when null; never logged nor put in a message), the reply read from
 * {@code choices[0].message.content}. Each attempt has a timeout that bounds the whole exchange
 * (connecting, the headers and every byte of the body: a server that sends headers and then stalls,
 * or drips its body, times out), and a reply body over {@link #MAX_REPLY_BYTES} is refused; a
 * timeout, an I/O error, a 429 or a 5xx is retried up to {@code retries} times with doubling back-off; any other status, a reply
 * without content, or the last failure is a {@link PalimpsestInternalException}. Thread-safe.
 */
public final class OpenAiJudge implements Judge {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The largest reply body read, in bytes; a longer one is an I/O failure of the attempt. */
    public static final int MAX_REPLY_BYTES = 1 << 20;
    private final URI endpoint;
    private final String model;
    private final String key;
    private final Duration timeout;
    private final int retries;
    private final Duration backoff;
    private final HttpClient http;

    public OpenAiJudge(String baseUrl, String model, String key, Duration timeout, int retries, Duration backoff) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        this.model = Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("judge model must not be blank");
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative, got " + retries);
        }
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        URI u;
        try {
            u = URI.create(base + "/chat/completions");
        } catch (IllegalArgumentException e) {
            throw new JudgeUnavailableException("judge URL '" + baseUrl + "' is malformed: " + e.getMessage());
        }
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
            throw new JudgeUnavailableException("judge URL '" + baseUrl + "' is not an http(s) URL with a host");
        }
        this.endpoint = u;
        this.key = key == null || key.isBlank() ? null : key;
        if (this.key != null) {
            for (int i = 0; i < this.key.length(); i++) {
                char c = this.key.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    throw new JudgeUnavailableException("the judge key is no valid HTTP header value: character "
                            + (i + 1) + " of " + this.key.length() + " is " + (c < 0x20 || c == 0x7f ? "a control character"
                            : "not printable ASCII") + " (is there a line break in $PALIMPSEST_JUDGE_KEY?)");
                }
            }
        }
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.retries = retries;
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    }

    @Override
    public String model() {
        return model;
    }

    /** The request body sent for {@code r}: {@code {"model", "messages"[, "temperature"][, "seed"]}} as JSON. */
    public String body(JudgeRequest r) {
        ObjectNode root = JSON.createObjectNode();
        root.put("model", model);
        ArrayNode ms = root.putArray("messages");
        for (JudgeRequest.Message m : r.messages()) {
            ms.addObject().put("role", m.role()).put("content", m.content());
        }
        if (r.temperature().isPresent()) {
            root.put("temperature", r.temperature().getAsDouble());
        }
        if (r.draw() > 0) {
            root.put("seed", r.draw());
        }
        return root.toString();
    }

    @Override
    public String complete(JudgeRequest request) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(request), StandardCharsets.UTF_8));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        HttpRequest req = b.build();
        String last = null;
        for (int attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) {
                pause(delay(backoff, attempt));
            }
            try {
                HttpResponse<String> res = exchange(req);
                int s = res.statusCode();
                if (s == 200) {
                    return content(res.body());
                }
                last = "HTTP " + s + (s == 401 || s == 403 ? " (check the key, $PALIMPSEST_JUDGE_KEY)"
                        : s == 404 ? " (check the URL and the model)" : "");
                if (s != 429 && s < 500) {
                    break;
                }
            } catch (java.net.http.HttpTimeoutException | java.util.concurrent.TimeoutException e) {
                last = "timed out after " + timeout.toMillis() + " ms";
            } catch (java.net.ConnectException e) {
                last = "cannot connect (connection refused or unreachable)";
            } catch (javax.net.ssl.SSLException e) {
                last = "TLS failure: " + e.getMessage();
            } catch (IOException e) {
                last = "I/O error: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PalimpsestInternalException("interrupted while asking judge " + model, e);
            }
        }
        throw new JudgeUnavailableException("judge " + model + " at " + endpoint + " failed: " + last);
    }

    /** One attempt, bounded as a whole by the timeout: the exchange is cancelled when it runs out. */
    private HttpResponse<String> exchange(HttpRequest req)
            throws IOException, InterruptedException, java.util.concurrent.TimeoutException {
        java.util.concurrent.CompletableFuture<HttpResponse<String>> f = http.sendAsync(req, info -> bounded());
        try {
            return f.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException(c);
        } finally {
            f.cancel(true);
        }
    }

    /** A body subscriber that collects at most {@link #MAX_REPLY_BYTES} bytes and decodes them as UTF-8. */
    private static HttpResponse.BodySubscriber<String> bounded() {
        return new BoundedBody();
    }

    /** Collects a reply body up to {@link #MAX_REPLY_BYTES}; a longer one cancels the exchange and fails. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<String> {
        private final java.util.concurrent.CompletableFuture<String> body = new java.util.concurrent.CompletableFuture<>();
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        private java.util.concurrent.Flow.Subscription sub;

        @Override
        public java.util.concurrent.CompletionStage<String> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            sub = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(java.util.List<java.nio.ByteBuffer> items) {
            for (java.nio.ByteBuffer b : items) {
                if (out.size() + b.remaining() > MAX_REPLY_BYTES) {
                    sub.cancel();
                    body.completeExceptionally(new IOException("reply longer than " + MAX_REPLY_BYTES + " bytes"));
                    return;
                }
                byte[] a = new byte[b.remaining()];
                b.get(a);
                out.write(a, 0, a.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(out.toString(StandardCharsets.UTF_8));
        }
    }

    /** The pause before retry {@code attempt} (1-based): {@code backoff} doubled per earlier retry, at most 1024 times. */
    public static Duration delay(Duration backoff, int attempt) {
        return backoff.multipliedBy(1L << Math.min(attempt - 1, 10));
    }

    private String content(String body) {
        try {
            JsonNode c = JSON.readTree(body).path("choices").path(0).path("message").path("content");
            if (c.isTextual() && !c.asText().isEmpty()) {
                return c.asText();
            }
        } catch (IOException e) {
            // fall through: no content
        }
        throw new JudgeUnavailableException("judge " + model + " at " + endpoint
                + " answered without choices[0].message.content");
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PalimpsestInternalException("interrupted while waiting to retry a judge call", e);
        }
    }

    @Override
    public String toString() {
        return "OpenAiJudge[" + model + " at " + endpoint + "]";
    }
}
