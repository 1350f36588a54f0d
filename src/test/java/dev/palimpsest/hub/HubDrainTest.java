package dev.palimpsest.hub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.hub.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop drains: a request already in flight when the hub is told to stop (its body still
 * arriving) is answered in full, a request arriving meanwhile gets 503 with Retry-After, and the
 * stop reports that nothing was cut off.
 */
class HubDrainTest {
    @TempDir
    Path tmp;

    @Test
    void aRequestInFlightAtStopIsAnsweredAndANewOneGets503() throws Exception {
        try (Store store = TestStores.init(tmp)) {
            KeyHome home = new KeyHome(tmp.resolve("home"));
            String token = new Tokens(home.dir()).add(TestStores.ALICE, false, Optional.empty(), Instant.now()).secret();
            HubServer hub = HubServer.start(store, HubConfig.loopback(0, home),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")
                    .getBytes(StandardCharsets.UTF_8);
            try (Socket socket = new Socket("127.0.0.1", hub.port())) {
                socket.setSoTimeout(30_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + hub.port() + "\r\nAuthorization: Bearer " + token
                        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, 20);
                out.flush();
                String url = hub.url();
                for (int i = 0; i < 100 && hub.inFlight() == 0; i++) {
                    Thread.sleep(50);
                }
                assertThat(hub.inFlight()).as("the request is in flight").isEqualTo(1);
                CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(hub::stop);
                Thread.sleep(300);
                assertThat(stopped).isNotDone();
                HttpResponse<String> late = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(url + "/mcp")).header("Authorization", "Bearer " + token)
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(late.statusCode()).isEqualTo(503);
                assertThat(late.headers().firstValue("Retry-After")).isPresent();
                out.write(body, 20, body.length - 20);
                out.flush();
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 200").contains("protocolVersion");
                assertThat(stopped.get(30, TimeUnit.SECONDS)).as("nothing was cut off").isTrue();
            } finally {
                hub.stop();
            }
        }
    }
}
