package dev.palimpsest.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.model.NotFoundException;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Facts as resources: {@code palimpsest://fact/{id}} reads the fact at main's tip, and
 * {@code palimpsest://fact/{id}@{commit}} as of a commit, so a client can pin what it read. The
 * content is the {@code show} tool's answer with fallback (a retracted fact is its last valid
 * version, labelled {@code retracted}). A fact that is not there is resource-not-found, a malformed
 * id or revision invalid params, any other failure (an {@link Error} too) an internal error.
 * Stateless.
 */
final class FactResources {
    static final String PREFIX = "palimpsest://fact/";
    static final String LATEST = PREFIX + "{id}";
    static final String PINNED = PREFIX + "{id}@{commit}";

    private FactResources() {}

    static List<SyncResourceTemplateSpecification> templates(Session s, ObjectMapper json) {
        McpSchema.ResourceTemplate latest = McpSchema.ResourceTemplate.builder().uriTemplate(LATEST)
                .name("fact").title("A fact at main's tip").mimeType("application/json")
                .description("The fact as show returns it (retracted facts: the last valid version, labelled).")
                .build();
        McpSchema.ResourceTemplate pinned = McpSchema.ResourceTemplate.builder().uriTemplate(PINNED)
                .name("fact-at-commit").title("A fact as of a commit").mimeType("application/json")
                .description("The fact as of a commit (any revision git understands), pinned: what was true then.")
                .build();
        return List.of(new SyncResourceTemplateSpecification(pinned, (ex, req) -> read(s, json, req.uri())),
                new SyncResourceTemplateSpecification(latest, (ex, req) -> read(s, json, req.uri())));
    }

    static McpSchema.ReadResourceResult read(Session s, ObjectMapper json, String uri) {
        if (uri == null || !uri.startsWith(PREFIX) || uri.length() == PREFIX.length()) {
            throw McpError.RESOURCE_NOT_FOUND.apply(uri);
        }
        String rest = uri.substring(PREFIX.length());
        int at = rest.indexOf('@');
        Map<String, Object> args = new HashMap<>();
        args.put("id", at < 0 ? rest : rest.substring(0, at));
        if (at >= 0) {
            args.put("at", rest.substring(at + 1));
        }
        args.put("fallback", true);
        Map<String, Object> fact;
        try {
            fact = ReadTools.show(s.store(), new Args(args));
        } catch (NotFoundException e) {
            throw McpError.RESOURCE_NOT_FOUND.apply(uri);
        } catch (Exception | Error e) {
            throw failure(e);
        }
        return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, "application/json",
                PalimpsestMcpServer.text(json, fact))));
    }

    /** The error a failed read answers: internal (an {@link Error} too), or invalid params for a bad id or revision. */
    static McpError failure(Throwable e) {
        ToolFailure f = ToolFailure.of(e);
        int code = f.exit() == 1 ? McpSchema.ErrorCodes.INTERNAL_ERROR : McpSchema.ErrorCodes.INVALID_PARAMS;
        return McpError.builder(code).message(f.message()).build();
    }
}
