package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.cli.Main;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code palimpsest serve} as its own process, as an operator runs it: tokens made with
 * {@code token add} (kept 0600 in the key home, listed without secrets), the hub answering on the
 * port it picked, and SIGTERM stopping it cleanly: the store is closed (another writer can write at
 * once) and the access log on standard error never shows the token.
 */
class HubServeProcessTest {
    @TempDir
    Path tmp;

    @Test
    void serveAnswersWithTokensFromTokenAddAndStopsCleanlyOnSigterm() throws Exception {
        Path storeDir;
        try (Store s = TestStores.init(tmp)) {
            storeDir = s.gitDir();
        }
        Path home = tmp.resolve("home");
        Cli add = cli("token", "add", "alice", "--home", home.toString(), "--expires", "30d");
        assertThat(add.code).as(add.err).isZero();
        String token = add.out.strip();
        assertThat(token).startsWith("pal_").hasSize(56);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("hub-tokens"))))
                .isEqualTo("rw-------");
        assertThat(Files.readString(home.resolve("hub-tokens"))).doesNotContain(token.substring(13));
        Cli list = cli("token", "list", "--home", home.toString());
        assertThat(list.out).contains("alice").contains("read-write").doesNotContain(token);

        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-XX:TieredStopAtLevel=1",
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve", "--store",
                storeDir.toString(), "--home", home.toString(), "--listen", "127.0.0.1:0", "--stop-timeout", "5"));
        Path errFile = tmp.resolve("serve.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errFile.toFile()).start();
        try {
            int port = port(errFile);
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            HttpResponse<String> init = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("serve stops within 30 s of SIGTERM").isTrue();
        }
        String log = Files.readString(errFile);
        assertThat(log).contains("stopping").contains("palimpsest serve: stopped")
                .contains("method=POST path=/mcp status=200").contains("actor=\"alice\"").doesNotContain(token);
        try (Store s = Store.open(storeDir, new KeyHome(home), StoreOptions.defaults().withFsync(false))) {
            Transaction t = s.begin(TestStores.ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "Written after the hub stopped.").id(FactId.of("after-hub")));
            t.commit();
        }
    }

    private static int port(Path errFile) throws Exception {
        Pattern serving = Pattern.compile("serving .* at http://127\\.0\\.0\\.1:(\\d+) ");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = serving.matcher(Files.readString(errFile));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("serve did not say where it listens: " + Files.readString(errFile));
    }

    private record Cli(int code, String out, String err) {}

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Cli(code, out.toString(), err.toString());
    }
}
