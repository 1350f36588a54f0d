package dev.palimpsest.model;

import java.util.List;

/**
 * A sentence-embedding model: turns texts into vectors whose dot product measures how close their
 * meanings are. The semantic channel of search is built on it, the way Lucene's analyzers sit under
 * its lexical search: a store embeds each fact version's text once (cached by the blob id of its
 * file) and each question's text, and ranks by vector similarity beside the words. Implementations
 * must be thread-safe; arguments must not be null.
 *
 * <p>Two choices need no code: {@link #LOCAL}, the default, the bundled all-MiniLM-L6-v2 model run
 * in-process on the CPU (nothing is downloaded), and {@link #NONE}, no semantic channel. Others come
 * from {@code dev.palimpsest.api.Embedders} (an OpenAI-compatible {@code /v1/embeddings} endpoint) or
 * from the caller.
 */
public interface Embedder {
    /**
     * The name of the model and every setting that changes its vectors ({@code [a-z0-9][a-z0-9._-]*},
     * at most 100 characters): vectors of different names never mix, and an index built with another
     * name is rebuilt.
     */
    String name();

    /** The length of every vector (0 only for {@link #NONE}). */
    int dimensions();

    /**
     * One vector per text, in order, each of length {@link #dimensions()} and unit length (a zero
     * vector for a text with nothing to embed). Implementations batch the texts as they see fit.
     *
     * @throws EmbedderUnavailableException the model could not be loaded or reached, or gave no usable answer
     */
    List<float[]> embed(List<String> texts);

    /** No semantic channel: search ranks by words, entities, spelling and links only. */
    Embedder NONE = new Builtin("none", 0);

    /**
     * The default: the all-MiniLM-L6-v2 sentence model (quantized, 384 dimensions) bundled with
     * Palimpsest and run in-process by ONNX Runtime. The store supplies the model when it opens;
     * {@code dev.palimpsest.api.Embedders.local()} gives it to a caller that wants vectors itself.
     */
    Embedder LOCAL = new Builtin("all-minilm-l6-v2-q", 384);

    /** True when {@code name} is a valid embedder name. */
    static boolean validName(String name) {
        return name != null && name.length() <= 100 && name.matches("[a-z0-9][a-z0-9._-]*");
    }

    /** {@link #NONE} and {@link #LOCAL}: names a store resolves, never asked to embed themselves. */
    record Builtin(String name, int dimensions) implements Embedder {
        public Builtin {
            if (!validName(name) || dimensions < 0) {
                throw new IllegalArgumentException("a built-in embedder needs a valid name and dimensions >= 0");
            }
        }

        /** Always throws: the store resolves a built-in choice into a model before anything is embedded. */
        @Override
        public List<float[]> embed(List<String> texts) {
            throw new UnsupportedOperationException("the built-in choice '" + name
                    + "' is resolved by the store; use dev.palimpsest.api.Embedders to embed directly");
        }
    }
}
