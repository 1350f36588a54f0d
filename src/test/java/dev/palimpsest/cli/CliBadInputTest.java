package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input that used to get through: each is an exit-5 rejection with its rule id and nothing
 * written, or is stored exactly, readable back, and kept out of the commit subject's raw bytes.
 */
class CliBadInputTest extends CliStoreTest {
    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "src", "--kind", "source", "--body", "what the source says");
    }

    @Test
    void controlCharactersAreStoredExactlyAndEscapedInTheCommitSubject() throws Exception {
        String object = "x\u0000y\u001b[2J\u0007\u009b1m\u007f\u202e!";
        ok("claim", "--actor", "alice", "--subject", "gina", "--predicate", "likes", "--object", object,
                "--source", "src", "--id", "ctl");
        assertThat(ok("show", "ctl", "--json").json().get("body").asText()).isEqualTo("gina likes " + object);
        assertThat(ok("current", "gina", "--json").json().get(0).get("object").asText()).isEqualTo(object);
        String subject = ok("log", "-n", "1", "--json").json().get(0).get("subject").asText();
        assertThat(subject).isEqualTo("assert ctl: gina likes x\\x00y\\x1b[2J\\x07\\x9b1m\\x7f\\u202e!");
    }

    @Test
    void aLongSubjectIsNeverCutBetweenTheHalvesOfASurrogatePair() throws Exception {
        ok("assert", "--actor", "alice", "--id", "e1", "--body", "a".repeat(56) + "\ud83d\ude00" + "b".repeat(20));
        assertThat(ok("log", "-n", "1", "--json").json().get(0).get("subject").asText())
                .isEqualTo("assert e1: " + "a".repeat(56) + "...");
        ok("assert", "--actor", "alice", "--id", "e2", "--body", "a".repeat(55) + "\ud83d\ude00" + "b".repeat(20));
        assertThat(ok("log", "-n", "1", "--json").json().get(0).get("subject").asText())
                .isEqualTo("assert e2: " + "a".repeat(55) + "\ud83d\ude00" + "...");
    }

}
