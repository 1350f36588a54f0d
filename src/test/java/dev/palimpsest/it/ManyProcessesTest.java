package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.cli.Main;
import dev.palimpsest.cli.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real processes on one store: CLI writers racing one supersession, and a long-running MCP server
 * beside a CLI forget. What each process answers, and what is left on disk, holds the store's
 * guarantees whichever process wrote.
 */
class ManyProcessesTest {
    private static final String SECRET = "Ottoline Vance";

    @TempDir
    Path tmp;

    private String store;
    private String home;

    private void init() {
        store = tmp.resolve("store.git").toString();
        home = tmp.resolve("home").toString();
        cli("init", "--actor", "alice");
        cli("assert", "--actor", "alice", "--kind", "source", "--id", "src", "--body",
                "The tenancy file for flat 4 lists the tenant and the move-in date.");
    }

    @Test
    void ofThreeProcessesSupersedingOneFactAtOnceExactlyOneLands() throws Exception {
        init();
        for (int round = 0; round < 3; round++) {
            String old = "old-" + round;
            cli("assert", "--actor", "alice", "--id", old, "--body", "The tenant moved in during round " + round + ".");
            List<ChildJvm> racers = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                racers.add(ChildJvm.start(Main.class, "supersede", old, "--actor", "alice", "--id", "fix-" + round + "-" + p,
                        "--body", "Corrected by process " + p + " in round " + round + ".", "--json",
                        "--store", store, "--home", home));
            }
            List<Integer> codes = new ArrayList<>();
            String winner = null;
            for (int p = 0; p < 3; p++) {
                int code = racers.get(p).waitFor(120);
                codes.add(code);
                if (code == 0) {
                    winner = "fix-" + round + "-" + p;
                }
            }
            assertThat(codes).as("round " + round).containsExactlyInAnyOrder(0, 5, 5);
            for (ChildJvm r : racers) {
                if (r.process().exitValue() == 5) {
                    String said = String.join("\n", r.lines()) + r.stderr();
                    assertThat(said).contains("already-superseded").contains(winner);
                }
            }
        }
        assertThat(Run.inStore(store, home, "audit").code()).isZero();
    }

    @Test
    void aRunningMcpServerStopsAnsweringAFactAnotherProcessForgetsAndLeavesNoCopyBehind() throws Exception {
        init();
        cli("claim", "--actor", "alice", "--subject", "flat 4", "--predicate", "tenant", "--object", SECRET,
                "--source", "src", "--id", "who", "--sensitive");
        cli("claim", "--actor", "alice", "--subject", "flat 4", "--predicate", "tenant", "--object", "nobody",
                "--source", "src", "--id", "fix", "--supersedes", "who");
        cli("claim", "--actor", "alice", "--subject", "flat 5", "--predicate", "tenant", "--object", SECRET,
                "--source", "src", "--id", "who5", "--sensitive");
        try (McpTestClient mcp = new McpTestClient(Path.of(store), Path.of(home), "alice", null)) {
            assertThat(mcp.ok("dead_ends", Map.of("subject", "flat 4")).toString()).contains(SECRET);
            assertThat(mcp.ok("search", Map.of("query", "Ottoline")).toString()).contains(SECRET);

            for (String id : List.of("who", "who5")) {
                Run forget = Run.inStore(store, home, "forget", id, "--actor", "alice", "--reason", "erasure request");
                assertThat(forget.code()).as(forget.err()).isZero();
            }

            assertThat(mcp.ok("dead_ends", Map.of("subject", "flat 4")).toString()).doesNotContain(SECRET);
            JsonNode search = mcp.ok("search", Map.of("query", "Ottoline"));
            assertThat(search.toString()).doesNotContain(SECRET);
            assertThat(mcp.ok("brief", Map.of("query", "flat 4 tenant")).toString()).doesNotContain(SECRET);
            // the server writes (saving its indexes) while it lives, then exits
            mcp.ok("claim", Map.of("subject", "flat 4", "predicate", "rent", "object", "900", "sources", List.of("src")));
        }
        assertThat(filesHolding(SECRET)).isEmpty();
        Run check = Run.inStore(store, home, "unlearn-check", "who5", "--json");
        assertThat(check.code()).as(check.out() + check.err()).isZero();
        check = Run.inStore(store, home, "unlearn-check", "who", "--json");
        assertThat(check.json().get("readable").toString()).as("only the plaintext correction that cites it")
                .isEqualTo("[\"fix\"]");
        assertThat(Run.inStore(store, home, "dead-ends", "flat 4").out()).doesNotContain(SECRET);
        assertThat(Run.inStore(store, home, "audit").code()).isZero();
    }

    /** Files under the store, outside git's objects (which hold ciphertext only), whose bytes hold {@code text}. */
    private List<Path> filesHolding(String text) throws Exception {
        return dev.palimpsest.testing.Bytes.filesHolding(Path.of(store), text, Path.of(store).resolve("objects"));
    }

    private void cli(String... args) {
        Run r = Run.inStore(store, home, args);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r.out() + r.err()).isZero();
    }
}
