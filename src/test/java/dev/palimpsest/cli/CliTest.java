package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CliTest extends CliStoreTest {
    private Run run(String... args) {
        return Run.of(args);
    }

    @BeforeEach
    void init() {
        Run r = cmd("init", "--actor", "alice", "--json");
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void assertShowAndRetractPrintTheDocumentedJson() throws Exception {
        Run src = cmd("assert", "--actor", "alice", "--kind", "source", "--id", "src-1", "--json",
                "--body", "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.");
        assertThat(src.code()).as(src.err()).isZero();
        assertThat(src.json().get("id").asText()).isEqualTo("src-1");
        assertThat(src.json().get("commit").asText()).matches("[0-9a-f]{40}");

        Run claim = cmd("--json", "assert", "--actor", "alice", "--body", "ERK regulates apoptosis",
                "--ref", "src-1", "--quote", "src-1=regulates apoptosis in oral");
        assertThat(claim.code()).as(claim.err()).isZero();
        String id = claim.json().get("id").asText();
        assertThat(id).startsWith("claim-");

        JsonNode shown = cmd("show", id, "--json").json();
        assertThat(shown.get("body").asText()).isEqualTo("ERK regulates apoptosis");
        assertThat(shown.get("kind").asText()).isEqualTo("claim");
        assertThat(shown.get("commit").asText()).isEqualTo(claim.json().get("commit").asText());
        assertThat(shown.get("blob").asText()).matches("[0-9a-f]{40}");
        assertThat(shown.get("retracted").asBoolean()).isFalse();
        assertThat(shown.get("refs").get(0).get("id").asText()).isEqualTo("src-1");
        assertThat(shown.get("refs").get(0).get("commit").asText()).isEqualTo(src.json().get("commit").asText());

        Run ret = cmd("retract", "--actor", "alice", "src-1", "--reason", "journal retraction", "--json");
        assertThat(ret.code()).as(ret.err()).isZero();
        assertThat(ret.json().get("retracted").get(0).asText()).isEqualTo("src-1");

        Run gone = cmd("show", "src-1");
        assertThat(gone.code()).isEqualTo(4);
        assertThat(gone.err()).contains("retracted at " + ret.json().get("commit").asText());
        JsonNode fb = cmd("show", "src-1", "--fallback", "--json").json();
        assertThat(fb.get("retracted").asBoolean()).isTrue();
        assertThat(fb.get("retracted_at").asText()).isEqualTo(ret.json().get("commit").asText());
        assertThat(cmd("show", "src-1", "--at", src.json().get("commit").asText()).code()).isZero();
    }

    @Test
    void badInputExitsFiveNamesTheProblemAndWritesNothing() throws Exception {
        var before = dev.palimpsest.api.TestStores.durableState(Path.of(store));
        Run badId = cmd("assert", "--actor", "alice", "--id", "../x", "--body", "b");
        assertThat(badId.code()).isEqualTo(5);
        assertThat(badId.err()).contains("fact id '../x' is invalid");
        Run ghost = cmd("assert", "--actor", "alice", "--body", "b", "--ref", "ghost");
        assertThat(ghost.code()).isEqualTo(5);
        assertThat(ghost.err()).contains("ghost does not exist");
        Run noKey = cmd("assert", "--actor", "bob", "--body", "b");
        assertThat(noKey.code()).isEqualTo(5);
        assertThat(noKey.err()).contains("bob").contains("no secret key");
        Run stray = cmd("assert", "--actor", "alice", "--body", "b", "--quote", "x=some quoted text");
        assertThat(stray.code()).isEqualTo(5);
        assertThat(stray.err()).contains("no --ref cites it");
        assertThat(dev.palimpsest.api.TestStores.durableState(Path.of(store))).isEqualTo(before);
    }

    @Test
    void usageErrorsExitTwoAndUnknownCommitsExitFour() {
        assertThat(cmd("assert", "--actor", "alice").code()).isEqualTo(2);
        assertThat(cmd("frobnicate").code()).isEqualTo(2);
        if (System.getenv("PALIMPSEST_STORE") == null) {
            Run noStore = run("log");
            assertThat(noStore.code()).isEqualTo(2);
            assertThat(noStore.err()).contains("--store");
        }
        assertThat(cmd("show", "x", "--at", "deadbeef").code()).isEqualTo(4);
        assertThat(cmd("show", "never-written").code()).isEqualTo(4);
        assertThat(cmd("history", "never-written").code()).isEqualTo(4);
    }

    @Test
    void logAndHistoryListCommitsNewestFirst() throws Exception {
        cmd("assert", "--actor", "alice", "--id", "f1", "--body", "one");
        cmd("revise", "--actor", "alice", "f1", "--body", "two");
        JsonNode h = cmd("history", "f1", "--json").json();
        assertThat(h.size()).isEqualTo(2);
        assertThat(h.get(0).get("change").asText()).isEqualTo("revised");
        assertThat(h.get(1).get("change").asText()).isEqualTo("added");
        JsonNode log = cmd("log", "--json").json();
        assertThat(log.size()).isEqualTo(3);
        assertThat(log.get(0).get("subject").asText()).isEqualTo("revise f1: two");
        assertThat(log.get(2).get("parents").size()).isZero();
    }

    @Test
    void demoBuildsAStoreAndRefusesAForeignFolder() throws Exception {
        Path demo = dir.resolve("demo");
        Run r = run("demo", demo.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("retract pmid-39973430").contains("git --git-dir")
                .contains("a fabricated quote: accepted=false, model_accepted=null")
                .contains("the real quote: accepted=true, model_accepted=true")
                .contains("a reply of \"yes\": accepted=false, model_accepted=false");
        assertThat(run("demo", demo.toString()).code()).as("a second demo replaces the first").isZero();
        for (String store : new String[] {"store.git", "receipts.git"}) {
            Run audit = run("audit", "--store", demo.resolve(store).toString());
            assertThat(audit.code()).as(store + ": " + audit.out() + audit.err()).isZero();
            assertThat(audit.out()).contains("clean");
        }
        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        Files.writeString(foreign.resolve("keep.txt"), "mine");
        Run refused = run("demo", foreign.toString());
        assertThat(refused.code()).isEqualTo(5);
        assertThat(Files.readString(foreign.resolve("keep.txt"))).isEqualTo("mine");
    }
}
