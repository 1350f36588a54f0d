package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The CLI of produced files and derivation: documented JSON, exit codes, nothing written on rejection. */
class CliFilesTest extends CliStoreTest {
    @Test
    void filePutGetVersionsListDependentsExplain() throws Exception {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "doc-1", "--body", "A source document.");
        Path f = dir.resolve("out.csv");
        Files.writeString(f, "a,b\n1,2\n");
        JsonNode put = ok("file", "put", "--actor", "alice", "../../etc/passwd", "--file", f.toString(), "--source",
                "doc-1", "--run", "run-7", "--json").json();
        assertThat(put.get("id").asText()).matches("file-[0-9a-f]{16}");
        assertThat(put.get("name").asText()).isEqualTo("../../etc/passwd");
        assertThat(put.get("sha256").asText()).matches("[0-9a-f]{64}");
        assertThat(put.get("media_type").asText()).isEqualTo("application/octet-stream");
        assertThat(put.get("commit").asText()).matches("[0-9a-f]{40}");
        String id = put.get("id").asText();
        Files.writeString(f, "a,b\n1,3\n");
        assertThat(cmd("file", "put", "--actor", "alice", "../../etc/passwd", "--file", f.toString(), "--source",
                "doc-1", "--parent", id).code()).isEqualTo(Main.REJECTED);
        JsonNode put2 = ok("file", "put", "--actor", "alice", "../../etc/passwd", "--file", f.toString(), "--source",
                "doc-1", "--json").json();
        assertThat(put2.get("id").asText()).isEqualTo(id);
        JsonNode child = ok("file", "put", "--actor", "alice", "child.md", "--file", f.toString(), "--source",
                "doc-1", "--parent", id, "--json").json();
        assertThat(child.get("media_type").asText()).isEqualTo("text/markdown");
        Path got = dir.resolve("got.bin");
        ok("file", "get", id, "--out", got.toString());
        assertThat(Files.readString(got)).isEqualTo("a,b\n1,3\n");
        ok("file", "get", id, "--out", got.toString(), "--at", "main~2");
        assertThat(Files.readString(got)).isEqualTo("a,b\n1,2\n");
        JsonNode versions = ok("file", "versions", "../../etc/passwd", "--json").json();
        assertThat(versions).hasSize(2);
        assertThat(versions.get(0).get("run").asText()).isEqualTo("run-7");
        assertThat(versions.get(1).get("live").asBoolean()).isTrue();
        assertThat(ok("file", "list", "--json").json()).hasSize(2);
        assertThat(ok("file", "list", "--at", "main~3", "--json").json()).isEmpty();
        assertThat(cmd("file", "versions", "nothing", "--json").code()).isEqualTo(Main.NOT_FOUND);
        assertThat(cmd("file", "get", "file-0000000000000000").code()).isEqualTo(Main.NOT_FOUND);

        JsonNode deps = ok("dependents", id, "--transitive", "--json").json();
        assertThat(deps).hasSize(1);
        assertThat(deps.get(0).get("id").asText()).isEqualTo(child.get("id").asText());
        assertThat(deps.get(0).get("depth").asInt()).isEqualTo(1);
        assertThat(deps.get(0).get("via").asText()).isEqualTo(child.get("id").asText());
        assertThat(ok("dependents", "doc-1", "--json").json()).hasSize(2);
        assertThat(deps.get(0).get("live").asBoolean()).isTrue();
        assertThat(cmd("dependents", "nope", "--json").code()).isEqualTo(Main.NOT_FOUND);
        JsonNode ex = ok("explain", id, "--json", "--at", "main~2").json();
        assertThat(ex.get("run").asText()).isEqualTo("run-7");
        assertThat(ex.get("status").asText()).isEqualTo("live");
        assertThat(ex.get("version").asText()).isEqualTo(put.get("commit").asText());
        ex = ok("explain", id, "--json").json();
        assertThat(ex.get("status").asText()).isEqualTo("live");
        assertThat(ex.get("actor").asText()).isEqualTo("alice");
        assertThat(ex.get("children").get(0).get("id").asText()).isEqualTo("doc-1");
        assertThat(ex.get("children").get(0).get("role").asText()).isEqualTo("source");
        assertThat(ok("explain", id).out()).contains("doc-1");
    }

    @Test
    void rejectedPutsWriteNothing() throws Exception {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "doc-1", "--body", "A source document.");
        Path f = dir.resolve("x.txt");
        Files.writeString(f, "x");
        int commits = ok("log", "--json").json().size();
        Run r = cmd("file", "put", "--actor", "alice", "x.txt", "--file", f.toString(), "--source", "nope", "--json");
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("ref-target-missing");
        r = cmd("file", "put", "--actor", "alice", "x.txt", "--file", f.toString(), "--source", "doc-1", "--parent",
                "doc-1", "--json");
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("file-parent-not-file");
        r = cmd("file", "put", "--actor", "alice", "x.txt", "--file", dir.resolve("missing").toString(), "--source",
                "doc-1", "--json");
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("file-unreadable");
        assertThat(cmd("file", "put", "--actor", "alice", "x.txt", "--file", f.toString()).code()).isEqualTo(Main.USAGE);
        r = cmd("assert", "--actor", "alice", "--kind", "file", "--body", "not metadata", "--json");
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("invalid-file-record");
        r = cmd("assert", "--actor", "alice", "--kind", "file", "--id", "file-x", "--body", "name: \"x.txt\"\nmedia_type: "
                + "\"text/plain\"\nsha256: \"" + "ab".repeat(32) + "\"\nsize: 1", "--json");
        assertThat(r.json().get("error").get("violations").get(0).get("rule").asText()).isEqualTo("invalid-file-record");
        assertThat(ok("log", "--json").json()).hasSize(commits);
    }
}
