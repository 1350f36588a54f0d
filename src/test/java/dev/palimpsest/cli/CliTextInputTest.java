package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.RejectedException;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Text inputs are byte-exact or refused; text output cannot drive a terminal. */
class CliTextInputTest extends CliStoreTest {
    private static final String TRICKY = "café 日本 ünïcödé\r\n\ttabbed line — “quoted”";

    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
    }

    private String body(String id) throws Exception {
        return ok("show", id, "--json").json().get("body").asText();
    }

    @Test
    void aBodyFileIsStoredByteForByte() throws Exception {
        Path f = Files.write(dir.resolve("body.txt"), TRICKY.getBytes(StandardCharsets.UTF_8));
        ok("assert", "--actor", "alice", "--id", "f", "--body-file", f.toString());
        assertThat(body("f")).isEqualTo(TRICKY);
        Path g = Files.write(dir.resolve("revised.txt"), (TRICKY + " (revised)").getBytes(StandardCharsets.UTF_8));
        ok("revise", "--actor", "alice", "f", "--body-file", g.toString());
        assertThat(body("f")).isEqualTo(TRICKY + " (revised)");
    }

    @Test
    void aBodyFromStandardInputIsStoredByteForByte() throws Exception {
        List<String> args = new ArrayList<>(List.of("assert", "--actor", "alice", "--id", "in", "--body-file", "-",
                "--store", store, "--home", home));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new ByteArrayInputStream(TRICKY.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out), new PrintWriter(err));
        assertThat(code).as(err.toString()).isZero();
        assertThat(body("in")).isEqualTo(TRICKY);
    }

    @Test
    void invalidUtf8InABodyFileIsRejectedNamingTheFileAndByteOffset() throws Exception {
        var before = TestStores.durableState(Path.of(store));
        Path f = Files.write(dir.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9, ' ', 'x'});
        Run r = cmd("assert", "--actor", "alice", "--body-file", f.toString(), "--json");
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        JsonNode v = new ObjectMapper().readTree(r.out()).get("error").get("violations").get(0);
        assertThat(v.get("rule").asText()).isEqualTo("invalid-utf8");
        assertThat(v.get("subject").asText()).contains("latin1.txt");
        assertThat(v.get("message").asText()).contains("byte offset 3");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
    }

    @Test
    void bodyAndBodyFileTogetherOrNeitherIsAUsageError() throws Exception {
        Path f = Files.writeString(dir.resolve("b.txt"), "text");
        assertThat(cmd("assert", "--actor", "alice", "--body", "x", "--body-file", f.toString()).code())
                .isEqualTo(Main.USAGE);
        assertThat(cmd("assert", "--actor", "alice").code()).isEqualTo(Main.USAGE);
        assertThat(cmd("assert", "--actor", "alice", "--body-file", dir.resolve("missing.txt").toString()).code())
                .isEqualTo(Main.REJECTED);
    }

    @Test
    void anArgumentTheLocaleMayHaveDamagedIsRefusedWithAHint() throws Exception {
        assertThat(TextInput.arg("--body", "café 日本", "UTF-8")).isEqualTo("café 日本");
        assertThat(TextInput.arg("--body", "plain ascii", "ANSI_X3.4-1968")).isEqualTo("plain ascii");
        assertThatThrownBy(() -> TextInput.arg("--body", "caf\uFFFD\uFFFD", "ANSI_X3.4-1968"))
                .isInstanceOf(RejectedException.class).hasMessageContaining("U+FFFD").hasMessageContaining("--body-file")
                .hasMessageContaining("[damaged-argument]");
        assertThatThrownBy(() -> TextInput.arg("--quote", "cafÃ©", "ISO-8859-1"))
                .isInstanceOf(RejectedException.class).hasMessageContaining("ISO-8859-1");
        assertThatThrownBy(() -> TextInput.arg("--body", "a\uFFFDb", "UTF-8"))
                .as("invalid UTF-8 in argv decodes to U+FFFD even under a UTF-8 locale")
                .isInstanceOf(RejectedException.class);
    }

    @Test
    void aReasonFileIsRecordedExactly() throws Exception {
        ok("assert", "--actor", "alice", "--id", "r", "--body", "to be retracted");
        Path f = Files.write(dir.resolve("why.txt"), "rétracté: 日本".getBytes(StandardCharsets.UTF_8));
        ok("retract", "--actor", "alice", "r", "--reason-file", f.toString(), "--no-cascade");
        assertThat(ok("show", "r", "--fallback", "--json").json().get("reason").asText()).isEqualTo("rétracté: 日本");
    }

    @Test
    void ingestOfAMissingFileOrAFolderIsARejectionNamingThePath() {
        Path missing = dir.resolve("nope.yaml");
        Run r = cmd("ingest", "--actor", "alice", "--file", missing.toString());
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.err()).contains(missing.toString()).contains("no such file").doesNotContain("internal");
        Run folder = cmd("ingest", "--actor", "alice", "--file", dir.toString());
        assertThat(folder.code()).isEqualTo(Main.REJECTED);
        assertThat(folder.err()).contains(dir.toString()).contains("folder");
    }

    @Test
    void showEscapesControlCharactersInTextAndKeepsThemExactInJson() throws Exception {
        String evil = "clean\u001b]0;pwned\u0007\u001b[2J\rover\u202ewritten\u009b1m\u007f\nnext line\tend";
        Path f = Files.write(dir.resolve("evil.txt"), evil.getBytes(StandardCharsets.UTF_8));
        ok("assert", "--actor", "alice", "--id", "e", "--body-file", f.toString());
        String text = ok("show", "e").out();
        assertThat(text).doesNotContain("\u001b", "\u0007", "\r", "\u202e", "\u009b", "\u007f");
        assertThat(text).contains("clean\\x1b]0;pwned\\x07\\x1b[2J\\x0dover\\u202ewritten\\x9b1m\\x7f\n")
                .contains("next line\tend");
        assertThat(body("e")).isEqualTo(evil);
        assertThat(ok("log").out()).doesNotContain("\u001b");
    }
}
