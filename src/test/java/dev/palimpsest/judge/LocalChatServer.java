package dev.palimpsest.judge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/** A chat-completions server on 127.0.0.1 answering each user message with a scripted function; keeps the messages. */
public final class LocalChatServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final List<String> messages = Collections.synchronizedList(new ArrayList<>());

    public LocalChatServer(Function<String, String> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", ex -> {
            var req = JSON.readTree(ex.getRequestBody().readAllBytes());
            String content = req.path("messages").path(0).path("content").asText();
            messages.add(content);
            String body = JSON.createObjectNode().set("choices", JSON.createArrayNode().add(JSON.createObjectNode()
                    .set("message", JSON.createObjectNode().put("role", "assistant").put("content",
                            reply.apply(content))))).toString();
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The user messages received, in order. */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
