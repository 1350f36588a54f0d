package dev.palimpsest.api;

import dev.palimpsest.internal.judge.CachingJudge;
import dev.palimpsest.internal.judge.OpenAiJudge;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.model.Judge;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Ready-made {@link Judge}s: an OpenAI-compatible chat-completions endpoint (timeout, bounded
 * retries), a cache in front of any judge so a re-run costs nothing, and a scripted judge for demos
 * and tests. Stateless; arguments must not be null unless documented.
 */
public final class Judges {
    /** The cache file of a store's judge calls: {@code <gitdir>/palimpsest-index/judge-cache.jsonl}. */
    public static final String CACHE_FILE = "palimpsest-index/judge-cache.jsonl";

    private Judges() {}

    /**
     * A judge at {@code baseUrl} ({@code POST <baseUrl>/chat/completions}) for {@code model};
     * {@code key} (may be null: none sent) is a bearer token, never logged. Each attempt times out
     * after {@code timeout}; timeouts, I/O errors, 429 and 5xx are retried up to {@code retries} times.
     */
    public static Judge openAiCompatible(String baseUrl, String model, String key, Duration timeout, int retries) {
        return new OpenAiJudge(baseUrl, model, key, timeout, retries, Duration.ofMillis(500));
    }

    /** {@code judge} with its replies cached in {@code file} by exact request (one JSON line per call). */
    public static Judge cached(Judge judge, Path file) {
        return new CachingJudge(Objects.requireNonNull(judge, "judge"), Objects.requireNonNull(file, "file"));
    }

    /** {@code judge} cached beside {@code store}, in {@link #CACHE_FILE}. */
    public static Judge cached(Judge judge, Store store) {
        return cached(judge, store.gitDir().resolve(CACHE_FILE));
    }

    /** A judge named {@code model} that gives {@code replies} in order and then repeats the last. */
    public static Judge scripted(String model, List<String> replies) {
        return ScriptedJudge.of(Objects.requireNonNull(model, "model"), replies, true);
    }
}
