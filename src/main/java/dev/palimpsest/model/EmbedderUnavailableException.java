package dev.palimpsest.model;

/**
 * Thrown when an {@link Embedder} cannot embed: its model does not load, its endpoint cannot be
 * reached or answers with an error, a reply that is not the vectors asked for (wrong count or
 * length), or a timeout. The message names the embedder and what failed, never a key. The CLI exits
 * 8 with kind {@code embedder-unavailable}; a search that needed it answers nothing rather than
 * ranking by words alone without saying so. Nothing is written when it is thrown.
 *
 * <p>Immutable once thrown and safe to share between threads.
 */
public class EmbedderUnavailableException extends PalimpsestInternalException {
    private static final long serialVersionUID = 1L;

    public EmbedderUnavailableException(String message) {
        super(message);
    }

    public EmbedderUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The error kind the CLI and MCP report: {@code embedder-unavailable}. */
    public String kind() {
        return "embedder-unavailable";
    }
}
