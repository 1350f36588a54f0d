package dev.palimpsest.it;

import static dev.palimpsest.it.McpLineClient.call;
import static dev.palimpsest.it.McpLineClient.parse;
import static dev.palimpsest.it.McpLineClient.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.cli.Main;
import dev.palimpsest.cli.Run;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code palimpsest mcp} line by line on stdio, in child JVMs: a malformed line gets the JSON-RPC
 * error it calls for (a blank one a warning on standard error) and every later line is answered;
 * two messages on one line are both answered; four calls in flight, again and again, are all
 * answered; the end of stdin or the death of the parent process ends the server within a second,
 * the store closed. Five server JVMs in all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpStdioTest {
    private static final long ANSWER_MILLIS = 20_000;

    @TempDir
    static Path tmp;

    private Path store;
    private Path home;
    /** The server of the line-level tests (orders 1 to 3, ended by 4); the others start their own. */
    private McpLineClient lines;

    @BeforeAll
    void buildStoreAndStartServer() throws Exception {
        store = tmp.resolve("store.git");
        home = tmp.resolve("home");
        cli("init", "--actor", "alice");
        cli("assert", "--actor", "alice", "--id", "c1", "--body", "ERK regulates apoptosis in oral carcinoma");
        lines = McpLineClient.start(store, home, "alice");
        lines.initialize();
    }

    @AfterAll
    void stop() throws Exception {
        if (lines != null) {
            lines.close();
        }
    }

    @Test
    @Order(1)
    void eachMalformedLineGetsItsJsonRpcErrorAndTheNextRequestIsAnswered() throws Exception {
        String ping = request("1", "ping", null);
        List<Object[]> cases = List.of(
                bad("", null, null),
                bad(" \t ", null, null),
                bad("not json", -32700, "null"),
                bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", -32700, "null"),
                bad("[".repeat(100_000) + "]".repeat(100_000), -32700, "null"),
                bad("{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000), -32700, "null"),
                bad("{}", -32600, "null"),
                bad("42", -32600, "null"),
                bad("[]", -32600, "null"),
                bad("[" + ping + "," + ping + "]", -32600, "null"),
                bad(request("null", "ping", null), -32600, "null"),
                bad(request("{\"a\":1}", "ping", null), -32600, "null"),
                bad(request("[1]", "ping", null), -32600, "null"),
                bad(request("true", "ping", null), -32600, "null"),
                bad(request("1.5", "ping", null), -32600, "null"),
                bad("{\"jsonrpc\":\"2.0\",\"id\":8}", -32600, "8"),
                bad("{\"jsonrpc\":\"2.0\",\"id\":\"nine\",\"method\":42}", -32600, "\"nine\""),
                bad("{\"id\":10,\"method\":\"ping\"}", -32600, "10"),
                bad(request("11", "ping", "\"not an object\""), -32600, "11"),
                bad(request("12", "no/such/method", null), -32601, "12"));
        for (int i = 0; i < cases.size(); i++) {
            String line = (String) cases.get(i)[0];
            String what = line.length() > 60 ? line.substring(0, 60) + "..." : line;
            int before = lines.lines().size();
            lines.send(line);
            lines.send(request("\"after-" + i + "\"", "ping", null));
            JsonNode pong = lines.answer("\"after-" + i + "\"", before, ANSWER_MILLIS);
            assertThat(pong.get("result")).as(what).isNotNull();
            List<String> between = lines.lines().subList(before, lines.awaitAnswer("\"after-" + i + "\"", before, 0));
            if (cases.get(i)[1] == null) {
                assertThat(between).as(what).isEmpty();
            } else {
                assertThat(between).as(what).hasSize(1);
                JsonNode error = parse(between.get(0));
                assertThat(error.get("jsonrpc").asText()).as(what).isEqualTo("2.0");
                assertThat(error.get("error").get("code").asInt()).as(what).isEqualTo(cases.get(i)[1]);
                assertThat(error.get("error").get("message").asText()).as(what).isNotBlank();
                assertThat(error.get("id")).as(what).isEqualTo(parse((String) cases.get(i)[2]));
                assertThat(error.has("result")).as(what).isFalse();
            }
        }
    }

    @Test
    @Order(2)
    void twoMessagesOnOneLineAreBothAnswered() throws Exception {
        int before = lines.lines().size();
        lines.send(request("\"a\"", "ping", null) + request("\"b\"", "ping", null));
        lines.send(request("\"c\"", "ping", null) + "  " + call("\"d\"", "show", "{\"id\":\"c1\"}"));
        for (String id : List.of("\"a\"", "\"b\"", "\"c\"")) {
            assertThat(lines.answer(id, before, ANSWER_MILLIS).get("result")).as(id).isNotNull();
        }
        JsonNode shown = lines.answer("\"d\"", before, ANSWER_MILLIS).get("result");
        assertThat(shown.get("structuredContent").get("id").asText()).isEqualTo("c1");

        int next = lines.lines().size();
        lines.send(request("\"e\"", "ping", null) + " trailing words");
        lines.send(request("\"f\"", "ping", null));
        assertThat(lines.answer("\"e\"", next, ANSWER_MILLIS).get("result")).isNotNull();
        int f = lines.awaitAnswer("\"f\"", next, ANSWER_MILLIS);
        assertThat(f).isPositive();
        List<JsonNode> errors = lines.lines().subList(next, f).stream().map(McpLineClient::parse)
                .filter(n -> n.has("error")).toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).get("error").get("code").asInt()).isEqualTo(-32700);
        assertThat(errors.get(0).get("id").isNull()).isTrue();
    }

    @Test
    @Order(3)
    void warningsGoToStandardErrorAndStandardOutputHoldsOnlyJsonRpcMessages() throws Exception {
        lines.send("");
        lines.send(request("\"last\"", "ping", null));
        lines.answer("\"last\"", 0, ANSWER_MILLIS);
        assertThat(lines.lines()).isNotEmpty().allSatisfy(l -> {
            JsonNode m = parse(l);
            assertThat(m.isObject()).as(l).isTrue();
            assertThat(m.get("jsonrpc").asText()).as(l).isEqualTo("2.0");
            assertThat(m.has("id")).as(l).isTrue();
            assertThat(m.has("result") ^ m.has("error")).as(l).isTrue();
        });
        assertThat(lines.jvm.stderr().lines()).anyMatch(l -> l.startsWith("WARN ") && l.contains("is blank: skipped"));
    }

    @Test
    @Order(4)
    void fourToolCallsInFlightAtOnceAreAllAnsweredRoundAfterRound() throws Exception {
        // a server holds the search index from its start: the line-level one ends so the next ones can hold it
        lines.close();
        try (McpLineClient c = McpLineClient.start(store, home, "alice")) {
            c.initialize();
            for (int round = 0; round < 200; round++) {
                int before = c.lines().size();
                List<String> ids = List.of("\"r" + round + "-show\"", "\"r" + round + "-log\"",
                        "\"r" + round + "-search\"", "\"r" + round + "-exists\"");
                c.send(String.join("\n", call(ids.get(0), "show", "{\"id\":\"c1\"}"),
                        call(ids.get(1), "log", "{\"limit\":2}"),
                        call(ids.get(2), "search", "{\"query\":\"apoptosis\",\"limit\":3}"),
                        call(ids.get(3), "exists", "{\"id\":\"c1\"}")));
                for (String id : ids) {
                    JsonNode result = c.answer(id, before, ANSWER_MILLIS).get("result");
                    assertThat(result).as("round " + round + " " + id).isNotNull();
                    assertThat(result.get("isError").asBoolean()).as("round " + round + " " + id).isFalse();
                }
            }
        }
    }

    @Test
    @Order(5)
    void closingStdinEndsTheServerWithinOneSecondAndClosesTheStore() throws Exception {
        try (McpLineClient c = McpLineClient.start(store, home, "alice")) {
            c.initialize();
            c.send(call("2", "search", "{\"query\":\"apoptosis\"}"));
            c.answer("2", 0, ANSWER_MILLIS);
            c.send(call("3", "assert", "{\"id\":\"eof-1\",\"body\":\"written before stdin closed\"}"));
            String commit = c.answer("3", 0, ANSWER_MILLIS).get("result").get("structuredContent").get("commit")
                    .asText();
            c.send("{}");
            c.send(request("4", "ping", null));
            c.answer("4", 0, ANSWER_MILLIS);

            long start = System.nanoTime();
            c.jvm.closeInput();
            boolean exited = c.jvm.process().waitFor(10, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(exited).as("exited; stderr:\n" + c.jvm.stderr()).isTrue();
            System.out.println("mcp: stdin closed -> exit in " + millis + " ms");
            assertThat(millis).isLessThan(1000);
            assertThat(c.jvm.process().exitValue()).as(c.jvm.stderr()).isZero();
            assertThat(searchIndexCommit()).as("the search index saved at close").isEqualTo(commit);
        }
    }

    @Test
    @Order(6)
    void theDeathOfTheParentProcessEndsTheServer() throws Exception {
        Path fifo = tmp.resolve("server-stdin");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        // the server's stdin is a named pipe this test holds open: its parent's death is no end of input
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "fifo=$1; shift; \"$@\" <\"$fifo\" & wait", "sh",
                fifo.toString()));
        cmd.addAll(McpLineClient.command(store, home, "alice"));
        ChildJvm parent = ChildJvm.start(cmd);
        ProcessHandle server = null;
        try (FileOutputStream stdin = new FileOutputStream(fifo.toFile())) {
            McpLineClient c = new McpLineClient(parent, stdin);
            c.initialize();
            c.send(request("1", "ping", null));
            c.answer("1", 0, ANSWER_MILLIS);
            server = parent.process().toHandle().children().findFirst().orElseThrow();
            parent.process().destroyForcibly();
            assertThat(parent.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            long pid = server.pid();
            while (alive(pid) && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10)) {
                Thread.sleep(20);
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("mcp: parent killed -> exit in " + millis + " ms");
            assertThat(alive(pid)).as("server alive after its parent died; stderr:\n" + parent.stderr()).isFalse();
            assertThat(millis).isLessThan(2000);
        } finally {
            if (server != null && alive(server.pid())) {
                server.destroyForcibly();
            }
            if (parent.process().isAlive()) {
                parent.process().destroyForcibly();
            }
        }
    }

    @Test
    @Order(7)
    void aCliCommandPrintsNothingOnStandardError() throws Exception {
        ChildJvm log = ChildJvm.start(Main.class, "log", "--store", store.toString(), "--home", home.toString());
        assertThat(log.waitFor(60)).as(log.stderr()).isZero();
        assertThat(log.stderr()).isEmpty();
        assertThat(log.lines()).isNotEmpty();
    }

    private static Object[] bad(String line, Integer code, String id) {
        return new Object[] {line, code, id};
    }

    /**
     * A live process: a zombie is none (an orphan that exited stays one until init reaps it, and the
     * JDK's ProcessHandle may call it alive for a second or more).
     */
    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /** The commit the persisted search index describes. */
    private String searchIndexCommit() throws Exception {
        try (Directory d = FSDirectory.open(store.resolve("palimpsest-index").resolve("search-v1"))) {
            Map<String, String> data = SegmentInfos.readLatestCommit(d).getUserData();
            return data.get("commit");
        }
    }

    private void cli(String... args) {
        Run r = Run.inStore(store.toString(), home.toString(), args);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isZero();
    }
}
