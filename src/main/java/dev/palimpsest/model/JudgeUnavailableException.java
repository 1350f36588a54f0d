package dev.palimpsest.model;

/**
 * Thrown when a {@link Judge} cannot be asked: it is misconfigured (a URL that is not http(s), a key
 * that is no valid HTTP header value) or gives no usable reply (connection refused, unknown host,
 * TLS failure, timeout, an HTTP error such as 401 for a wrong key, a reply without content). The
 * message names the judge and what failed, never the key. The CLI exits 8 with kind
 * {@code judge-unavailable}. Nothing is written when it is thrown.
 *
 * <p>Immutable once thrown and safe to share between threads.
 */
public class JudgeUnavailableException extends PalimpsestInternalException {
    private static final long serialVersionUID = 1L;

    public JudgeUnavailableException(String message) {
        super(message);
    }

    public JudgeUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The error kind the CLI and MCP report: {@code judge-unavailable}. */
    public String kind() {
        return "judge-unavailable";
    }
}
