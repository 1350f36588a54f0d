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
 * version, labelled {@code retracted}). Stateless.
 */
final class FactResources {
    static final String PREFIX = "palimpsest://fact/";

    private FactResources() {}

    static List<SyncResourceTemplateSpecification> templates(Session s, ObjectMapper json) {
        McpSchema.ResourceTemplate latest = McpSchema.ResourceTemplate.builder().uriTemplate(PREFIX + "{id}")
                .name("fact").title("A fact at main's tip").mimeType("application/json")
                .description("The fact as show returns it (retracted facts: the last valid version, labelled).")
                .build();
        McpSchema.ResourceTemplate pinned = McpSchema.ResourceTemplate.builder().uriTemplate(PREFIX + "{id}@{commit}")
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
        } catch (Exception e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(ToolFailure.of(e).message()).build();
        }
        return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, "application/json",
                PalimpsestMcpServer.text(json, fact))));
    }
}
