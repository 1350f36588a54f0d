package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.TestStores;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Roles through the CLI: an agent key is refused a human's fact (exit 5, nothing written), a human key is not. */
class CliGovernanceTest extends CliStoreTest {
    private void keys(String init) {
        if (init == null) {
            ok("init", "--actor", "alice");
        } else {
            ok("init", "--actor", "alice", "--agents-may", init);
        }
        for (String[] k : new String[][] {{"bot", "agent"}, {"carol", "human"}}) {
            String file = dir.resolve(k[0] + ".asc").toString();
            ok("keys", "generate", "--name", k[0], "--out", file);
            ok("keys", "add", "--actor", "alice", "--name", k[0], "--key", file, "--role", k[1]);
        }
        ok("assert", "--actor", "alice", "--id", "pier", "--body", "The pier opens in May.");
    }

    @Test
    void anAgentKeyIsRefusedAHumanFactsRetractionWithExitFiveAndNothingIsWritten() {
        keys(null);
        Set<String> before = TestStores.durableState(Path.of(store));
        Run r = cmd("retract", "--actor", "bot", "pier", "--reason", "outdated", "--json");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        assertThat(r.out().replaceAll("\\s+", "")).contains("\"rule\":\"agent-overrides-human\"");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        assertThat(ok("show", "pier").out()).contains("The pier opens in May.");

        ok("retract", "--actor", "carol", "pier", "--reason", "the opening moved to June");
        Run audit = cmd("audit", "--json");
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.OK);
    }

    @Test
    void initAgentsMayGrantsTheRetractionAndRefusesAnUnknownGrant() {
        Run bad = cmd("init", "--actor", "alice", "--agents-may", "retract-everything");
        assertThat(bad.code()).isEqualTo(Main.USAGE);
        assertThat(bad.err()).contains("--agents-may").contains("retract-everything");
        keys("override-human");
        ok("retract", "--actor", "bot", "pier", "--reason", "granted by the store");
        Run audit = cmd("audit", "--json");
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.OK);
    }

    @Test
    void aHumanKeyChangesWhatAgentsMayAndAnAgentKeyIsRefusedTheChangeAtTheGateAndInTheAudit() throws Exception {
        keys(null);
        assertThat(ok("policy", "agents-may", "show").out()).contains("agents may: nothing beyond the default");
        assertThat(cmd("retract", "--actor", "bot", "pier", "--reason", "outdated").code()).isEqualTo(Main.REJECTED);

        Run grant = ok("policy", "agents-may", "add", "override-human", "--actor", "carol", "--json");
        assertThat(grant.json().get("agents_may").get(0).asText()).isEqualTo("override-human");
        String granted = grant.json().get("commit").asText();
        assertThat(ok("log", "-n", "1", "--json").json().get(0).get("actor").asText()).isEqualTo("carol");
        assertThat(ok("policy", "agents-may", "add", "override-human", "--actor", "carol").out()).contains("(unchanged)");

        Set<String> before = TestStores.durableState(Path.of(store));
        for (String[] change : new String[][] {{"remove", "override-human"}, {"add", "retract-snapshot"},
                {"set", "none"}}) {
            Run r = cmd("policy", "agents-may", change[0], change[1], "--actor", "bot", "--json");
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
            assertThat(r.out().replaceAll("\\s+", "")).contains("\"rule\":\"agents-may-human-only\"")
                    .contains("\"subject\":\"palimpsest.yaml\"");
        }
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        assertThat(cmd("policy", "agents-may", "add", "everything", "--actor", "alice").code()).isEqualTo(Main.USAGE);

        ok("retract", "--actor", "bot", "pier", "--reason", "granted by carol");
        ok("assert", "--actor", "alice", "--id", "quay", "--body", "The quay closes in winter.");
        ok("policy", "agents-may", "set", "none", "--actor", "alice");
        assertThat(cmd("retract", "--actor", "bot", "quay", "--reason", "outdated").code()).isEqualTo(Main.REJECTED);
        assertThat(ok("policy", "agents-may", "show", "--at", granted, "--json").json().get("agents_may").get(0)
                .asText()).isEqualTo("override-human");
        assertThat(ok("policy", "agents-may", "show", "--json").json().get("agents_may")).isEmpty();
        Run audit = cmd("audit", "--json");
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.OK);
    }
}
