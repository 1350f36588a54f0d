package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Receipts through the CLI's own writes: {@code assert} and {@code revise} take {@code --receipt}
 * bundles (each member pinned at the write or as read at a commit) and {@code --sentence-receipts}
 * files; a merge, edge or summary without one is still refused {@code receipt-required}, with one it
 * lands, the cascade follows it, and {@code receipts ID} shows it with what is alive.
 */
class CliReceiptWritesTest extends CliStoreTest {
    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("ingest", "--actor", "alice", "--file", "examples/receipts-corpus.yaml");
    }

    private int commits() throws Exception {
        return cmd("log", "--json").json().size();
    }

    private static List<String> rules(Run r) throws Exception {
        List<String> out = new ArrayList<>();
        r.json().get("error").get("violations").forEach(v -> out.add(v.get("rule").asText()));
        return out;
    }

    @Test
    void aMergeWithoutAReceiptIsStillRefusedAndWithBundlesItLandsAndTheCascadeFollowsThem() throws Exception {
        int before = commits();
        Run bare = cmd("assert", "--actor", "alice", "--kind", "merge", "--id", "m2", "--body", "ERK == MAPK",
                "--json");
        assertThat(bare.code()).as(bare.out()).isEqualTo(Main.REJECTED);
        assertThat(rules(bare)).containsExactly("receipt-required");
        assertThat(commits()).isEqualTo(before);

        Run landed = cmd("assert", "--actor", "alice", "--kind", "merge", "--id", "m2", "--body", "ERK == MAPK",
                "--receipt", "a1", "--receipt", "a5, a6", "--json");
        assertThat(landed.code()).as(landed.out() + landed.err()).isZero();
        JsonNode r = ok("receipts", "m2", "--json").json();
        assertThat(r.get("kind").asText()).isEqualTo("merge");
        assertThat(r.get("alive").asBoolean()).isTrue();
        assertThat(r.get("flat").asBoolean()).isFalse();
        assertThat(r.get("receipt")).hasSize(2);
        assertThat(r.get("receipt").get(0).findValuesAsText("id")).containsExactly("a1");
        assertThat(r.get("receipt").get(1).findValuesAsText("id")).containsExactly("a5", "a6");
        assertThat(r.get("receipt").get(0).get(0).get("commit").asText()).matches("[0-9a-f]{40}");

        ok("retract-source", "--actor", "alice", "pmid-39973430", "--reason", "retracted");
        JsonNode half = ok("receipts", "m2", "--json").json();
        assertThat(half.get("alive").asBoolean()).isTrue();
        assertThat(half.get("receipt").get(0).get(0).get("alive").asBoolean()).isFalse();
        assertThat(ok("receipts", "m2").out()).contains("m2 (merge) at").contains(": alive")
                .contains("bundle 1: a1@").contains("(dead)").contains("bundle 2: a5@");

        ok("retract-source", "--actor", "alice", "pmid-38800001", "--reason", "retracted");
        assertThat(cmd("show", "m2").code()).isEqualTo(Main.NOT_FOUND);
        JsonNode gone = ok("receipts", "m2", "--json").json();
        assertThat(gone.get("live").asBoolean()).isFalse();
        assertThat(gone.get("alive").asBoolean()).isFalse();
        assertThat(ok("audit").code()).isZero();
    }

    @Test
    void aMemberNamedAsReadAtACommitIsPinnedToItsVersionThereAndAnUnknownRevisionIsPinUnknown() throws Exception {
        ok("assert", "--actor", "alice", "--id", "note", "--body", "ERK and MAPK name one pathway (first reading)");
        String first = cmd("log", "--json").json().get(0).get("commit").asText();
        ok("revise", "--actor", "alice", "note", "--body", "ERK and MAPK name one pathway (second reading)");
        String second = cmd("log", "--json").json().get(0).get("commit").asText();

        ok("assert", "--actor", "alice", "--kind", "merge", "--id", "m-old", "--body", "ERK == MAPK (old reading)",
                "--receipt", "note@" + first.substring(0, 10));
        ok("assert", "--actor", "alice", "--kind", "merge", "--id", "m-new", "--body", "ERK == MAPK (new reading)",
                "--receipt", "note");
        assertThat(ok("receipts", "m-old", "--json").json().get("receipt").get(0).get(0).get("commit").asText())
                .isEqualTo(first);
        assertThat(ok("receipts", "m-new", "--json").json().get("receipt").get(0).get(0).get("commit").asText())
                .isEqualTo(second);

        int before = commits();
        Run unknown = cmd("assert", "--actor", "alice", "--kind", "merge", "--id", "m-x", "--body", "x",
                "--receipt", "note@nowhere", "--json");
        assertThat(unknown.code()).isEqualTo(Main.REJECTED);
        assertThat(rules(unknown)).containsExactly("pin-unknown");
        assertThat(unknown.out()).contains("'nowhere' names no commit of this store");
        Run early = cmd("assert", "--actor", "alice", "--kind", "merge", "--id", "m-x", "--body", "x",
                "--receipt", "note@main~4", "--json");
        assertThat(early.code()).isEqualTo(Main.REJECTED);
        assertThat(rules(early)).containsExactly("receipt-member-missing");
        Run self = cmd("assert", "--actor", "alice", "--kind", "merge", "--id", "m-x", "--body", "x",
                "--receipt", "m-x,a1", "--receipt", "", "--json");
        assertThat(self.code()).isEqualTo(Main.REJECTED);
        assertThat(rules(self)).contains("invalid-argument");
        assertThat(commits()).isEqualTo(before);
        assertThat(ok("audit").code()).isZero();
    }

    @Test
    void aSummaryTakesSentenceReceiptsFromAFileOrOneFlatReceiptAndReviseReplacesThem() throws Exception {
        String file = Files.writeString(dir.resolve("sentences.yaml"), """
                - text: "ERK1/2 signalling regulates apoptosis."
                  receipt: [[a5], [a1]]
                - text: "Apoptosis is part of programmed cell death."
                  receipt: [[a6]]
                """).toString();
        ok("assert", "--actor", "alice", "--kind", "summary", "--id", "s-erk", "--sentence-receipts", file);
        assertThat(ok("show", "s-erk", "--json").json().get("body").asText())
                .isEqualTo("ERK1/2 signalling regulates apoptosis. Apoptosis is part of programmed cell death.");
        JsonNode r = ok("receipts", "s-erk", "--json").json();
        assertThat(r.get("sentences")).hasSize(2);
        assertThat(r.get("sentences").get(0).get("receipt")).hasSize(2);
        assertThat(r.get("receipt")).isEmpty();

        String mapping = Files.writeString(dir.resolve("mapping.json"),
                "{\"ERK regulates apoptosis.\": [[\"a5\"]]}").toString();
        ok("assert", "--actor", "alice", "--kind", "summary", "--id", "s-map", "--sentence-receipts", mapping,
                "--body", "ERK regulates apoptosis.");
        assertThat(ok("receipts", "s-map", "--json").json().get("sentences").get(0).get("text").asText())
                .isEqualTo("ERK regulates apoptosis.");

        ok("assert", "--actor", "alice", "--kind", "summary", "--id", "s-flat", "--body", "ERK regulates apoptosis.",
                "--receipt", "a5", "--receipt", "a1");
        assertThat(ok("receipts", "s-flat", "--json").json().get("flat").asBoolean()).isTrue();

        // revise: a flat summary gets a new receipt; a sentence summary new sentences
        ok("revise", "--actor", "alice", "s-flat", "--receipt", "a6");
        JsonNode flat = ok("receipts", "s-flat", "--json").json();
        assertThat(flat.get("receipt")).hasSize(1);
        assertThat(flat.get("receipt").get(0).findValuesAsText("id")).containsExactly("a6");
        assertThat(ok("show", "s-flat", "--json").json().get("body").asText()).isEqualTo("ERK regulates apoptosis.");
        String one = Files.writeString(dir.resolve("one.yaml"),
                "sentences:\n  - {text: \"Apoptosis is part of programmed cell death.\", receipt: [[a6]]}\n").toString();
        ok("revise", "--actor", "alice", "s-erk", "--sentence-receipts", one);
        assertThat(ok("show", "s-erk", "--json").json().get("body").asText())
                .isEqualTo("Apoptosis is part of programmed cell death.");
        assertThat(ok("receipts", "s-erk", "--json").json().get("sentences")).hasSize(1);

        // the cascade drops the sentence whose receipt died, and revision keeps the rest
        ok("revise", "--actor", "alice", "s-map", "--sentence-receipts", file);
        ok("retract-source", "--actor", "alice", "pmid-38800001", "--reason", "retracted");
        JsonNode after = ok("receipts", "s-map", "--json").json();
        assertThat(after.get("sentences").findValuesAsText("text")).containsExactly("ERK1/2 signalling regulates apoptosis.");
        assertThat(ok("audit").code()).isZero();
    }

    @Test
    void receiptsAreRefusedWhereTheyDoNotBelongAndBadSentenceFilesListEveryProblem() throws Exception {
        int before = commits();
        Run claim = cmd("assert", "--actor", "alice", "--id", "c9", "--body", "a plain claim", "--receipt", "a1",
                "--json");
        assertThat(claim.code()).isEqualTo(Main.REJECTED);
        assertThat(rules(claim)).containsExactly("grounding-on-plain-fact");
        Run both = cmd("assert", "--actor", "alice", "--kind", "summary", "--id", "s9", "--body", "x", "--receipt", "a1",
                "--sentence-receipts", "x.yaml");
        assertThat(both.code()).isEqualTo(Main.USAGE);
        String bad = Files.writeString(dir.resolve("bad.yaml"), """
                - text: "One."
                  receipt: []
                - text: "Two."
                  receipt: [[Bad Id!]]
                - {text: "Three.", receipt: [[a1]], extra: 1}
                """).toString();
        Run problems = cmd("assert", "--actor", "alice", "--kind", "summary", "--id", "s9", "--sentence-receipts", bad,
                "--json");
        assertThat(problems.code()).isEqualTo(Main.REJECTED);
        assertThat(problems.json().get("error").get("violations")).hasSize(3);
        assertThat(rules(problems)).containsOnly("invalid-argument");
        Run notArtifact = cmd("revise", "--actor", "alice", "a1", "--receipt", "a5", "--json");
        assertThat(notArtifact.code()).isEqualTo(Main.REJECTED);
        assertThat(rules(notArtifact)).containsExactly("not-an-artifact");
        assertThat(cmd("revise", "--actor", "alice", "m1", "--receipt", "a5", "--ref", "a1").code())
                .isEqualTo(Main.USAGE);
        assertThat(commits()).isEqualTo(before);
    }
}
