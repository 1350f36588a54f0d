package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.api.TestStores;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bouncycastle.openpgp.PGPUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The actor's secret key never enters the store, whichever option names it: exit 5
 * {@code secret-material}, nothing written, for the key file, a link to it, a copy, its binary
 * export, and the key embedded in a larger file or a batch.
 */
class CliSecretMaterialTest extends CliStoreTest {
    private Path key;
    private String armored;
    private Set<String> before;

    @BeforeEach
    void init() throws Exception {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "doc-1", "--body", "A source document.");
        ok("assert", "--actor", "alice", "--id", "r", "--body", "to be retracted");
        key = Path.of(home, "keys", "alice.sec.asc");
        armored = Files.readString(key);
        assertThat(armored).startsWith("-----BEGIN PGP PRIVATE KEY BLOCK-----");
        before = TestStores.durableState(Path.of(store));
    }

    private void refused(Run r, String subject) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        JsonNode v = r.json().get("error").get("violations").get(0);
        assertThat(v.get("rule").asText()).as(r.out()).isEqualTo("secret-material");
        assertThat(v.get("subject").asText()).contains(subject);
        assertThat(r.out()).doesNotContain(armored.lines().skip(2).findFirst().orElseThrow());
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
    }

    private Run put(Path file) {
        return cmd("file", "put", "--actor", "alice", "k.asc", "--file", file.toString(), "--source", "doc-1", "--json");
    }

    private byte[] binary() throws Exception {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            return in.readAllBytes();
        }
    }

    @Test
    void filePutRefusesTheKeyFileALinkToItACopyAndItsBinaryExport() throws Exception {
        refused(put(key), "file " + key);
        Path link = Files.createSymbolicLink(dir.resolve("innocent.txt"), key);
        refused(put(link), "file " + link);
        Path homeLink = Files.createSymbolicLink(dir.resolve("h"), Path.of(home));
        refused(put(homeLink.resolve("keys/alice.sec.asc")), "keys/alice.sec.asc");
        Path copy = Files.writeString(dir.resolve("copy.asc"), armored);
        refused(put(copy), "file " + copy);
        Path bin = Files.write(dir.resolve("key.gpg"), binary());
        assertThat(bin).isNotEmptyFile();
        refused(put(bin), "file " + bin);
        Path embedded = Files.writeString(dir.resolve("notes.md"), "# notes\n".repeat(20_000) + armored + "\nend\n");
        refused(put(embedded), "file " + embedded);
        try (var files = Files.list(Path.of(store).resolve("palimpsest-tmp"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("content-"));
        }
    }

    @Test
    void aPublicKeyAndOrdinaryFilesAreStillStored() throws Exception {
        Path pub = dir.resolve("carol.asc");
        ok("keys", "generate", "--name", "carol", "--out", pub.toString());
        ok("file", "put", "--actor", "alice", "carol.asc", "--file", pub.toString(), "--source", "doc-1");
        Path notes = Files.writeString(dir.resolve("notes.md"), "-----BEGIN PGP PUBLIC KEY BLOCK----- is a public key");
        ok("file", "put", "--actor", "alice", "notes.md", "--file", notes.toString(), "--source", "doc-1");
    }

    @Test
    void textOptionsIngestAndKeysAddRefuseTheKey() throws Exception {
        Path copy = Files.writeString(dir.resolve("copy.asc"), armored);
        for (Path p : List.of(key, copy)) {
            refused(cmd("assert", "--actor", "alice", "--id", "k", "--body-file", p.toString(), "--json"),
                    p.equals(key) ? "--body-file " + p : "fact k");
            refused(cmd("revise", "--actor", "alice", "r", "--body-file", p.toString(), "--json"),
                    p.equals(key) ? "--body-file " + p : "fact r");
            refused(cmd("retract", "--actor", "alice", "r", "--reason-file", p.toString(), "--json"),
                    p.equals(key) ? "--reason-file " + p : "fact r");
            refused(cmd("ingest", "--actor", "alice", "--file", p.toString(), "--json"),
                    p.equals(key) ? "--file " + p : "batch");
            refused(cmd("keys", "add", "--actor", "alice", "--name", "bob", "--key", p.toString(), "--json"),
                    p.equals(key) ? "--key " + p : "key bob");
        }
        refused(cmd("assert", "--actor", "alice", "--id", "k", "--body", "see:\n" + armored, "--json"), "fact k");
        refused(cmd("claim", "--actor", "alice", "--subject", "alice", "--predicate", "has key", "--object", armored,
                "--source", "doc-1", "--id", "c", "--json"), "fact c");
        Path batch = Files.writeString(dir.resolve("batch.yaml"), "sources:\n  - id: s9\n    body: |\n"
                + armored.lines().map(l -> "      " + l + "\n").reduce("", String::concat));
        refused(cmd("ingest", "--actor", "alice", "--file", batch.toString(), "--json"), "batch");

        List<String> args = new ArrayList<>(List.of("assert", "--actor", "alice", "--id", "in", "--body-file", "-",
                "--json", "--store", store, "--home", home));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new ByteArrayInputStream(armored.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out), new PrintWriter(err));
        refused(new Run(code, out.toString(), err.toString()), "fact in");
    }
}
