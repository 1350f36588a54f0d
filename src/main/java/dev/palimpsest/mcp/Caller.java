package dev.palimpsest.mcp;

import dev.palimpsest.model.ActorName;
import java.util.Objects;

/**
 * Who makes an MCP call over HTTP, as the server's authentication established it: the actor whose
 * key signs the call's writes, and whether the caller may only read (a write tool then answers a
 * tool error, kind {@code rejected}, and writes nothing). Immutable; {@code actor} must not be null.
 */
public record Caller(ActorName actor, boolean readOnly) {
    /**
     * The name of the servlet request attribute in which the server's authentication leaves the
     * request's caller for the MCP transport to read.
     */
    public static final String ATTRIBUTE = "dev.palimpsest.mcp.Caller";

    public Caller {
        Objects.requireNonNull(actor, "actor");
    }
}
