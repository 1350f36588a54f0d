package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.cli.Run;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code palimpsest mcp} driven by the MCP SDK's own client over stdio, in a child JVM: every tool
 * answers what the CLI answers on the same store, writes are signed commits with the run trailer,
 * failures are tool errors after which the server goes on, and two servers for two actors writing at
 * once lose nothing. Two server JVMs in all; the CLI runs in-process.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpServerTest {
    private static final String SOURCE = "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.";
    private static final Set<String> TOOLS = Set.of("brief", "search", "known_entities", "current", "dead_ends", "contradictions", "show", "history", "live", "valid",
            "exists", "inbound", "stale", "dependents", "explain", "log", "claim", "assert", "revise", "supersede",
            "retract", "merge", "ingest", "retract_source", "revoke_relation", "file_put", "review", "receipts", "verify",
            "rederive_audit", "forget", "expire", "unlearn_check");

    @TempDir
    static Path tmp;

    private String store;
    private String home;
    private String beforeRevision;
    private McpTestClient alice;
    private final List<Path> gnupgHomes = new ArrayList<>();

    @BeforeAll
    void buildStoreAndStartServer() throws Exception {
        store = tmp.resolve("store.git").toString();
        home = tmp.resolve("home").toString();
        cli("init", "--actor", "alice");
        cli("keys", "generate", "--name", "bob", "--out", tmp.resolve("bob.asc").toString());
        cli("keys", "add", "--actor", "alice", "--name", "bob", "--key", tmp.resolve("bob.asc").toString(), "--role",
                "agent");
        cli("assert", "--actor", "alice", "--kind", "source", "--id", "pmid-1", "--body", SOURCE);
        cli("assert", "--actor", "alice", "--id", "c1", "--body", "ERK regulates apoptosis", "--ref", "pmid-1",
                "--quote", "pmid-1=regulates apoptosis in oral");
        cli("assert", "--actor", "alice", "--id", "c2", "--body", "ERK is a drug target", "--ref", "c1");
        beforeRevision = cliJson("log", "-n", "1").get(0).get("commit").asText();
        cli("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after", "--object",
                "30s", "--source", "pmid-1", "--id", "t1", "--run", "run-12");
        cli("claim", "--actor", "alice", "--subject", "Auth Service", "--predicate", "times out after", "--object",
                "10s", "--source", "pmid-1", "--id", "t2");
        cli("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after", "--object",
                "10s", "--source", "pmid-1", "--supersedes", "t1", "--id", "t3");
        cli("claim", "--actor", "alice", "--subject", "auth-service", "--predicate", "times out after", "--object",
                "60s", "--source", "pmid-1", "--id", "t4");
        cli("assert", "--actor", "alice", "--id", "h1", "--kind", "hypothesis", "--body", "A hunch about ERK.");
        cli("retract", "--actor", "alice", "h1", "--reason", "no evidence");
        cli("revise", "--actor", "alice", "c1", "--body", "ERK regulates apoptosis in oral carcinoma");
        alice = new McpTestClient(Path.of(store), Path.of(home), "alice", "run-a");
    }

    @AfterAll
    void stop() {
        if (alice != null) {
            alice.close();
        }
        for (Path h : gnupgHomes) {
            GitCli.run(Map.of("GNUPGHOME", h.toString()), "gpgconf", "--kill", "all");
        }
    }

    @Test
    @Order(1)
    void initializeListsEveryToolWithSchemasAndBothFactTemplates() {
        assertThat(alice.client.getServerInfo().name()).isEqualTo("palimpsest");
        assertThat(alice.client.getServerInstructions()).contains("dead_ends").contains("palimpsest://fact/");
        List<McpSchema.Tool> tools = alice.client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(TOOLS);
        for (McpSchema.Tool t : tools) {
            assertThat(t.description()).as(t.name()).hasSizeGreaterThan(60);
            assertThat(t.inputSchema()).as(t.name()).containsEntry("type", "object")
                    .containsEntry("additionalProperties", false);
            assertThat(t.outputSchema()).as(t.name()).containsEntry("type", "object");
            boolean reads = Set.of("brief", "search", "known_entities", "current", "dead_ends", "contradictions", "show", "history", "live", "valid", "exists",
                    "inbound", "stale", "dependents", "explain", "log", "receipts", "verify", "rederive_audit",
                    "unlearn_check").contains(t.name());
            assertThat(t.annotations().readOnlyHint()).as(t.name()).isEqualTo(reads);
        }
        assertThat(tools.stream().filter(t -> t.name().equals("retract")).findFirst().orElseThrow().annotations()
                .destructiveHint()).isTrue();
        assertThat(alice.client.listResourceTemplates().resourceTemplates())
                .extracting(McpSchema.ResourceTemplate::uriTemplate)
                .containsExactlyInAnyOrder("palimpsest://fact/{id}", "palimpsest://fact/{id}@{commit}");
        assertThat(alice.stderr).anyMatch(l -> l.startsWith("palimpsest mcp: serving ") && l.endsWith("(run run-a)"));
        assertThat(alice.client.listPrompts().prompts()).extracting(McpSchema.Prompt::name)
                .containsExactly("recall", "record");
        McpSchema.GetPromptResult recall = alice.client.getPrompt(new McpSchema.GetPromptRequest("recall",
                Map.of("question", "how long until auth times out?")));
        assertThat(((McpSchema.TextContent) recall.messages().get(0).content()).text()).contains("Call brief");
        McpSchema.CompleteResult ids = alice.client.completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference("palimpsest://fact/{id}"),
                new McpSchema.CompleteRequest.CompleteArgument("id", "c")));
        assertThat(ids.completion().values()).containsExactly("c1", "c2");
        McpSchema.CompleteResult entities = alice.client.completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.PromptReference("recall"), new McpSchema.CompleteRequest.CompleteArgument("entity", "Au")));
        assertThat(entities.completion().values()).containsExactly("auth service");
    }

    @Test
    @Order(2)
    void everyReadToolAnswersWhatTheCliAnswers() throws Exception {
        assertThat(alice.ok("show", Map.of("id", "c1"))).isEqualTo(cliJson("show", "c1"));
        assertThat(alice.ok("show", Map.of("id", "c1", "at", beforeRevision)))
                .isEqualTo(cliJson("show", "c1", "--at", beforeRevision));
        assertThat(alice.ok("show", Map.of("id", "h1", "fallback", true))).isEqualTo(cliJson("show", "h1", "--fallback"));
        assertThat(alice.ok("history", Map.of("id", "c1")).get("history")).isEqualTo(cliJson("history", "c1"));
        assertThat(alice.ok("live", Map.of("id", "h1"))).isEqualTo(cliJson("live", "h1"));
        assertThat(alice.ok("live", Map.of("id", "h1")).get("live").asBoolean()).isFalse();
        assertThat(alice.ok("exists", Map.of("id", "h1", "at", "main"))).isEqualTo(cliJson("exists", "h1", "--at", "main"));
        assertThat(alice.ok("inbound", Map.of("id", "pmid-1", "all", true)).get("inbound"))
                .isEqualTo(cliJson("inbound", "pmid-1", "--all"));
        JsonNode stale = alice.ok("stale", Map.of("id", "c2")).get("refs");
        assertThat(stale).isEqualTo(cliJson("stale", "c2"));
        assertThat(stale.get(0).get("status").asText()).isEqualTo("revised");
        JsonNode deps = alice.ok("dependents", Map.of("id", "pmid-1", "transitive", true)).get("dependents");
        assertThat(deps).isEqualTo(cliJson("dependents", "pmid-1", "--transitive"));
        assertThat(ids(deps)).contains("c1", "c2", "t1", "t2", "t3");
        assertThat(alice.ok("explain", Map.of("id", "c2"))).isEqualTo(cliJson("explain", "c2"));
        assertThat(alice.ok("log", Map.of("limit", 4)).get("commits")).isEqualTo(cliJson("log", "-n", "4"));
        assertThat(alice.ok("current", Map.of("subject", "AUTH service!")).get("claims"))
                .isEqualTo(cliJson("current", "AUTH service!"));
        JsonNode dead = alice.ok("dead_ends", Map.of("subject", "auth-service"));
        assertThat(dead).isEqualTo(cliJson("dead-ends", "auth-service"));
        assertThat(ids(dead.get("kept"))).containsExactly("t1");
        JsonNode contra = alice.ok("contradictions", Map.of()).get("contradictions");
        assertThat(contra).isEqualTo(cliJson("contradictions"));
        assertThat(contra).hasSize(1);
        JsonNode hits = alice.ok("search", Map.of("query", "apoptosis carcinoma", "limit", 5)).get("hits");
        assertThat(hits).isEqualTo(cliJson("search", "--query", "apoptosis carcinoma", "--limit", "5"));
        assertThat(ids(hits)).contains("pmid-1");
        assertThat(alice.ok("search", Map.of("entity", List.of("Auth Service"), "hops", 0)).get("hits"))
                .isEqualTo(cliJson("search", "--entity", "Auth Service", "--hops", "0"));
        JsonNode known = alice.ok("known_entities", Map.of("prefix", "Auth")).get("entities");
        assertThat(known).isEqualTo(cliJson("known-entities", "--prefix", "Auth"));
        assertThat(known.get(0).get("key").asText()).isEqualTo("auth service");
        McpSchema.CallToolResult brief = alice.call("brief", Map.of("entity", List.of("auth-service"), "max_tokens",
                1000));
        assertThat(((McpSchema.TextContent) brief.content().get(0)).text()).contains("60s")
                .contains("30s (superseded by t3");
        assertThat(McpTestClient.JSON.valueToTree(brief.structuredContent()).equals(
                cliJson("brief", "--entity", "auth-service", "--max-tokens", "1000"))).isTrue();
        JsonNode review = alice.ok("review", Map.of()).get("items");
        assertThat(review).isEqualTo(cliJson("review"));
        assertThat(ids(review)).contains("c2");
    }

    @Test
    @Order(3)
    void writesAreSignedCommitsByTheActorWithTheRunTrailer() throws Exception {
        JsonNode a = alice.ok("assert", Map.of("body", "MAPK signalling matters", "kind", "claim", "confidence", 0.7,
                "refs", List.of("pmid-1@" + beforeRevision), "quotes", Map.of("pmid-1", "MAPK/ERK pathway regulates")));
        String id = a.get("id").asText();
        assertThat(id).matches("claim-[0-9a-f]{12}");
        JsonNode shown = cliJson("show", id);
        assertThat(shown.get("commit").asText()).isEqualTo(a.get("commit").asText());
        assertThat(shown.get("confidence").asDouble()).isEqualTo(0.7);
        assertThat(shown.get("refs").get(0).get("quote").asText()).isEqualTo("MAPK/ERK pathway regulates");
        assertCommit(a.get("commit").asText(), "alice", "run-a");

        JsonNode r = alice.ok("revise", Map.of("id", id, "body", "MAPK signalling matters a lot"));
        assertThat(cliJson("show", id).get("body").asText()).isEqualTo("MAPK signalling matters a lot");
        assertCommit(r.get("commit").asText(), "alice", "run-a");

        JsonNode s = alice.ok("supersede", Map.of("old", id, "body", "MAPK signalling is central", "id", "c9"));
        assertThat(cliJson("stale", "c9").get(0).get("target").asText()).isEqualTo(id);
        assertCommit(s.get("commit").asText(), "alice", "run-a");

        JsonNode claim = alice.ok("claim", Map.of("subject", "auth service", "predicate", "Times out after", "object",
                "45s", "sources", List.of("pmid-1"), "quote", "regulates apoptosis in oral"));
        assertThat(claim.get("id").asText()).startsWith("entity-claim-");
        assertThat(ids(claim.get("conflicts"))).containsExactlyInAnyOrder("t2", "t3", "t4");
        assertCommit(claim.get("commit").asText(), "alice", "run-a");
        JsonNode listed = alice.ok("current", Map.of("subject", "auth-service", "predicate", "times out after"));
        assertThat(listed.get("claims").findValuesAsText("run")).contains("run-a");

        alice.ok("assert", Map.of("body", "to be withdrawn", "id", "w1", "refs", List.of("pmid-1")));
        JsonNode plan = alice.ok("retract", Map.of("ids", List.of("w1"), "reason", "wrong", "dry_run", true));
        assertThat(plan).isEqualTo(cliJson("retract", "--actor", "alice", "w1", "--reason", "wrong", "--dry-run"));
        assertThat(plan.get("dry_run").asBoolean()).isTrue();
        assertThat(cliJson("live", "w1").get("live").asBoolean()).isTrue();
        JsonNode done = alice.ok("retract", Map.of("ids", List.of("w1"), "reason", "wrong"));
        assertThat(done.get("retracted").get(0).asText()).isEqualTo("w1");
        assertThat(cliJson("live", "w1").get("live").asBoolean()).isFalse();
        assertCommit(done.get("commit").asText(), "alice", "run-a");

        JsonNode f = alice.ok("file_put", Map.of("name", "report.md", "content", "# Report\nERK matters.\n",
                "source", "pmid-1", "claims", List.of("c1")));
        JsonNode versions = cliJson("file", "versions", "report.md");
        assertThat(versions.get(0).get("sha256").asText()).isEqualTo(f.get("sha256").asText());
        assertThat(versions.get(0).get("run").asText()).isEqualTo("run-a");
        assertThat(versions.get(0).get("size").asLong()).isEqualTo(22);
        assertCommit(f.get("commit").asText(), "alice", "run-a");

        JsonNode ack = alice.ok("review", Map.of("ack", "c2", "note", "checked the revision"));
        assertThat(ack.get("item").asText()).isEqualTo("c2");
        assertThat(ids(cliJson("review"))).doesNotContain("c2");
        assertCommit(ack.get("commit").asText(), "alice", "run-a");
    }

    @Test
    @Order(4)
    void rejectedWritesCarryEveryViolationWithItsRuleAndWriteNothing() throws Exception {
        String head = head();
        JsonNode e = alice.error("assert", Map.of("body", "fabricated", "refs", List.of("pmid-1", "nope", "c1@deadbeef"),
                "quotes", Map.of("pmid-1", "this sentence is not in the source")));
        assertThat(e.get("kind").asText()).isEqualTo("rejected");
        assertThat(e.get("exit").asInt()).isEqualTo(5);
        assertThat(e.get("violations").findValuesAsText("rule"))
                .containsExactlyInAnyOrder("quote-not-found", "ref-target-missing", "pin-unknown");
        assertThat(e.toString()).doesNotContain("claim-").contains("new fact").contains("'deadbeef' names no commit");

        JsonNode c = alice.error("claim", Map.of("subject", "erk", "predicate", "is", "object", "a kinase", "sources",
                List.of("pmid-1"), "quote", "ERK is a kinase found in every cell"));
        assertThat(c.get("violations").findValuesAsText("rule")).containsExactly("quote-not-found");

        JsonNode twice = alice.error("retract", Map.of("ids", List.of("h1"), "reason", "again"));
        assertThat(twice.get("violations").findValuesAsText("rule")).isNotEmpty();
        assertThat(alice.error("revise", Map.of("id", "never-written", "body", "x")).get("violations")
                .findValuesAsText("rule")).containsExactly("not-found");
        assertThat(head()).isEqualTo(head);
        assertThat(alice.ok("show", Map.of("id", "pmid-1")).get("body").asText()).isEqualTo(SOURCE);
    }

    @Test
    @Order(5)
    void badArgumentsAreToolErrorsAndTheServerAnswersTheNextCall() throws Exception {
        String head = head();
        assertThat(alice.refused("show", Map.of())).contains("id");
        assertThat(alice.refused("show", Map.of("id", "c1", "colour", "red"))).contains("colour");
        assertThat(alice.refused("log", Map.of("limit", "ten"))).contains("limit");
        assertThat(alice.refused("assert", Map.of("body", "x", "confidence", 3))).contains("confidence");
        JsonNode badId = alice.error("show", Map.of("id", "Not An Id!"));
        assertThat(badId.get("violations").findValuesAsText("rule")).containsExactly("invalid-argument");
        assertThat(badId.get("violations").get(0).get("subject").asText()).isEqualTo("id");
        assertThat(alice.error("show", Map.of("id", "c1", "at", "no-such-rev")).get("kind").asText())
                .isEqualTo("not-found");
        assertThat(alice.error("show", Map.of("id", "h1")).get("message").asText()).contains("retracted at");
        assertThat(alice.error("file_put", Map.of("name", "x", "source", "pmid-1")).get("violations").get(0)
                .get("subject").asText()).isEqualTo("content");
        assertThat(alice.error("retract", Map.of("ids", List.of("c2"), "reason", "r", "dry_run", true, "no_cascade",
                true)).get("kind").asText()).isEqualTo("rejected");
        assertThatThrownBy(() -> alice.client.callTool(new McpSchema.CallToolRequest("no_such_tool", Map.of())))
                .hasMessageContaining("Unknown tool");
        assertThat(head()).isEqualTo(head);
        assertThat(alice.ok("show", Map.of("id", "c1")).get("id").asText()).isEqualTo("c1");
    }

    @Test
    @Order(5)
    void badTextIsRefusedOrStoredExactlyOverTheWire() throws Exception {
        String head = head();
        JsonNode lone = alice.error("claim", Map.of("subject", "gi\ud800na", "predicate", "likes", "object", "tea",
                "sources", List.of("pmid-1")));
        assertThat(lone.get("exit").asInt()).isEqualTo(5);
        assertThat(lone.get("violations").findValuesAsText("rule")).containsExactly("invalid-text");
        assertThat(lone.get("violations").get(0).get("subject").asText()).isEqualTo("subject");
        JsonNode tooLong = alice.error("claim", Map.of("subject", "gina", "predicate", "p".repeat(201), "object",
                "tea", "sources", List.of("pmid-1")));
        assertThat(tooLong.get("exit").asInt()).isEqualTo(5);
        assertThat(tooLong.get("violations").findValuesAsText("rule")).containsExactly("too-large");
        assertThat(head()).isEqualTo(head);

        String object = "x\u0000y\u001b[2J\u009b";
        alice.ok("claim", Map.of("subject", "Gina", "predicate", "likes", "object", object, "sources",
                List.of("pmid-1"), "id", "wire-1"));
        assertThat(alice.ok("show", Map.of("id", "wire-1")).get("body").asText()).isEqualTo("Gina likes " + object);
        assertThat(cliJson("log", "-n", "1").get(0).get("subject").asText())
                .isEqualTo("assert wire-1: Gina likes x\\x00y\\x1b[2J\\x9b");
        JsonNode look = alice.ok("claim", Map.of("subject", "Gi\u200bna", "predicate", "likes", "object", "tea",
                "sources", List.of("pmid-1"), "id", "wire-2"));
        assertThat(look.get("conflicts").findValuesAsText("id")).containsExactly("wire-1");
        GitCli.Result fsck = GitCli.git(Path.of(store), "fsck", "--strict", "--no-progress");
        assertThat(fsck.exitCode()).as(fsck.describe()).isZero();
    }

    @Test
    @Order(6)
    void factResourcesPinTheVersionTheyName() throws Exception {
        JsonNode old = resource("palimpsest://fact/c1@" + beforeRevision);
        assertThat(old.get("body").asText()).isEqualTo("ERK regulates apoptosis");
        assertThat(old).isEqualTo(cliJson("show", "c1", "--at", beforeRevision));
        assertThat(resource("palimpsest://fact/c1").get("body").asText())
                .isEqualTo("ERK regulates apoptosis in oral carcinoma");
        JsonNode gone = resource("palimpsest://fact/h1");
        assertThat(gone.get("retracted").asBoolean()).isTrue();
        assertThat(gone.get("reason").asText()).isEqualTo("no evidence");
        assertThatThrownBy(() -> resource("palimpsest://fact/never-written")).hasMessageContaining("not found");
        assertThat(alice.ok("live", Map.of("id", "c1")).get("live").asBoolean()).isTrue();
    }

    @Test
    @Order(7)
    void twoServersForTwoActorsWritingAtOnceLoseNothing() throws Exception {
        int before = cliJson("log").size();
        int each = 12;
        try (McpTestClient bob = new McpTestClient(Path.of(store), Path.of(home), "bob", "run-b")) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<List<String>> a = pool.submit(() -> writeMany(alice, "a", each));
                Future<List<String>> b = pool.submit(() -> writeMany(bob, "b", each));
                List<String> commits = new ArrayList<>(a.get());
                commits.addAll(b.get());
                assertThat(new HashSet<>(commits)).hasSize(2 * each);
            } finally {
                pool.shutdownNow();
            }
        }
        JsonNode log = cliJson("log");
        assertThat(log.size()).isEqualTo(before + 2 * each);
        for (int i = 0; i < each; i++) {
            assertThat(cliJson("show", "par-a-" + i).get("body").asText()).isEqualTo("fact a " + i);
            assertThat(cliJson("show", "par-b-" + i).get("body").asText()).isEqualTo("fact b " + i);
        }
        for (JsonNode c : log) {
            String subject = c.get("subject").asText();
            if (subject.contains("par-b-")) {
                assertThat(c.get("actor").asText()).isEqualTo("bob");
                assertThat(trailers(c)).containsEntry("Palimpsest-Run", "run-b");
            } else if (subject.contains("par-a-")) {
                assertThat(c.get("actor").asText()).isEqualTo("alice");
            }
        }
    }

    @Test
    @Order(8)
    void auditIsCleanAndGitVerifiesEveryCommitTheServersSigned() throws Exception {
        JsonNode audit = cliJson("audit");
        assertThat(audit.get("clean").asBoolean()).as(audit.toString()).isTrue();
        Path gnupg = Files.createDirectory(tmp.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        gnupgHomes.add(gnupg);
        Map<String, String> env = Map.of("GNUPGHOME", gnupg.toString());
        for (String actor : List.of("alice", "bob")) {
            byte[] key = GitCli.git(Path.of(store), "show", "main:keys/" + actor + ".asc").ok().stdoutBytes();
            GitCli.run(env, key, 60, List.of("gpg", "--batch", "--import")).ok();
        }
        int verified = 0;
        for (JsonNode c : cliJson("log")) {
            String run = trailers(c).get("Palimpsest-Run");
            if ("run-a".equals(run) || "run-b".equals(run)) {
                GitCli.Result v = GitCli.git(Path.of(store), env, "verify-commit", c.get("commit").asText());
                assertThat(v.exitCode()).as(v.describe()).isZero();
                verified++;
            }
        }
        assertThat(verified).isGreaterThanOrEqualTo(8 + 24);
    }

    private static List<String> writeMany(McpTestClient c, String who, int n) {
        List<String> commits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            commits.add(c.ok("assert", Map.of("id", "par-" + who + "-" + i, "body", "fact " + who + " " + i))
                    .get("commit").asText());
        }
        return commits;
    }

    private JsonNode resource(String uri) throws Exception {
        McpSchema.ReadResourceResult r = alice.client.readResource(new McpSchema.ReadResourceRequest(uri));
        McpSchema.TextResourceContents text = (McpSchema.TextResourceContents) r.contents().get(0);
        assertThat(text.uri()).isEqualTo(uri);
        assertThat(text.mimeType()).isEqualTo("application/json");
        return McpTestClient.JSON.readTree(text.text());
    }

    private void assertCommit(String commit, String actor, String run) throws Exception {
        for (JsonNode c : cliJson("log", "-n", "40")) {
            if (c.get("commit").asText().equals(commit)) {
                assertThat(c.get("actor").asText()).isEqualTo(actor);
                assertThat(trailers(c)).containsEntry("Palimpsest-Run", run);
                return;
            }
        }
        throw new AssertionError("commit " + commit + " is not among main's last 40");
    }

    private static Map<String, String> trailers(JsonNode commit) {
        Map<String, String> m = new HashMap<>();
        commit.get("trailers").forEach(t -> m.putIfAbsent(t.get("key").asText(), t.get("value").asText()));
        return m;
    }

    private static List<String> ids(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false).map(n -> n.get("id").asText()).toList();
    }

    private String head() throws Exception {
        return cliJson("log", "-n", "1").get(0).get("commit").asText();
    }

    private void cli(String... args) {
        Run r = Run.inStore(store, home, args);
        assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isZero();
    }

    private JsonNode cliJson(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--json");
        Run r = Run.inStore(store, home, all.toArray(String[]::new));
        assertThat(r.code()).as(all + "\n" + r.err() + r.out()).isZero();
        return r.json();
    }
}
