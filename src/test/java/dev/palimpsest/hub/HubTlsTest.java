package dev.palimpsest.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.hub.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub over HTTPS from a PKCS#12 keystore (made here with the JDK's keytool): a client trusting
 * its certificate reaches /health and /mcp with a token; plain HTTP on that port is not served; the
 * configuration never prints the keystore's password.
 */
class HubTlsTest {
    private static final String PASSWORD = "hub-test-password";

    @TempDir
    Path tmp;

    @Test
    void theHubServesHttpsFromAPkcs12KeystoreAndNotPlainHttp() throws Exception {
        Path p12 = tmp.resolve("hub.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "hub", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                p12.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(said).isZero();

        HubConfig.Tls tls = new HubConfig.Tls(p12, PASSWORD);
        assertThat(tls.toString()).doesNotContain(PASSWORD);
        try (Store store = TestStores.init(tmp)) {
            KeyHome home = new KeyHome(tmp.resolve("home"));
            String token = new Tokens(home.dir()).add(TestStores.ALICE, false, Optional.empty(), Instant.now()).secret();
            HubServer hub = HubServer.start(store, HubConfig.loopback(0, home).withTls(tls),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            try {
                assertThat(hub.url()).startsWith("https://127.0.0.1:");
                HttpClient client = HttpClient.newBuilder().sslContext(trusting(p12)).build();
                HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(hub.url() + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(health.statusCode()).isEqualTo(200);
                HttpResponse<String> init = client.send(HttpRequest.newBuilder(URI.create(hub.url() + "/mcp"))
                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
                assertThat(init.headers().firstValue("Mcp-Session-Id")).isPresent();
                HttpClient plain = HttpClient.newHttpClient();
                assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + hub.port()
                        + "/health")).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isInstanceOf(IOException.class);
            } finally {
                hub.stop();
            }
        }
    }

    /** An SSL context trusting exactly the certificate in {@code p12}. */
    private static SSLContext trusting(Path p12) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (String alias : List.copyOf(java.util.Collections.list(keys.aliases()))) {
            trust.setCertificateEntry(alias, keys.getCertificate(alias));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
