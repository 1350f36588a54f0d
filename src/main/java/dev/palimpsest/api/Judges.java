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
 * and tests. Stateless; no argument may be null.
 */
public final class Judges {
    /** The cache file of a store's judge calls: {@code <gitdir>/palimpsest-index/judge-cache.jsonl}. */
    public static final String CACHE_FILE = "palimpsest-index/judge-cache.jsonl";

    private Judges() {}

    /**
     * A judge at {@code baseUrl} ({@code POST <baseUrl>/chat/completions}) for {@code model};
     * {@code key} (may be null: none sent) is a bearer token, never logged. Each attempt times out
     * after {@code timeout}; timeouts, I/O errors, 429 and 5xx are retried up to {@code retries} times.
     *
     * @deprecated a null key meant none sent; use {@link #openAi(String, String)}:
     *     {@code Judges.openAi(baseUrl, model).key(key).timeout(timeout).retries(retries).build()}, leaving out
     *     {@code key(…)} for none.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static Judge openAiCompatible(String baseUrl, String model, String key, Duration timeout, int retries) {
        return new OpenAiJudge(baseUrl, model, key, timeout, retries, Duration.ofMillis(500));
    }

    /**
     * A builder of the judge at {@code baseUrl} ({@code POST <baseUrl>/chat/completions}) for
     * {@code model}: no key, a timeout of {@link OpenAi#DEFAULT_TIMEOUT} per attempt and
     * {@link OpenAi#DEFAULT_RETRIES} retries unless set.
     */
    public static OpenAi openAi(String baseUrl, String model) {
        return new OpenAi(Objects.requireNonNull(baseUrl, "baseUrl"), Objects.requireNonNull(model, "model"));
    }

    /**
     * Builds an OpenAI-compatible judge (see {@link #openAi}). Each attempt times out after the
     * timeout; timeouts, I/O errors, 429 and 5xx are retried up to the retries. Mutable and not
     * thread-safe; what it builds is thread-safe.
     */
    public static final class OpenAi {
        /** The timeout of one attempt when none is set. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
        /** The retries when none are set. */
        public static final int DEFAULT_RETRIES = 2;

        private final String baseUrl;
        private final String model;
        private String key;
        private Duration timeout = DEFAULT_TIMEOUT;
        private int retries = DEFAULT_RETRIES;

        private OpenAi(String baseUrl, String model) {
            this.baseUrl = baseUrl;
            this.model = model;
        }

        /** Sends {@code key} as a bearer token (never logged); a blank key is none. */
        public OpenAi key(String key) {
            this.key = Objects.requireNonNull(key, "key");
            return this;
        }

        /** Each attempt times out after {@code timeout}. */
        public OpenAi timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Retries a failed attempt up to {@code retries} times (not negative). */
        public OpenAi retries(int retries) {
            this.retries = retries;
            return this;
        }

        /**
         * The judge.
         *
         * @throws IllegalArgumentException a blank model or negative retries
         */
        public Judge build() {
            return new OpenAiJudge(baseUrl, model, key, timeout, retries, Duration.ofMillis(500));
        }
    }

    /** {@code judge} with its replies cached in {@code file} by exact request (one JSON line per call). */
    public static Judge cached(Judge judge, Path file) {
        return new CachingJudge(Objects.requireNonNull(judge, "judge"), Objects.requireNonNull(file, "file"));
    }

    /** {@code judge} cached beside {@code store}, in {@link #CACHE_FILE}. */
    public static Judge cached(Judge judge, Store store) {
        return cached(judge, Objects.requireNonNull(store, "store").gitDir().resolve(CACHE_FILE));
    }

    /** A judge named {@code model} that gives {@code replies} in order and then repeats the last. */
    public static Judge scripted(String model, List<String> replies) {
        return ScriptedJudge.of(Objects.requireNonNull(model, "model"), Objects.requireNonNull(replies, "replies"),
                true);
    }
}
