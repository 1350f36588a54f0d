package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.cli.Main;
import dev.palimpsest.cli.Run;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge that cannot be asked (nothing listens at its port, its key is no valid header) is exit 8,
 * kind {@code judge-unavailable}, naming what failed and never the key, and nothing is written.
 */
class JudgeUnavailableTest {
    @TempDir
    Path dir;

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    @BeforeEach
    void init() {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        assertThat(cmd("assert", "--actor", "alice", "--id", "readme", "--kind", "source", "--body",
                "GraphARC wraps LangGraph with typed state contracts.").code()).isZero();
    }

    private static List<String> verify(String url) {
        return List.of("claim", "--actor", "alice", "--subject", "GraphARC", "--predicate", "has", "--object",
                "typed state", "--source", "readme", "--quote", "wraps LangGraph with typed", "--verify",
                "--judge-url", url, "--judge-model", "openai/gpt-4o-mini", "--judge-retries", "0", "--json");
    }

    @Test
    void aJudgeAtAClosedPortIsExitEightAndWritesNothing() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run r = cmd(verify("http://127.0.0.1:" + port + "/v1").toArray(String[]::new));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.JUDGE_UNAVAILABLE);
        JsonNode error = r.json().get("error");
        assertThat(error.get("kind").asText()).isEqualTo("judge-unavailable");
        assertThat(error.get("exit").asInt()).isEqualTo(8);
        assertThat(error.get("message").asText()).contains("127.0.0.1:" + port).contains("cannot connect");
        assertThat(cmd("log", "--json").json()).hasSize(2);

        Run text = cmd("verify", "--source", "readme", "--quote", "wraps LangGraph with typed", "--claim", "x",
                "--judge-url", "http://127.0.0.1:" + port + "/v1", "--judge-model", "m", "--judge-retries", "0");
        assertThat(text.code()).isEqualTo(Main.JUDGE_UNAVAILABLE);
        assertThat(text.err()).startsWith("error: judge m at http://127.0.0.1:" + port + "/v1/chat/completions failed:");
    }

    @Test
    void aKeyThatIsNoValidHeaderIsExitEightWithoutNamingTheKey() throws Exception {
        List<String> cmd = new ArrayList<>(ChildJvm.command(Main.class, verify("http://127.0.0.1:9/v1").toArray(String[]::new)));
        cmd.addAll(List.of("--store", dir.resolve("s.git").toString(), "--home", dir.resolve("home").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve("err.txt").toFile())
                .redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().put("PALIMPSEST_JUDGE_KEY", "sk-secret\nX-Injected: 1");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(Main.JUDGE_UNAVAILABLE);
        JsonNode error = new ObjectMapper().readTree(out).get("error");
        assertThat(error.get("kind").asText()).isEqualTo("judge-unavailable");
        assertThat(error.get("message").asText()).contains("no valid HTTP header value").doesNotContain("sk-secret");
        assertThat(Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8)).isEmpty();
        assertThat(cmd("log", "--json").json()).hasSize(2);
    }

    @Test
    void aQuotaBannerAnsweredWith200IsJudgeDegradedAndTheRecoveredJudgeIsAskedAgain() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> reply = new java.util.concurrent.atomic.AtomicReference<>(
                "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day");
        try (var server = new dev.palimpsest.judge.LocalChatServer(m -> reply.get())) {
            List<String> args = List.of("verify", "--source", "readme", "--quote", "wraps LangGraph with typed",
                    "--claim", "GraphARC has typed state", "--judge-url", server.url(), "--judge-model", "m",
                    "--judge-retries", "0", "--json");
            Run banner = cmd(args.toArray(String[]::new));
            assertThat(banner.code()).as(banner.out() + banner.err()).isEqualTo(Main.JUDGE_UNAVAILABLE);
            JsonNode error = banner.json().get("error");
            assertThat(error.get("kind").asText()).isEqualTo("judge-degraded");
            assertThat(error.get("message").asText()).contains("answered no verdict").contains("not accepted");

            reply.set("{\"supported\": true, \"reason\": \"the source says so\"}");
            Run recovered = cmd(args.toArray(String[]::new));
            assertThat(recovered.code()).as(recovered.out() + recovered.err()).isZero();
            assertThat(recovered.json().get("accepted").asBoolean()).isTrue();
            assertThat(server.messages()).hasSize(2);
        }
        assertThat(cmd("log", "--json").json()).hasSize(2);
    }
}
