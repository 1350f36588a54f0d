package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The commands of docs/loading.md on its example files: ingest of claims, import of notes, export. */
class CliBulkTest extends CliStoreTest {
    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
    }

    @Test
    void ingestedClaimsAreCurrentAndACorrectionFromJsonMakesAChainAndADeadEnd() throws Exception {
        Run first = ok("ingest", "--actor", "alice", "--file", "examples/claims.yaml");
        assertThat(first.out()).startsWith("ingested {entity-claim=2, source=1} in ");
        assertThat(ok("current", "payments", "--json").json()).hasSize(2);
        ok("ingest", "--actor", "alice", "--file", "examples/claims-fix.json");
        JsonNode current = ok("current", "payments", "--predicate", "timeout", "--json").json();
        assertThat(current).singleElement().satisfies(c -> assertThat(c.get("object").asText()).isEqualTo("45s"));
        assertThat(ok("chain", "payments", "timeout", "--json").json()).hasSize(2);
        assertThat(ok("dead-ends", "payments", "--json").toString()).contains("payments-timeout-30");
    }

    @Test
    void importIsIdempotentAndExportPrintsOneJsonObjectPerLiveFact() throws Exception {
        Run imported = ok("import", "examples/notes", "--split", "h2", "--actor", "alice", "--json");
        assertThat(imported.json().get("added")).extracting(JsonNode::asText).containsExactly(
                "note-runbooks.on-call", "note-runbooks.on-call.paging", "note-runbooks.on-call.escalation",
                "note-timeouts");
        Run again = ok("import", "examples/notes", "--split", "h2", "--actor", "alice");
        assertThat(again.out()).isEqualTo("imported: 0 added, 0 revised, 4 unchanged (nothing to write)\n");

        Run export = ok("export");
        List<String> lines = export.out().lines().toList();
        assertThat(lines).hasSize(4);
        ObjectMapper json = new ObjectMapper();
        for (String line : lines) {
            assertThat(json.readTree(line).get("kind").asText()).isEqualTo("source");
        }
        assertThat(ok("export", "--at", "main~1").out()).isEmpty();
        assertThat(export.err()).isEmpty();
    }

    @Test
    void badInputIsExitFiveNamingTheFileAndWritesNothing() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("broken.md"), "---\nid: [x\n---\ntext\n");
        Run bad = cmd("import", notes.toString(), "--actor", "alice", "--json");
        assertThat(bad.code()).isEqualTo(Main.REJECTED);
        assertThat(bad.json().get("error").get("violations").get(0).get("subject").asText()).isEqualTo("note broken.md");
        assertThat(bad.json().get("error").get("message").asText()).contains("line 2");

        Path batch = Files.writeString(dir.resolve("b.json"), "{\"claims\": [}");
        Run json = cmd("ingest", "--actor", "alice", "--file", batch.toString());
        assertThat(json.code()).isEqualTo(Main.REJECTED);
        assertThat(json.err()).contains("not valid JSON at line 1, column 13");

        Run split = cmd("import", notes.toString(), "--split", "h7", "--actor", "alice");
        assertThat(split.code()).isEqualTo(Main.USAGE);
        assertThat(ok("log", "--json").json()).hasSize(1);
    }
}
