package dev.palimpsest.internal.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * A judge that answers a request it has seen before from a file instead of asking again: the key is
 * the SHA-256 of the model and the exact request (every message's role and text, and the draw), the
 * file holds one JSON line {@code {"key", "reply"}} per call, appended as calls succeed. Only replies
 * that are well-formed verdicts ({@link Reviewer#parseable}) are cached: a failure, a quota banner
 * or any other unparseable reply is asked again next time, and such a line in an older file, or a
 * line that does not parse, is skipped. Thread-safe (synchronised).
 */
public final class CachingJudge implements Judge {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Judge inner;
    private final Path file;
    private final Map<String, String> replies = new HashMap<>();
    private int hits;
    private int misses;

    public CachingJudge(Judge inner, Path file) {
        this.inner = inner;
        this.file = file;
        if (Files.exists(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    load(line);
                }
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot read the judge cache " + file + ": " + e.getMessage(), e);
            }
        }
    }

    private void load(String line) {
        try {
            JsonNode n = JSON.readTree(line);
            if (n != null && n.path("key").isTextual() && n.path("reply").isTextual()
                    && Reviewer.parseable(n.get("reply").asText())) {
                replies.put(n.get("key").asText(), n.get("reply").asText());
            }
        } catch (IOException e) {
            // a torn last line from a crash: skipped, the call is simply made again
        }
    }

    @Override
    public String model() {
        return inner.model();
    }

    /**
     * The cache key of {@code r} for judge {@code model}: hex SHA-256 over model, draw, temperature (when
     * set; a request without one keys as before temperatures existed) and messages.
     */
    public static String key(String model, JudgeRequest r) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            StringBuilder s = new StringBuilder();
            s.append(JSON.writeValueAsString(model)).append('\n').append(r.draw()).append('\n');
            if (r.temperature().isPresent()) {
                s.append("temperature ").append(r.temperature().getAsDouble()).append('\n');
            }
            for (JudgeRequest.Message m : r.messages()) {
                s.append(JSON.writeValueAsString(m.role())).append(':').append(JSON.writeValueAsString(m.content()))
                        .append('\n');
            }
            return HexFormat.of().formatHex(d.digest(s.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new PalimpsestInternalException("cannot compute a judge cache key", e);
        }
    }

    @Override
    public synchronized String complete(JudgeRequest request) {
        String k = key(inner.model(), request);
        String cached = replies.get(k);
        if (cached != null) {
            hits++;
            return cached;
        }
        misses++;
        String reply = inner.complete(request);
        if (!Reviewer.parseable(reply)) {
            return reply;
        }
        replies.put(k, reply);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            String line = JSON.createObjectNode().put("key", k).put("reply", reply).toString() + "\n";
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the judge cache " + file + ": " + e.getMessage(), e);
        }
        return reply;
    }

    /** Calls answered from the cache. */
    public synchronized int hits() {
        return hits;
    }

    /** Calls passed to the wrapped judge. */
    public synchronized int misses() {
        return misses;
    }
}
