package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTemporalTest {
    @TempDir
    Path dir;


    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    private String commit(Run r) throws Exception {
        assertThat(r.code()).as(r.err()).isZero();
        return r.json().get("commit").asText();
    }

    @BeforeEach
    void init() throws Exception {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
    }

    @Test
    void liveAndExistsAnswerAtAnyCommit() throws Exception {
        String added = commit(cmd("assert", "--actor", "alice", "--id", "s1", "--kind", "source", "--json",
                "--body", "source text"));
        String gone = commit(cmd("retract", "--actor", "alice", "s1", "--reason", "wrong", "--json"));
        assertThat(cmd("live", "s1", "--at", added).out().trim()).isEqualTo("true");
        assertThat(cmd("live", "s1").out().trim()).isEqualTo("false");
        assertThat(cmd("exists", "s1").out().trim()).isEqualTo(added);
        assertThat(cmd("exists", "s1", "--at", gone, "--json").json().get("live").asBoolean()).isFalse();
        Run never = cmd("exists", "nope");
        assertThat(never.code()).isEqualTo(4);
        assertThat(cmd("exists", "s1", "--at", "main~2").code()).as("before the add").isEqualTo(4);
        assertThat(cmd("live", "s1", "--at", "0123456789abcdef0123456789abcdef01234567").code()).isEqualTo(4);
    }

    @Test
    void mergeSupersedeSubsumesInboundStaleAndWeightSpeakJson() throws Exception {
        commit(cmd("assert", "--actor", "alice", "--id", "s1", "--kind", "source", "--json", "--body", "one"));
        commit(cmd("assert", "--actor", "alice", "--id", "a", "--json", "--body", "a", "--ref", "s1"));
        commit(cmd("assert", "--actor", "alice", "--id", "b", "--json", "--body", "b", "--ref", "s1"));
        Run merged = cmd("merge", "--actor", "alice", "a", "b", "--id", "m", "--body", "a and b", "--json");
        assertThat(merged.code()).as(merged.err()).isZero();
        assertThat(merged.json().get("retracted")).hasSize(2);
        JsonNode w = cmd("weight", "m", "--json").json();
        assertThat(w.get("s").asDouble()).isEqualTo(1.0);
        assertThat(w.get("w").asDouble()).isEqualTo(0.5);

        JsonNode inbound = cmd("inbound", "s1", "--all", "--json").json();
        assertThat(inbound).hasSize(2);
        assertThat(inbound.get(0).get("live").asBoolean()).isFalse();
        assertThat(inbound.get(0).get("pinned_commit").asText()).matches("[0-9a-f]{40}");

        String sup = commit(cmd("supersede", "--actor", "alice", "s1", "--id", "s1b", "--kind", "source",
                "--body", "one, corrected", "--json"));
        JsonNode stale = cmd("stale", "m", "--json").json();
        assertThat(stale.get(0).get("status").asText()).isEqualTo("retracted");
        commit(cmd("assert", "--actor", "alice", "--id", "c", "--body", "c", "--ref", "s1@" + sup, "--json"));
        JsonNode st2 = cmd("stale", "c", "--json").json();
        assertThat(st2.get(0).get("status").asText()).isEqualTo("superseded");
        assertThat(st2.get(0).get("superseded_by").asText()).isEqualTo("s1b");

        commit(cmd("assert", "--actor", "alice", "--id", "h", "--kind", "hypothesis", "--body", "guess", "--json"));
        commit(cmd("assert", "--actor", "alice", "--id", "o", "--body", "seen", "--subsumes", "h", "--json"));
        assertThat(cmd("live", "h").out().trim()).isEqualTo("false");
        Run tooFew = cmd("merge", "--actor", "alice", "c", "c", "--body", "x");
        assertThat(tooFew.code()).isEqualTo(5);
        assertThat(tooFew.err()).contains("two distinct inputs");
    }
}
