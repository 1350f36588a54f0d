package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CliReceiptsTest extends CliStoreTest {
    @BeforeEach
    void init() {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        Run r = cmd("ingest", "--actor", "alice", "--file", "examples/receipts-corpus.yaml", "--json");
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void dryRunPrintsThePlanAndWritesNothingThenTheCascadeLandsAsOneCommit() throws Exception {
        Run dry = cmd("retract-source", "--actor", "alice", "pmid-40057077", "--reason", "retracted", "--dry-run", "--json");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.json().get("dry_run").asBoolean()).isTrue();
        assertThat(dry.json().get("commit").isNull()).isTrue();
        assertThat(dry.json().get("removals").get(0).get("id").asText()).isEqualTo("s-aim2-flat");
        assertThat(cmd("log", "--json").json()).hasSize(2);

        Run wet = cmd("retract-source", "--actor", "alice", "pmid-40057077", "--reason", "retracted", "--json");
        assertThat(wet.json().get("commit").asText()).matches("[0-9a-f]{40}");
        assertThat(cmd("log", "--json").json()).hasSize(3);

        JsonNode report = cmd("receipts", "--json").json();
        assertThat(report.get("at").asText()).isEqualTo(wet.json().get("commit").asText());
        assertThat(report.get("layers").get("summary").get("alive").asInt()).isEqualTo(1);
        assertThat(report.get("layers").get("summary").get("dead").asInt()).isEqualTo(1);
        assertThat(cmd("receipts", "--at", "main~1", "--json").json().get("layers").get("summary").get("alive").asInt())
                .isEqualTo(2);
    }

    @Test
    void revokeRelationEntailAndReviewPrintTheDocumentedJson() throws Exception {
        JsonNode entail = cmd("entail", "--actor", "alice", "--json").json();
        assertThat(entail.get("added").asInt()).isEqualTo(entail.get("edges").asInt()).isPositive();
        Run revoke = cmd("revoke-relation", "--actor", "alice", "part_of", "--reason", "unsound", "--json");
        assertThat(revoke.code()).as(revoke.err()).isZero();
        assertThat(revoke.json().get("roots").get(0).asText()).isEqualTo("a6");
        assertThat(revoke.json().get("removals")).allSatisfy(r -> assertThat(r.get("layer").asText()).isEqualTo("edge"));
        assertThat(cmd("revoke-relation", "--actor", "alice", "nope", "--reason", "x").code()).isEqualTo(Main.REJECTED);
        assertThat(cmd("review", "--json").json()).isEmpty();
    }

    @Test
    void entailSaysWhetherItRanFromScratchOrFromTheStateTheLastRunSaved() throws Exception {
        Run first = cmd("entail", "--actor", "alice");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("from scratch: no saved state");
        Run ingested = cmd("ingest", "--actor", "alice", "--file", write("more.yaml",
                "assertions: [{id: a7, source: pmid-38800001, subject: programmed cell death, predicate: part_of,"
                        + " object: cell fate}]"));
        assertThat(ingested.code()).as(ingested.err()).isZero();
        JsonNode next = cmd("entail", "--actor", "alice", "--json").json();
        assertThat(next.get("incremental").asBoolean()).isTrue();
        assertThat(next.get("basis").asText()).startsWith("incremental from the saved state at ");
        assertThat(next.get("added").asInt()).isPositive();
        assertThat(cmd("entail", "--actor", "alice").out()).contains("(nothing to write)").contains("incremental");
    }

    private String write(String name, String content) throws java.io.IOException {
        return java.nio.file.Files.writeString(dir.resolve(name), content).toString();
    }

    @Test
    void demoNarratesTheFigureOneStory() {
        StringWriter out = new StringWriter();
        int code = Main.run(new String[] {"demo", dir.resolve("demo").toString()}, new PrintWriter(out),
                new PrintWriter(new StringWriter()));
        assertThat(code).isZero();
        assertThat(out.toString())
                .contains("edge " + dev.palimpsest.internal.receipts.EntailSync.edgeId(
                        new dev.palimpsest.internal.receipts.Entailer.Triple("MAPK/ERK pathway", "upstream_of", "apoptosis")))
                .contains("summary s-aim2-flat").contains("flat summary receipt touched (policy distrust)")
                .contains("merge m1").contains("dropped only sentence [0]");
    }
}
