package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.api.TestStores;
import java.nio.file.Path;
import java.util.Set;
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

    private Run claim(String subject, String predicate, String object, String... more) {
        String[] args = {"claim", "--actor", "alice", "--subject", subject, "--predicate", predicate, "--object",
                object, "--source", "src", "--json"};
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return cmd(all);
    }

    private JsonNode rejected(Run r, String rule) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        JsonNode v = r.json().get("error").get("violations");
        assertThat(v.findValuesAsText("rule")).containsExactly(rule);
        return v.get(0);
    }

    @Test
    void aPredicateOverTwoHundredCharactersIsTooLargeAndWritesNothing() throws Exception {
        Set<String> before = TestStores.durableState(Path.of(store));
        JsonNode v = rejected(claim("gina", "p".repeat(201), "x"), "too-large");
        assertThat(v.get("subject").asText()).isEqualTo("new fact");
        assertThat(v.get("message").asText()).contains("201 characters").contains("limit of 200");
        rejected(claim("gina", "p".repeat(201), "x", "--id", "c1"), "too-large");
        Run text = claim("gina", "p".repeat(201), "x");
        assertThat(text.err()).doesNotContain("internal");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        ok("claim", "--actor", "alice", "--subject", "gina", "--predicate", "p".repeat(200), "--object", "x",
                "--source", "src", "--id", "c200");
        assertThat(ok("show", "c200", "--json").json().get("body").asText()).contains("p".repeat(200));
    }

    @Test
    void aBlankTriplePartIsAClaimTripleRejectionNotAnInternalError() throws Exception {
        Set<String> before = TestStores.durableState(Path.of(store));
        rejected(claim("   ", "likes", "tea"), "claim-triple");
        rejected(claim("gina", " ", "tea"), "claim-triple");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
    }

    @Test
    void aLoneSurrogateInAnArgumentIsInvalidTextNamingTheOption() throws Exception {
        Set<String> before = TestStores.durableState(Path.of(store));
        JsonNode v = rejected(claim("gi\ud800na", "likes", "tea"), "invalid-text");
        assertThat(v.get("subject").asText()).isEqualTo("--subject");
        assertThat(v.get("message").asText()).contains("U+D800").contains("index 2");
        assertThat(rejected(claim("gina", "likes", "tea\udc00"), "invalid-text").get("subject").asText())
                .isEqualTo("--object");
        assertThat(rejected(cmd("assert", "--actor", "alice", "--body", "\udbff", "--json"), "invalid-text")
                .get("subject").asText()).isEqualTo("--body");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        ok("claim", "--actor", "alice", "--subject", "gina \ud83d\ude00", "--predicate", "likes", "--object", "tea",
                "--source", "src", "--id", "pair");
        assertThat(ok("current", "gina \ud83d\ude00", "--json").json().get(0).get("subject").asText())
                .isEqualTo("gina \ud83d\ude00");
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

    @Test
    void invisibleCharactersInAnEntityNameMakeNoLookAlikeEntity() throws Exception {
        ok("claim", "--actor", "alice", "--subject", "Gina", "--predicate", "likes", "--object", "tea", "--source",
                "src", "--id", "plain");
        for (String invisible : new String[] {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"}) {
            String id = "c" + Integer.toHexString(invisible.charAt(0));
            JsonNode r = claim("Gi" + invisible + "na", "likes", "coffee", "--id", id).json();
            assertThat(r.get("conflicts").findValuesAsText("id")).as("U+%04X", (int) invisible.charAt(0))
                    .contains("plain");
        }
        JsonNode groups = ok("contradictions", "--subject", "gina", "--json").json();
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).get("subject").asText()).isEqualTo("gina");
        assertThat(groups.get(0).get("claims")).hasSize(7);
        assertThat(ok("current", "G\u200bINA", "--json").json()).hasSize(7);
    }
}
