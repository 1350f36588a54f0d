package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.cli.Run;
import dev.palimpsest.judge.LocalChatServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official TypeScript MCP SDK client ({@code @modelcontextprotocol/sdk} from npm, pinned by
 * {@code src/test/mcp-client/package-lock.json}) drives {@code java -jar target/palimpsest.jar mcp}
 * over stdio through {@code src/test/mcp-client/check.mjs}: every tool error's message reaches it as
 * text, every successful structured result validates against its tool's output schema (the client
 * throws otherwise), the default tool set fits in 12 kB, and the prompts and completions answer.
 * Without node or the client's {@code node_modules} (made by {@code npm ci} there) it is skipped,
 * except under {@code CI=true}, where that fails the build.
 */
class McpTypeScriptClientIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CLIENT = Path.of("src", "test", "mcp-client").toAbsolutePath();
    private static final String SOURCE = "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.";
    private static final List<String> CORE = List.of("brief", "search", "current", "dead_ends", "contradictions",
            "show", "history", "claim", "assert", "revise", "supersede", "retract");

    private static String node;

    @TempDir
    Path tmp;

    @BeforeAll
    static void theClientIsInstalled() {
        Optional<Path> found = onPath("node");
        boolean installed = Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/sdk"));
        String missing = found.isEmpty() ? "node is not on the PATH"
                : installed ? null : "the client is not installed: run npm ci in " + CLIENT;
        if (missing != null) {
            assertThat("true".equals(System.getenv("CI"))).as("on CI the TypeScript client must run (.ci/run installs"
                    + " it), but " + missing).isFalse();
            Assumptions.abort("skipped: " + missing + " (.ci/run installs node and the client)");
        }
        node = found.get().toString();
        assertThat(System.getProperty("palimpsest.jar")).as("failsafe names the runnable jar").isNotNull();
    }

    @Test
    void theTypeScriptClientSeesEveryToolErrorsMessageAndEveryResultOfTheCoreSetValidates() throws Exception {
        JsonNode seen = drive(List.of());
        assertThat(seen.has("fatal")).as(seen.path("fatal").asText()).isFalse();
        assertThat(names(seen.get("tools"))).containsExactlyElementsOf(CORE);
        assertThat(seen.get("toolsListBytes").asInt()).isLessThanOrEqualTo(12 * 1024);
        assertThat(seen.get("instructions").asText()).contains("at = the commit to read as of");
        everyCallAsExpected(seen);
        JsonNode quote = call(seen, "claim", 0);
        assertThat(quote.get("text").asText()).contains("quote-not-found").contains("rejected");
        JsonNode error = JSON.readTree(quote.get("text").asText()).get("error");
        assertThat(error.get("exit").asInt()).isEqualTo(5);
        assertThat(error.get("violations").get(0).get("rule").asText()).isEqualTo("quote-not-found");
        assertThat(quote.get("structured").isNull()).isTrue();
        assertThat(call(seen, "assert", 0).get("text").asText()).contains("quote-not-found");
        assertThat(call(seen, "assert", 3).get("text").asText()).contains("receipt-required");
        assertThat(call(seen, "assert", 4).get("structured").get("id").asText()).isEqualTo("m-door");
        assertThat(call(seen, "show", 0).get("text").asText()).contains("not-found").contains("never-written");
        JsonNode brief = call(seen, "brief", 0);
        assertThat(brief.get("text").asText()).startsWith("Known facts (with provenance):").contains("30s");
        assertThat(brief.get("structured").has("text")).isFalse();
        assertThat(seen.get("prompts").toString()).contains("recall").contains("record");
        assertThat(seen.get("prompt").asText()).contains("Call brief").contains("auth-service");
        assertThat(names(seen.get("completion").get("values"))).containsExactly("doc-2");
    }

    @Test
    void overStreamableHttpAtTheHubTheTypeScriptClientSeesTheSameToolsAndAnswers() throws Exception {
        JsonNode seen = driveOverHttp();
        assertThat(seen.has("fatal")).as(seen.path("fatal").asText()).isFalse();
        assertThat(names(seen.get("tools"))).containsExactlyElementsOf(CORE);
        assertThat(seen.get("instructions").asText()).contains("at = the commit to read as of");
        everyCallAsExpected(seen);
        JsonNode quote = call(seen, "claim", 0);
        assertThat(quote.get("text").asText()).contains("quote-not-found").contains("rejected");
        assertThat(call(seen, "assert", 4).get("structured").get("id").asText()).isEqualTo("m-door");
        assertThat(call(seen, "brief", 0).get("text").asText()).startsWith("Known facts (with provenance):");
        assertThat(seen.get("prompt").asText()).contains("Call brief").contains("auth-service");
        assertThat(names(seen.get("completion").get("values"))).containsExactly("doc-2");
    }

    @Test
    void everyToolOfTheFullSetAnswersTheTypeScriptClientWithAResultThatValidates() throws Exception {
        JsonNode seen;
        try (LocalChatServer judge = new LocalChatServer(m -> "{\"supported\": true}")) {
            seen = drive(List.of("--tools", "all", "--judge-url", judge.url(), "--judge-model", "test/judge",
                    "--judge-retries", "0", "--no-judge-cache"));
            assertThat(judge.messages()).as("verify and rederive_audit asked the server's judge").isNotEmpty();
        }
        assertThat(seen.has("fatal")).as(seen.path("fatal").asText()).isFalse();
        assertThat(seen.get("tools")).hasSize(33);
        System.out.println("tools/list as the TypeScript client parsed it: " + seen.get("toolsListBytes").asInt()
                + " bytes for all tools");
        everyCallAsExpected(seen);
        List<String> called = new ArrayList<>();
        seen.get("calls").forEach(c -> called.add(c.get("tool").asText()));
        assertThat(called).containsAll(names(seen.get("tools")));
    }

    private static void everyCallAsExpected(JsonNode seen) {
        assertThat(seen.get("calls")).isNotEmpty();
        for (JsonNode c : seen.get("calls")) {
            String what = c.get("tool").asText() + " " + c.get("args");
            assertThat(c.has("thrown")).as(what + " threw in the client: " + c.path("thrown").asText()).isFalse();
            boolean error = c.get("expect").asText().equals("error");
            assertThat(c.get("isError").asBoolean()).as(what + " -> " + c.get("text").asText()).isEqualTo(error);
            assertThat(c.get("structured").isNull()).as(what + ": structured content").isEqualTo(error);
            assertThat(c.get("text").asText()).as(what + ": text content").isNotBlank();
        }
    }

    private static JsonNode call(JsonNode seen, String tool, int nth) {
        int i = 0;
        for (JsonNode c : seen.get("calls")) {
            if (c.get("tool").asText().equals(tool) && i++ == nth) {
                return c;
            }
        }
        throw new AssertionError("no call " + nth + " of " + tool + " in " + seen.get("calls"));
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A fresh store holding the source pmid-1, served with {@code extra} mcp options to the client; what it saw. */
    private JsonNode drive(List<String> extra) throws Exception {
        String store = tmp.resolve("store.git").toString();
        String home = tmp.resolve("home").toString();
        cli(store, home, "init", "--actor", "alice");
        cli(store, home, "assert", "--actor", "alice", "--kind", "source", "--id", "pmid-1", "--body", SOURCE);
        List<String> cmd = new ArrayList<>(List.of(node, CLIENT.resolve("check.mjs").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-jar", System.getProperty("palimpsest.jar"), "mcp", "--store", store, "--home", home,
                "--actor", "alice"));
        cmd.addAll(extra);
        Path out = tmp.resolve("seen.json");
        Path err = tmp.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).directory(CLIENT.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the TypeScript client did not finish in 180 s: " + Files.readString(err));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("node exit\n" + Files.readString(err) + stdout).isZero();
        return JSON.readTree(stdout);
    }

    /**
     * A fresh store holding pmid-1 served by {@code palimpsest serve} (the jar) on a free port, with a
     * token from {@code token add alice}; the client connects to its /mcp over Streamable HTTP; what it saw.
     */
    private JsonNode driveOverHttp() throws Exception {
        String store = tmp.resolve("store.git").toString();
        String home = tmp.resolve("home").toString();
        cli(store, home, "init", "--actor", "alice");
        cli(store, home, "assert", "--actor", "alice", "--kind", "source", "--id", "pmid-1", "--body", SOURCE);
        Run add = Run.inStore(store, home, "token", "add", "alice");
        assertThat(add.code()).as(add.err()).isZero();
        String token = add.out().strip();
        Path serveErr = tmp.resolve("serve.err");
        Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-jar", System.getProperty("palimpsest.jar"), "serve", "--store", store,
                "--home", home, "--listen", "127.0.0.1:0").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(serveErr.toFile()).start();
        try {
            java.util.regex.Pattern serving = java.util.regex.Pattern.compile(" at (http://127\\.0\\.0\\.1:\\d+) ");
            String url = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (url == null && System.nanoTime() < deadline) {
                java.util.regex.Matcher m = serving.matcher(Files.readString(serveErr));
                if (m.find()) {
                    url = m.group(1);
                } else {
                    Thread.sleep(100);
                }
            }
            assertThat(url).as("serve said where it listens: " + Files.readString(serveErr)).isNotNull();
            Path out = tmp.resolve("seen.json");
            Path err = tmp.resolve("stderr.txt");
            ProcessBuilder pb = new ProcessBuilder(node, CLIENT.resolve("check.mjs").toString(), "--http", url + "/mcp")
                    .directory(CLIENT.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("PALIMPSEST_TOKEN", token);
            Process p = pb.start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the TypeScript client did not finish in 180 s: " + Files.readString(err));
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("node exit\n" + Files.readString(err) + stdout).isZero();
            return JSON.readTree(stdout);
        } finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("serve stops on SIGTERM").isTrue();
            assertThat(Files.readString(serveErr)).doesNotContain(token);
        }
    }

    private static void cli(String store, String home, String... args) {
        Run r = Run.inStore(store, home, args);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isZero();
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
