package dev.palimpsest.api;

import dev.palimpsest.internal.embed.MiniLm;
import dev.palimpsest.internal.embed.OpenAiEmbedder;
import dev.palimpsest.model.Embedder;
import java.time.Duration;
import java.util.Objects;

/**
 * The embedders that come with Palimpsest, for {@link dev.palimpsest.model.StoreOptions#withEmbedder}:
 * the bundled local model and an adapter for any OpenAI-compatible {@code /v1/embeddings} endpoint.
 * Stateless; the returned embedders are thread-safe.
 *
 * <pre>{@code
 * Embedder remote = Embedders.openAi("http://localhost:11434/v1", "nomic-embed-text", 768)
 *         .key(System.getenv("PALIMPSEST_EMBEDDER_KEY")).build();
 * Store store = Store.open(dir, home, StoreOptions.defaults().withEmbedder(remote));
 * }</pre>
 */
public final class Embedders {
    private Embedders() {}

    /**
     * The bundled all-MiniLM-L6-v2 model (quantized, 384 dimensions), run in-process on the CPU; one
     * instance per process, loaded on first use (about a second).
     */
    public static Embedder local() {
        return MiniLm.instance();
    }

    /** A builder of an embedder behind an OpenAI-compatible endpoint: {@code baseUrl} up to {@code /embeddings}. */
    public static OpenAi openAi(String baseUrl, String model, int dimensions) {
        return new OpenAi(baseUrl, model, dimensions);
    }

    /** The model a store uses for {@code choice}: {@link Embedder#LOCAL} is the bundled model, anything else itself. */
    static Embedder resolve(Embedder choice) {
        return choice == Embedder.LOCAL || choice.equals(Embedder.LOCAL) ? local() : choice;
    }

    /** Settings of an OpenAI-compatible embedder; not thread-safe (build one per thread). */
    public static final class OpenAi {
        /** The default bound on each request. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
        private final String baseUrl;
        private final String model;
        private final int dimensions;
        private String key = "";
        private Duration timeout = DEFAULT_TIMEOUT;

        private OpenAi(String baseUrl, String model, int dimensions) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            this.model = Objects.requireNonNull(model, "model");
            this.dimensions = dimensions;
        }

        /** The bearer token sent with each request (blank: none); never logged or shown. */
        public OpenAi key(String key) {
            this.key = Objects.requireNonNull(key, "key (blank for none)");
            return this;
        }

        /** The bound on each request (default 60 s). */
        public OpenAi timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The embedder, named {@code openai-MODEL-DIMENSIONS}.
         *
         * @throws dev.palimpsest.model.EmbedderUnavailableException the URL is not http(s) or the key is no valid header value
         * @throws IllegalArgumentException a blank model or dimensions outside [1, 8192]
         */
        public Embedder build() {
            return new OpenAiEmbedder(baseUrl, model, key, dimensions, timeout);
        }
    }
}
