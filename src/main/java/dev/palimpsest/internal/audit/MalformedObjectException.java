package dev.palimpsest.internal.audit;

import java.io.IOException;

/**
 * Thrown by {@link Reading} when a commit or tree object fails git's strict object checks; the
 * audit reports it as a {@code malformed-object} violation of the commit that read it.
 */
final class MalformedObjectException extends IOException {
    private static final long serialVersionUID = 1L;

    MalformedObjectException(String message, Throwable cause) {
        super(message, cause);
    }
}
