package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The MCP SDK's own client, driving {@code palimpsest mcp} in a child JVM over stdio: {@code java -jar}
 * of the runnable jar when the system property {@code palimpsest.jar} names it (the failsafe run,
 * after package), otherwise this JVM's class path; the server lists every tool ({@code --tools all}).
 * Collects the server's standard error.
 */
final class McpTestClient implements AutoCloseable {
    /** Sends every non-ASCII character as a JSON escape, so a lone surrogate goes out as {@code \\ud800}. */
    static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII).build();

    final McpSyncClient client;
    final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

    McpTestClient(Path store, Path home, String actor, String run) {
        List<String> args = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
        String jar = System.getProperty("palimpsest.jar");
        if (jar != null) {
            args.addAll(List.of("-jar", jar));
        } else {
            args.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.palimpsest.cli.Main"));
        }
        args.addAll(List.of("mcp", "--store", store.toString(), "--home", home.toString(), "--actor", actor, "--tools",
                "all"));
        if (run != null) {
            args.addAll(List.of("--run", run));
        }
        ServerParameters params = ServerParameters.builder(System.getProperty("java.home") + "/bin/java").args(args)
                .build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON));
        transport.setStdErrorHandler(stderr::add);
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build();
        client.initialize();
    }

    McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    /** The structured content of a successful call. */
    JsonNode ok(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = call(tool, args);
        assertThat(r.isError()).as(tool + " " + args + " -> " + r.content()).isFalse();
        return JSON.valueToTree(r.structuredContent());
    }

    /** The {@code error} object of a failed call: its text content (there is no structured content). */
    JsonNode error(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = call(tool, args);
        assertThat(r.isError()).as(tool + " " + args + " -> " + r.content()).isTrue();
        assertThat(r.structuredContent()).as("an error of " + tool + " carries no structured content").isNull();
        try {
            return JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text()).get("error");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("the text of an error of " + tool + " is not JSON: " + r.content(), e);
        }
    }

    /** The text of a failed call that the SDK refused before the tool ran (schema validation). */
    String refused(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = call(tool, args);
        assertThat(r.isError()).as(tool + " " + args + " -> " + r.content()).isTrue();
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
