package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The failure contract for agents: exit codes and, with --json, exactly one error object on stdout. */
class CliErrorContractTest extends CliStoreTest {
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "s", "--body", "a source text of some length");
    }

    /** The one error object a failed --json run printed; stderr stays empty. */
    private static JsonNode error(Run r, int exit, String kind) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(exit);
        assertThat(r.err()).isEmpty();
        JsonNode root = STRICT.readTree(r.out());
        assertThat(root.size()).isEqualTo(1);
        JsonNode e = root.get("error");
        assertThat(e.get("exit").asInt()).isEqualTo(exit);
        assertThat(e.get("kind").asText()).isEqualTo(kind);
        assertThat(e.get("message").asText()).isNotBlank();
        assertThat(e.get("violations").isArray()).isTrue();
        return e;
    }

    private Run at(String storePath, String... args) {
        return Run.inStore(storePath, home, args);
    }

    @Test
    void everyFailureKindPrintsOneParsableErrorObjectWithItsExitCode() throws Exception {
        error(cmd("assert", "--actor", "alice", "--json"), 2, "usage");
        error(cmd("frobnicate", "--json"), 2, "usage");
        error(cmd("assert", "--json", "--actr", "alice", "--body", "x"), 2, "usage");
        error(cmd("show", "never-was", "--json"), 4, "not-found");
        error(cmd("show", "s", "--at", "deadbeef", "--json"), 4, "not-found");
        JsonNode rejected = error(cmd("assert", "--actor", "alice", "--id", "f", "--body", "", "--json"), 5, "rejected");
        assertThat(rejected.get("violations").get(0).get("rule").asText()).isEqualTo("invalid-fact");
        assertThat(rejected.get("violations").get(0).get("fact").asText()).isEqualTo("f");
        error(at(dir.resolve("none.git").toString(), "log", "--json"), 6, "no-store");
        error(at(Files.createDirectories(dir.resolve("empty")).toString(), "show", "s", "--json"), 6, "no-store");
        error(at(dir.resolve("none.git").toString(), "audit", "--json"), 6, "no-store");
    }

    @Test
    void conflictAndInternalFailuresHaveTheirOwnExitCodeAndKind() throws Exception {
        assertThat(printed(new ConflictException("main moved")).get("error").get("exit").asInt()).isEqualTo(7);
        assertThat(printed(new ConflictException("main moved")).get("error").get("kind").asText()).isEqualTo("conflict");
        JsonNode internal = printed(new IllegalArgumentException("a bug")).get("error");
        assertThat(internal.get("exit").asInt()).as("an escaped IllegalArgumentException is a bug, not bad input")
                .isEqualTo(1);
        assertThat(internal.get("kind").asText()).isEqualTo("internal");
        assertThat(printed(new NotFoundException("gone")).get("error").get("exit").asInt()).isEqualTo(4);
    }

    @Test
    void aRefusedMergeExitsThreeLikeAnAuditRefusalListingEveryViolation() throws Exception {
        var refused = new dev.palimpsest.model.MergeRefusedException(List.of(
                new dev.palimpsest.model.Violation(dev.palimpsest.model.Rule.IDENTITY_MISMATCH, "merge of a and b",
                        "signed with the key of actor bob"),
                new dev.palimpsest.model.Violation(dev.palimpsest.model.Rule.SIGNATURE_TIME, "merge of a and b",
                        "ten minutes off")));
        JsonNode e = printed(refused).get("error");
        assertThat(e.get("exit").asInt()).isEqualTo(3);
        assertThat(e.get("kind").asText()).isEqualTo("refused");
        assertThat(e.get("violations")).extracting(v -> v.get("rule").asText())
                .containsExactly("identity-mismatch", "signature-time");
        StringWriter err = new StringWriter();
        Failure.of(refused).print(new PrintWriter(new StringWriter()), new PrintWriter(err), false);
        assertThat(err.toString()).contains("nothing adopted").contains("[identity-mismatch]").contains("[signature-time]");
    }

    @Test
    void anInternalErrorNamesWhereItsInnermostCauseWasThrownForABugReport() throws Exception {
        IllegalStateException cause = new IllegalStateException("index 7 out of 5");
        cause.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("dev.palimpsest.X", "deep", "X.java", 3),
            new StackTraceElement("dev.palimpsest.Y", "call", "Y.java", 9)});
        StringWriter err = new StringWriter();
        Failure.of(new RuntimeException("outer", cause)).print(new PrintWriter(new StringWriter()), new PrintWriter(err),
                false);
        assertThat(err.toString()).startsWith("internal error: java.lang.RuntimeException: outer")
                .contains("caused by: java.lang.IllegalStateException: index 7 out of 5")
                .contains("at dev.palimpsest.X.deep(X.java:3)\n    at dev.palimpsest.Y.call(Y.java:9)")
                .doesNotContain("more");
        RuntimeException deep = new RuntimeException("deep");
        StackTraceElement[] many = new StackTraceElement[Failure.TRACE_FRAMES + 4];
        java.util.Arrays.setAll(many, i -> new StackTraceElement("dev.palimpsest.Z", "f" + i, "Z.java", i + 1));
        deep.setStackTrace(many);
        assertThat(Failure.of(deep).message()).contains("f" + (Failure.TRACE_FRAMES - 1) + "(")
                .doesNotContain("f" + Failure.TRACE_FRAMES + "(").endsWith("... 4 more");
    }

    private static JsonNode printed(Exception e) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Failure.of(e).print(new PrintWriter(out), new PrintWriter(err), true);
        assertThat(err.toString()).isEmpty();
        return STRICT.readTree(out.toString());
    }

    @Test
    void aCorruptStoreIsAnInternalErrorPrintedAsOneErrorObject() throws Exception {
        Path broken = dir.resolve("broken.git");
        try (var files = Files.walk(Path.of(store))) {
            for (Path p : files.toList()) {
                Path to = broken.resolve(Path.of(store).relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        try (var packs = Files.walk(broken.resolve("objects"))) {
            for (Path p : packs.filter(p -> p.toString().endsWith(".pack")).toList()) {
                p.toFile().setWritable(true);
                try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
                    ch.truncate(40);
                }
            }
        }
        JsonNode e = error(at(broken.toString(), "show", "s", "--json"), 1, "internal");
        assertThat(e.get("message").asText()).contains("in this store");
    }

    @Test
    void keysGenerateIntoAMissingFolderIsRefusedBeforeAnyKeyIsMade() throws Exception {
        Run r = cmd("keys", "generate", "--name", "carol", "--out", dir.resolve("no/such/dir/carol.asc").toString());
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.err()).contains("carol.asc").contains("[file-unwritable]");
        assertThat(ok("keys", "generate", "--name", "carol").out()).contains("BEGIN PGP PUBLIC KEY BLOCK");
    }

    @Test
    void aMissingOrNonStorePathExitsSixNotFour() throws Exception {
        Run missing = at(dir.resolve("none.git").toString(), "live", "s");
        assertThat(missing.code()).isEqualTo(Main.NO_STORE);
        assertThat(missing.err()).contains("no store at");
        assertThat(at(Files.createDirectories(dir.resolve("plain")).toString(), "history", "s").code())
                .isEqualTo(Main.NO_STORE);
        assertThat(at(dir.resolve("none.git").toString(), "hooks", "install").code()).isEqualTo(Main.NO_STORE);
    }

    @Test
    void aNeverWrittenIdExitsFourForEveryRead() {
        for (String read : List.of("show", "exists", "live", "inbound", "stale", "weight", "history")) {
            Run r = cmd(read, "never-was");
            assertThat(r.code()).as(read + ": " + r.out()).isEqualTo(Main.NOT_FOUND);
            assertThat(r.out()).as(read).isEmpty();
            assertThat(r.err()).as(read).contains("never-was");
        }
        ok("retract", "--actor", "alice", "s", "--reason", "withdrawn by the journal");
        assertThat(ok("live", "s").out().trim()).as("a retracted fact is an answer: false").isEqualTo("false");
        assertThat(ok("weight", "s").out().trim()).isEqualTo("0.000000");
    }

    @Test
    void aBadPinIsOneMoreViolationBesideEveryOtherOfTheWrite() throws Exception {
        var before = TestStores.durableState(Path.of(store));
        JsonNode e = error(cmd("assert", "--actor", "alice", "--id", "c", "--body", "claim", "--confidence", "3",
                "--ref", "s@deadbeef", "--ref", "ghost", "--json"), 5, "rejected");
        List<String> rules = new ArrayList<>();
        e.get("violations").forEach(v -> rules.add(v.get("rule").asText()));
        assertThat(rules).contains("pin-unknown", "ref-target-missing", "invalid-fact");
        JsonNode pin = find(e, "pin-unknown");
        assertThat(pin.get("message").asText()).isEqualTo("'deadbeef' names no commit of this store");
        assertThat(pin.get("fact").asText()).isEqualTo("c");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        Run text = cmd("revise", "--actor", "alice", "s", "--body", "new text", "--ref", "ghost@main~9");
        assertThat(text.code()).isEqualTo(5);
        assertThat(text.err()).contains("'main~9' names no commit").contains("[pin-unknown]");
    }

    private static JsonNode find(JsonNode error, String rule) {
        for (JsonNode v : error.get("violations")) {
            if (v.get("rule").asText().equals(rule)) {
                return v;
            }
        }
        throw new AssertionError("no " + rule + " in " + error);
    }

    @Test
    void aRejectionSaysEachThingOnceAndNamesNoMintedId() throws Exception {
        Run minted = cmd("assert", "--actor", "alice", "--body", "");
        assertThat(minted.code()).isEqualTo(5);
        assertThat(minted.err()).containsOnlyOnce("body must not be empty").doesNotContain("claim-");
        JsonNode e = error(cmd("assert", "--actor", "alice", "--body", "", "--json"), 5, "rejected");
        assertThat(e.toString()).doesNotContain("claim-");
        assertThat(e.get("violations").get(0).get("fact").isNull()).isTrue();
        Run named = cmd("assert", "--actor", "alice", "--id", "mine", "--body", "");
        assertThat(named.err()).containsOnlyOnce("mine").containsOnlyOnce("body must not be empty");
    }

    @Test
    void malformedInputIsARejectionNamingTheOption() throws Exception {
        JsonNode id = error(cmd("show", "../x", "--json"), 5, "rejected");
        assertThat(id.get("violations").get(0).get("rule").asText()).isEqualTo("invalid-argument");
        assertThat(id.get("violations").get(0).get("subject").asText()).isEqualTo("ID");
        Run kind = cmd("assert", "--actor", "alice", "--kind", "Not A Kind", "--body", "b");
        assertThat(kind.code()).isEqualTo(5);
        assertThat(kind.err()).contains("--kind").contains("Not A Kind");
        Run key = cmd("keys", "add", "--actor", "alice", "--name", "bob", "--key", dir.resolve("no.asc").toString());
        assertThat(key.code()).isEqualTo(5);
        assertThat(key.err()).contains("no.asc").contains("no such file");
    }
}
