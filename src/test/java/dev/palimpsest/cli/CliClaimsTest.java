package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The claims commands end to end through the CLI, exit codes and JSON shapes included. */
class CliClaimsTest {
    @TempDir
    Path dir;

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    private JsonNode ok(Run r) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return r.json();
    }

    @BeforeEach
    void init() throws Exception {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        ok(cmd("assert", "--actor", "alice", "--id", "cfg", "--kind", "source", "--json",
                "--body", "auth-service: timeout 30s, later 10s"));
        ok(cmd("assert", "--actor", "alice", "--id", "incident", "--kind", "source", "--json",
                "--body", "the incident showed a 15s timeout"));
    }

    @Test
    void claimDetectCorrectAndAsk() throws Exception {
        JsonNode t1 = ok(cmd("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after",
                "--object", "30s", "--source", "cfg", "--quote", "auth-service: timeout", "--run", "run-12", "--id", "t1",
                "--json"));
        assertThat(t1.get("id").asText()).isEqualTo("t1");
        assertThat(t1.get("commit").asText()).hasSize(40);
        assertThat(t1.get("conflicts")).isEmpty();
        String afterT1 = t1.get("commit").asText();
        JsonNode trailers = ok(cmd("log", "-n", "1", "--json")).get(0).get("trailers");
        assertThat(trailers).extracting(n -> n.get("key").asText() + ": " + n.get("value").asText())
                .containsSubsequence("Palimpsest-Actor: alice", "Palimpsest-Run: run-12", "Palimpsest-Op: assert");
        // a revision keeps the claim's triple and run
        ok(cmd("revise", "--actor", "alice", "t1", "--body", "auth-service times out after 30s (config)", "--json"));
        JsonNode revised = ok(cmd("show", "t1", "--json"));
        assertThat(revised.get("body").asText()).contains("(config)");
        assertThat(ok(cmd("current", "auth-service", "--json")).get(0).get("run").asText()).isEqualTo("run-12");
        afterT1 = ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText();

        JsonNode t2 = ok(cmd("claim", "--actor", "alice", "--subject", "Auth Service", "--predicate", "times out after",
                "--object", "15s", "--source", "incident", "--run", "run-37", "--json"));
        assertThat(t2.get("id").asText()).startsWith("entity-claim-");
        assertThat(t2.get("conflicts")).hasSize(1);
        assertThat(t2.get("conflicts").get(0).get("id").asText()).isEqualTo("t1");
        assertThat(t2.get("conflicts").get(0).get("object").asText()).isEqualTo("30s");
        assertThat(t2.get("conflicts").get(0).get("source").asText()).isEqualTo("cfg");

        JsonNode groups = ok(cmd("contradictions", "--subject", "AUTH-SERVICE", "--json"));
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).get("subject").asText()).isEqualTo("auth service");
        assertThat(groups.get(0).get("predicate").asText()).isEqualTo("times out after");
        assertThat(groups.get(0).get("claims")).hasSize(2);

        // resolved deliberately: a corrected claim supersedes t1
        JsonNode t3 = ok(cmd("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after",
                "--object", "15s", "--source", "incident", "--supersedes", "t1", "--id", "t3", "--json"));
        assertThat(t3.get("conflicts")).isEmpty();
        JsonNode current = ok(cmd("current", "auth-service", "--json"));
        assertThat(current).extracting(n -> n.get("id").asText()).containsExactly(t2.get("id").asText(), "t3");
        assertThat(current.get(0).get("run").asText()).isEqualTo("run-37");
        assertThat(current.get(0).fieldNames()).toIterable()
                .containsExactly("id", "subject", "predicate", "object", "source", "run", "commit");
        assertThat(ok(cmd("current", "auth-service", "--at", afterT1, "--json"))).hasSize(1);
        assertThat(ok(cmd("current", "auth-service", "--predicate", "listens on", "--json"))).isEmpty();

        JsonNode dead = ok(cmd("dead-ends", "auth-service", "--json"));
        assertThat(dead.get("kept")).hasSize(1);
        assertThat(dead.get("kept").get(0).get("id").asText()).isEqualTo("t1");
        assertThat(dead.get("kept").get(0).get("superseded_by").asText()).isEqualTo("t3");
        assertThat(dead.get("omitted").asInt()).isZero();
        assertThat(ok(cmd("dead-ends", "auth-service", "--max", "0", "--json")).get("omitted").asInt()).isEqualTo(1);

        JsonNode chain = ok(cmd("chain", "auth-service", "times out after", "--json"));
        assertThat(chain).extracting(n -> n.get("id").asText()).containsExactly("t1", t2.get("id").asText(), "t3");
        assertThat(chain.get(0).get("actor").asText()).isEqualTo("alice");
        assertThat(chain.get(0).get("status").asText()).isEqualTo("superseded");

        // a second supersession of t1 is refused, exit 5, naming the successor
        Run again = cmd("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after",
                "--object", "5s", "--source", "cfg", "--supersedes", "t1", "--json");
        assertThat(again.code()).isEqualTo(5);
        assertThat(again.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("already-superseded");
        assertThat(again.json().get("error").get("violations").get(0).get("message").asText()).contains("t3");
        Run self = cmd("supersede", "--actor", "alice", "t3", "--id", "t3", "--body", "t3 again", "--json");
        assertThat(self.code()).isEqualTo(5);
        assertThat(self.out()).contains("self-supersession");

        // text output and the audit
        assertThat(cmd("current", "auth-service").out()).contains("t3: auth-service | times out after | 15s");
        Run audit = cmd("audit");
        assertThat(audit.code()).as(audit.out()).isZero();
    }

    @Test
    void badInputIsRejectedOrNotFound() throws Exception {
        String head = ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText();
        Run noSource = cmd("claim", "--actor", "alice", "--subject", "x", "--predicate", "is", "--object", "y",
                "--source", "nope", "--json");
        assertThat(noSource.code()).isEqualTo(5);
        assertThat(noSource.json().get("error").get("violations").get(0).get("fact").isNull()).isTrue();
        Run missing = cmd("claim", "--actor", "alice", "--subject", "x", "--predicate", "is", "--object", "y");
        assertThat(missing.code()).isEqualTo(2);
        Run empty = cmd("claim", "--actor", "alice", "--subject", "?!", "--predicate", "is", "--object", "y",
                "--source", "cfg", "--json");
        assertThat(empty.code()).isEqualTo(5);
        assertThat(empty.out()).contains("claim-triple");
        Run badRun = cmd("claim", "--actor", "alice", "--subject", "x", "--predicate", "is", "--object", "y",
                "--source", "cfg", "--run", "no spaces allowed", "--json");
        assertThat(badRun.code()).isEqualTo(5);
        assertThat(ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText()).isEqualTo(head);
        assertThat(cmd("current", "x", "--at", "deadbeef").code()).isEqualTo(4);
        assertThat(cmd("dead-ends", "x", "--max", "-1").code()).isEqualTo(5);
        assertThat(Run.of("current", "x", "--store", dir.resolve("none.git").toString()).code()).isEqualTo(6);
    }
}
