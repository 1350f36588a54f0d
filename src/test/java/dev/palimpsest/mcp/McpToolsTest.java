package dev.palimpsest.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.Trailer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools in-process, without a transport: results are the structured content and its JSON text,
 * failures are tool errors that write nothing, every commit carries the server's run, and the fact
 * resources parse their URIs.
 */
class McpToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = "The MAPK/ERK pathway regulates apoptosis in oral carcinoma cells.";

    @TempDir
    Path dir;

    private Store store;
    private Session session;
    private Map<String, ToolDef> tools;

    @BeforeEach
    void open() throws Exception {
        TestStores.init(dir).close();
        store = Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")),
                StoreOptions.defaults().withFsync(false).inRun("run-7"));
        session = new Session(store, TestStores.ALICE, "run-7");
        tools = new java.util.HashMap<>();
        PalimpsestMcpServer.tools(session, ToolSet.ALL).forEach(t -> tools.put(t.name(), t));
        ok("assert", Map.of("id", "pmid-1", "kind", "source", "body", SOURCE));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
        return PalimpsestMcpServer.call(tools.get(tool), args, JSON);
    }

    private JsonNode ok(String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = call(tool, args);
        assertThat(r.isError()).as(r.content().toString()).isFalse();
        JsonNode structured = JSON.valueToTree(r.structuredContent());
        assertThat(JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text())).isEqualTo(structured);
        return structured;
    }

    /** The error of a failed call: its one text content, the JSON {@code {"error": {...}}}; no structured content. */
    private JsonNode error(String tool, Map<String, Object> args) throws Exception {
        return errorOf(call(tool, args));
    }

    private static JsonNode errorOf(McpSchema.CallToolResult r) throws Exception {
        assertThat(r.isError()).isTrue();
        assertThat(r.structuredContent()).as("an error never claims to match the output schema").isNull();
        assertThat(r.content()).hasSize(1);
        return JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text()).get("error");
    }

    @Test
    void theToolsAreNamedAsTheIssueNamesThemAndOnlyWritesAreNotReadOnly() {
        assertThat(tools.keySet()).containsExactlyInAnyOrder("brief", "search", "known_entities", "current", "dead_ends", "contradictions", "show",
                "history", "live", "valid", "exists", "inbound", "stale", "dependents", "explain", "log", "claim", "assert",
                "revise", "supersede", "retract", "merge", "ingest", "retract_source", "revoke_relation", "file_put",
                "review", "receipts", "verify", "rederive_audit", "forget", "expire", "unlearn_check");
        Set<String> writes = Set.of("claim", "assert", "revise", "supersede", "retract", "merge", "ingest",
                "retract_source", "revoke_relation", "file_put", "review", "forget", "expire");
        tools.values().forEach(t -> assertThat(t.readOnly()).as(t.name()).isEqualTo(!writes.contains(t.name())));
        Set<String> destructive = Set.of("retract", "retract_source", "revoke_relation", "forget", "expire");
        tools.values().forEach(t -> assertThat(t.destructive()).as(t.name()).isEqualTo(destructive.contains(t.name())));
        Set<String> openWorld = Set.of("verify", "rederive_audit");
        tools.values().forEach(t -> assertThat(t.openWorld()).as(t.name()).isEqualTo(openWorld.contains(t.name())));
    }

    @Test
    void theCoreSetIsTheTwelveToolsAnAgentNeedsMostAndAllListsEveryTool() {
        List<String> core = PalimpsestMcpServer.tools(session, ToolSet.CORE).stream().map(ToolDef::name).toList();
        assertThat(core).containsExactly("brief", "search", "current", "dead_ends", "contradictions", "show", "history",
                "claim", "assert", "revise", "supersede", "retract");
        assertThat(PalimpsestMcpServer.tools(session, ToolSet.ALL)).hasSize(33);
        assertThat(ToolSet.of("ALL")).isEqualTo(ToolSet.ALL);
        assertThat(ToolSet.CORE.label()).isEqualTo("core");
        assertThatThrownBy(() -> ToolSet.of("some")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("core or all");
    }

    @Test
    void toolsListOfTheCoreSetFitsInTwelveKilobytesAndSaysTheSharedArgumentsOnlyInTheInstructions() throws Exception {
        String core = PalimpsestMcpServer.toolsList(session, ToolSet.CORE, JSON);
        String all = PalimpsestMcpServer.toolsList(session, ToolSet.ALL, JSON);
        int coreBytes = core.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        int allBytes = all.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        System.out.println("tools/list bytes: core " + coreBytes + ", all " + allBytes);
        assertThat(coreBytes).isLessThanOrEqualTo(12_000);
        assertThat(allBytes / JSON.readTree(all).get("tools").size()).as("bytes per tool in all").isLessThan(1_000);
        assertThat(JSON.readTree(core).get("tools")).hasSize(12);
        for (JsonNode tool : JSON.readTree(all).get("tools")) {
            tool.get("inputSchema").get("properties").forEach(p -> assertThat(p.get("description").asText())
                    .as(tool.get("name") + " " + p).hasSizeLessThanOrEqualTo(100));
            assertThat(tool.get("description").asText()).as(tool.get("name").asText()).hasSizeLessThanOrEqualTo(400);
            assertThat(tool.get("annotations").has("title")).as("the title is said once").isFalse();
        }
        assertThat(PalimpsestMcpServer.INSTRUCTIONS).contains("at = the commit to read as of")
                .contains("receipts = the evidence of a merge, edge or summary")
                .contains("quote-not-found").contains("{\"error\": {exit, kind, message, violations}}");
        assertThat(all).doesNotContain("Answers are exactly what was true");
    }

    @Test
    void writesTakeAValidityAndReadsAskInValidTimeOrAsOfATime() throws Exception {
        ok("assert", Map.of("id", "ceo-1", "body", "Ada leads Acme.", "valid", "2021-03-01/2022-01-01"));
        JsonNode v = ok("valid", Map.of("id", "ceo-1", "valid_at", "2021-06-01"));
        assertThat(v.get("valid").asBoolean()).isTrue();
        assertThat(v.get("valid_from").asText()).isEqualTo("2021-03-01T00:00:00Z");
        assertThat(v.get("valid_until").asText()).isEqualTo("2022-01-01T00:00:00Z");
        assertThat(ok("valid", Map.of("id", "ceo-1", "valid_at", "2022-01-01")).get("valid").asBoolean()).isFalse();
        ok("revise", Map.of("id", "ceo-1", "body", "Ada leads Acme.", "valid", "2021-03-01/"));
        assertThat(ok("valid", Map.of("id", "ceo-1", "valid_at", "2030-01-01")).get("valid").asBoolean()).isTrue();
        assertThat(error("valid", Map.of("id", "ceo-1", "valid_at", "someday")).get("violations").get(0).get("rule")
                .asText()).isEqualTo("valid-time-malformed");
        assertThat(error("show", Map.of("id", "ceo-1", "at", "2000-01-01")).get("kind").asText()).isEqualTo("not-found");
        assertThat(ok("show", Map.of("id", "ceo-1", "at", "2999-01-01")).get("id").asText()).isEqualTo("ceo-1");
        ok("claim", Map.of("subject", "acme", "predicate", "ceo", "object", "Ada", "sources", List.of("pmid-1"),
                "valid", "2021-03-01"));
        ok("claim", Map.of("subject", "acme", "predicate", "ceo", "object", "Bob", "sources", List.of("pmid-1"),
                "valid", "2022-01-01"));
        assertThat(ok("current", Map.of("subject", "acme", "valid_at", "2021-06-01")).get("claims"))
                .extracting(c -> c.get("object").asText()).containsExactly("Ada");
        assertThat(ok("contradictions", Map.of()).get("contradictions")).isEmpty();
    }

    @Test
    void searchAndBriefAskInValidTimeAndSupersedeTakesAValidity() throws Exception {
        ok("claim", Map.of("id", "c-ada", "subject", "acme", "predicate", "ceo", "object", "Ada", "sources",
                List.of("pmid-1")));
        ok("claim", Map.of("id", "c-bob", "subject", "acme", "predicate", "ceo", "object", "Bob", "sources",
                List.of("pmid-1"), "valid", "2021-03-01"));
        ok("assert", Map.of("id", "old-hq", "body", "Acme's head office is in Leeds."));
        ok("supersede", Map.of("old", "old-hq", "id", "hq", "body", "Acme's head office is in York.",
                "valid", "2020-01-01/2030-01-01"));
        assertThat(ok("valid", Map.of("id", "hq", "valid_at", "2031-01-01")).get("valid").asBoolean()).isFalse();
        assertThat(ok("search", Map.of("entity", List.of("acme"), "hops", 0, "valid_at", "2019-06-01")).get("hits"))
                .extracting(h -> h.get("id").asText()).contains("c-ada").doesNotContain("c-bob");
        assertThat(ok("search", Map.of("entity", List.of("acme"), "hops", 0, "valid_at", "2022-01-01")).get("hits"))
                .extracting(h -> h.get("id").asText()).contains("c-bob", "hq").doesNotContain("c-ada");
        McpSchema.CallToolResult brief = call("brief", Map.of("entity", List.of("acme"), "valid_at", "2022-01-01"));
        assertThat(brief.isError()).isFalse();
        String text = ((McpSchema.TextContent) brief.content().get(0)).text();
        assertThat(text).contains("c-bob: acme ceo Bob (valid since 2021-03-01)")
                .contains("(valid 2020-01-01 → 2030-01-01)").doesNotContain("c-ada");
        assertThat(error("search", Map.of("entity", List.of("acme"), "valid_at", "soon")).get("violations").get(0)
                .get("rule").asText()).isEqualTo("valid-time-malformed");
        assertThat(error("brief", Map.of("entity", List.of("acme"), "valid_at", "soon")).get("violations").get(0)
                .get("subject").asText()).isEqualTo("valid_at");
        assertThat(error("supersede", Map.of("old", "hq", "body", "Elsewhere.", "valid", "2030-01-01/2020-01-01"))
                .get("violations").get(0).get("rule").asText()).isEqualTo("valid-time-inverted");
    }

    @Test
    void briefSaysItsTextOnceAsTheTextContentBesideTheStructuredSections() throws Exception {
        ok("claim", Map.of("subject", "auth-service", "predicate", "times out after", "object", "30s", "sources",
                List.of("pmid-1")));
        McpSchema.CallToolResult r = call("brief", Map.of("entity", List.of("auth-service")));
        assertThat(r.isError()).isFalse();
        String text = ((McpSchema.TextContent) r.content().get(0)).text();
        assertThat(r.content()).hasSize(1);
        assertThat(text).startsWith("Known facts (with provenance):\n").contains("30s");
        JsonNode structured = JSON.valueToTree(r.structuredContent());
        assertThat(structured.has("text")).isFalse();
        assertThat(structured.get("sections").get(0).get("lines").get(2).asText()).endsWith(": auth-service times out after 30s");
        assertThat(structured.get("tokens").asInt()).isPositive();
    }

    @Test
    void theRecallPromptTellsTheAgentToBriefFirstAndCiteIdsAndTheRecordPromptToQuoteItsSource() {
        McpSchema.GetPromptResult recall = Prompts.recall(Map.of("question", "why do logins time out?", "entity",
                "auth-service"));
        String r = ((McpSchema.TextContent) recall.messages().get(0).content()).text();
        assertThat(recall.messages()).hasSize(1);
        assertThat(recall.messages().get(0).role()).isEqualTo(McpSchema.Role.USER);
        assertThat(r).contains("Question: why do logins time out?").contains("Call brief with query \"why do logins"
                + " time out?\" and entity [\"auth-service\"]").contains("search").contains("Cite the id");
        McpSchema.GetPromptResult record = Prompts.record(Map.of("finding", "Auth times out after 30s",
                "source", "pmid-1"));
        String w = ((McpSchema.TextContent) record.messages().get(0).content()).text();
        assertThat(w).contains("Finding: Auth times out after 30s").contains("Source: pmid-1").contains("assert it first")
                .contains("call claim with sources").contains("quote").contains("quote-not-found");
        assertThat(Prompts.all()).extracting(p -> p.prompt().name()).containsExactly("recall", "record");
    }

    @Test
    void aPromptWithoutItsRequiredArgumentIsInvalidParams() {
        assertThatThrownBy(() -> Prompts.record(Map.of("finding", "x", "source", "  ")))
                .isInstanceOfSatisfying(McpError.class, e -> assertThat(e.getJsonRpcError().code())
                        .isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS))
                .hasMessageContaining("source");
        assertThatThrownBy(() -> Prompts.recall(Map.of())).isInstanceOf(McpError.class).hasMessageContaining("question");
    }

    @Test
    void factIdsCompleteByPrefixAmongTheLiveFactsInIdOrder() throws Exception {
        ok("assert", Map.of("id", "pmid-3", "body", "third"));
        ok("assert", Map.of("id", "pmid-2", "body", "second"));
        ok("assert", Map.of("id", "other", "body", "elsewhere"));
        ok("assert", Map.of("id", "pmid-4", "body", "gone"));
        ok("retract", Map.of("ids", List.of("pmid-4"), "reason", "wrong", "no_cascade", true));
        McpSchema.CompleteResult.CompleteCompletion c = complete(new McpSchema.PromptReference("record"), "source", "PMID");
        assertThat(c.values()).containsExactly("pmid-1", "pmid-2", "pmid-3");
        assertThat(c.hasMore()).isFalse();
        assertThat(c.total()).isEqualTo(3);
        assertThat(complete(new McpSchema.ResourceReference(FactResources.LATEST), "id", "oth").values())
                .containsExactly("other");
        assertThat(complete(new McpSchema.PromptReference("record"), "finding", "pm").values()).isEmpty();
    }

    @Test
    void completionsStopAtAHundredValuesAndSayThereAreMore() throws Exception {
        var tx = store.begin(TestStores.ALICE);
        for (int i = 0; i < 120; i++) {
            tx.assertFact(dev.palimpsest.model.FactSpec.of(dev.palimpsest.model.Kind.CLAIM, "n" + i)
                    .id(dev.palimpsest.model.FactId.of(String.format("n-%03d", i))));
        }
        tx.commit();
        McpSchema.CompleteResult.CompleteCompletion c = complete(new McpSchema.ResourceReference(FactResources.PINNED),
                "id", "n-");
        assertThat(c.values()).hasSize(Completions.MAX).startsWith("n-000").endsWith("n-099");
        assertThat(c.hasMore()).isTrue();
        assertThat(c.total()).isNull();
        assertThat(complete(new McpSchema.ResourceReference(FactResources.PINNED), "id", "n-11").values())
                .containsExactly("n-110", "n-111", "n-112", "n-113", "n-114", "n-115", "n-116", "n-117", "n-118",
                        "n-119");
    }

    @Test
    void entityKeysCompleteByTheKeyOfThePrefixAmongEntitiesWithALiveClaim() throws Exception {
        ok("claim", Map.of("subject", "Auth Service", "predicate", "times out after", "object", "30s", "sources",
                List.of("pmid-1")));
        ok("claim", Map.of("subject", "authz", "predicate", "is", "object", "strict", "sources", List.of("pmid-1")));
        String gone = ok("claim", Map.of("subject", "auth-old", "predicate", "is", "object", "legacy", "sources",
                List.of("pmid-1"))).get("id").asText();
        ok("retract", Map.of("ids", List.of(gone), "reason", "decommissioned", "no_cascade", true));
        ok("claim", Map.of("subject", "billing", "predicate", "is", "object", "late", "sources", List.of("pmid-1")));
        assertThat(complete(new McpSchema.PromptReference("recall"), "entity", "AUTH").values())
                .containsExactly("auth service", "authz");
        assertThat(complete(new McpSchema.PromptReference("record"), "entity", "Auth S").values())
                .containsExactly("auth service");
        assertThat(complete(new McpSchema.PromptReference("recall"), "entity", "").values())
                .containsExactly("auth service", "authz", "billing");
    }

    @Test
    void aCommitCompletesAmongTheNamedFactsCommitsNewestFirstElseAmongMains() throws Exception {
        String first = ok("assert", Map.of("id", "h3", "body", "first words")).get("commit").asText();
        String second = ok("revise", Map.of("id", "h3", "body", "second words")).get("commit").asText();
        ok("assert", Map.of("id", "h4", "body", "unrelated"));
        McpSchema.CompleteRequest req = new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference(FactResources.PINNED),
                new McpSchema.CompleteRequest.CompleteArgument("commit", ""),
                new McpSchema.CompleteRequest.CompleteContext(Map.of("id", "h3")));
        assertThat(Completions.complete(session, req).completion().values()).containsExactly(second, first);
        assertThat(complete(new McpSchema.ResourceReference(FactResources.PINNED), "commit", first.substring(0, 7))
                .values()).containsExactly(first);
        McpSchema.CompleteRequest never = new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference(FactResources.PINNED),
                new McpSchema.CompleteRequest.CompleteArgument("commit", ""),
                new McpSchema.CompleteRequest.CompleteContext(Map.of("id", "Not An Id!")));
        assertThat(Completions.complete(session, never).completion().values()).isEmpty();
    }

    @Test
    void everyCommitCarriesTheServersRunRightAfterTheActor() throws Exception {
        ok("assert", Map.of("id", "c1", "body", "ERK regulates apoptosis", "refs", List.of("pmid-1"), "quotes",
                Map.of("pmid-1", "regulates apoptosis in oral")));
        ok("revise", Map.of("id", "c1", "body", "ERK regulates apoptosis strongly"));
        ok("retract", Map.of("ids", List.of("c1"), "reason", "wrong", "no_cascade", true));
        ok("claim", Map.of("subject", "erk", "predicate", "is", "object", "a kinase", "sources", List.of("pmid-1")));
        List<LogEntry> log = store.log(4);
        assertThat(log).hasSize(4);
        for (LogEntry e : log) {
            List<Trailer> ts = e.trailers();
            assertThat(ts.get(0)).isEqualTo(new Trailer("Palimpsest-Actor", "alice"));
            assertThat(ts.get(1)).isEqualTo(new Trailer("Palimpsest-Run", "run-7"));
            assertThat(ts.stream().filter(t -> t.key().equals("Palimpsest-Run")).count()).isEqualTo(1);
        }
        JsonNode current = ok("current", Map.of("subject", "ERK"));
        assertThat(current.get("claims").get(0).get("run").asText()).isEqualTo("run-7");
    }

    @Test
    void aRejectedWriteListsTheGateViolationsBesideAnUnknownPinAndWritesNothing() throws Exception {
        var before = TestStores.durableState(store.gitDir());
        JsonNode e = error("assert", Map.of("body", "made up", "refs", List.of("pmid-1", "ghost", "pmid-1@0123abc"),
                "quotes", Map.of("pmid-1", "words that are not there at all")));
        assertThat(e.get("exit").asInt()).isEqualTo(5);
        assertThat(e.get("violations").findValuesAsText("rule")).contains("quote-not-found", "ref-target-missing",
                "pin-unknown");
        assertThat(e.get("violations").findValuesAsText("subject")).allMatch(s -> !s.contains("claim-"));
        assertThat(e.get("violations").findValuesAsText("message")).contains("'0123abc' names no commit of this store");
        assertThat(error("assert", Map.of("body", "x", "quotes", Map.of("pmid-1", "regulates apoptosis in oral")))
                .get("violations").get(0).get("subject").asText()).isEqualTo("quotes");
        assertThat(error("claim", Map.of("subject", "erk", "predicate", "is", "object", "x", "sources",
                List.of("pmid-1"), "quote", "a citation nobody wrote")).get("violations").findValuesAsText("rule"))
                .containsExactly("quote-not-found");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
    }

    @Test
    void forgetExpireAndUnlearnCheckAnswerWithTheCliFieldsAndRefusalsWriteNothing() throws Exception {
        ok("assert", Map.of("id", "pii", "kind", "source", "body", "Zelda Quixote lives at 12 Harbour Lane", "sensitive", true));
        ok("assert", Map.of("id", "cite", "kind", "note", "body", "needs a ramp", "refs", List.of("pii"),
                "quotes", Map.of("pii", "Zelda Quixote lives at"), "retain_until", "2026-01-01T00:00:00Z"));
        ok("claim", Map.of("id", "c1", "subject", "zelda", "predicate", "lives at", "object", "12 Harbour Lane",
                "sources", List.of("pii"), "sensitive", true));
        assertThat(ok("unlearn_check", Map.of("id", "pii")).get("clean").asBoolean()).isFalse();
        var before = TestStores.durableState(store.gitDir());
        assertThat(error("assert", Map.of("body", "x", "retain_until", "next week")).get("violations").get(0)
                .get("subject").asText()).isEqualTo("retain_until");
        assertThat(error("forget", Map.of("ids", List.of("pmid-1"), "reason", "plain")).get("violations")
                .findValuesAsText("rule")).containsExactly("forget-plaintext");
        JsonNode dry = ok("forget", Map.of("ids", List.of("pii"), "reason", "erasure", "dry_run", true));
        assertThat(dry.get("commit").isNull()).isTrue();
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);

        JsonNode f = ok("forget", Map.of("ids", List.of("pii"), "reason", "erasure"));
        assertThat(JSON.convertValue(f.get("forgotten"), List.class)).containsExactly("pii");
        assertThat(JSON.convertValue(f.get("closure"), List.class)).containsExactlyInAnyOrder("c1", "cite");
        assertThat(JSON.convertValue(f.get("review"), List.class)).containsExactlyInAnyOrder("c1", "cite");
        assertThat(f.get("commit").asText()).isEqualTo(store.head().hex());
        assertThat(error("show", Map.of("id", "pii")).get("message").asText()).contains("forgotten at " + store.head().hex());
        assertThat(error("forget", Map.of("ids", List.of("pii"), "reason", "again")).get("violations")
                .findValuesAsText("rule")).containsExactly("already-forgotten");

        JsonNode ex = ok("expire", Map.of("now", "2026-06-01T00:00:00Z"));
        assertThat(ex.get("forgotten").get(0).get("id").asText()).isEqualTo("cite");
        assertThat(ex.get("forgotten").get(0).get("deadline").asText()).isEqualTo("2026-01-01T00:00:00Z");
        JsonNode still = ok("unlearn_check", Map.of("id", "pii"));
        assertThat(still.get("clean").asBoolean()).isFalse();
        assertThat(JSON.convertValue(still.get("readable"), List.class)).containsExactly("c1");
        ok("forget", Map.of("ids", List.of("c1"), "reason", "derived from erased data"));
        JsonNode clean = ok("unlearn_check", Map.of("id", "pii"));
        assertThat(clean.get("clean").asBoolean()).isTrue();
        assertThat(JSON.convertValue(clean.get("derivations"), List.class)).containsExactlyInAnyOrder("c1", "cite");
        assertThat(clean.get("readable")).isEmpty();
    }

    @Test
    void forgetWithDerivedErasesTheSealedCitersAndPlaintextKeepsACiterInTheClear() throws Exception {
        ok("assert", Map.of("id", "pii", "kind", "note", "body", "Zelda Quixote lives at 12 Harbour Lane", "sensitive", true));
        ok("assert", Map.of("id", "cite", "body", "needs a ramp", "refs", List.of("pii")));
        ok("assert", Map.of("id", "open", "body", "a ramp was requested", "refs", List.of("pii"), "plaintext", true));
        JsonNode f = ok("forget", Map.of("ids", List.of("pii"), "reason", "erasure", "with_derived", true));
        assertThat(JSON.convertValue(f.get("forgotten"), List.class)).containsExactly("pii", "cite");
        assertThat(JSON.convertValue(f.get("review"), List.class)).containsExactly("open");
        JsonNode stale = ok("stale", Map.of("id", "open"));
        assertThat(stale.get("refs").get(0).get("status").asText()).isEqualTo("forgotten");
        assertThat(stale.get("refs").get(0).get("current_commit").asText()).isEqualTo(f.get("commit").asText());
    }

    @Test
    void aHandlerThatThrowsBecomesAnInternalToolError() throws Exception {
        ToolDef broken = ToolDef.read("broken", "t", "d", Schema.input(), Schema.output(), a -> {
            throw new IllegalStateException("boom");
        });
        JsonNode e = errorOf(PalimpsestMcpServer.call(broken, Map.of(), JSON));
        assertThat(e.get("kind").asText()).isEqualTo("internal");
        assertThat(e.get("message").asText()).isEqualTo("java.lang.IllegalStateException: boom");
        assertThat(ok("show", Map.of("id", "pmid-1")).get("body").asText()).isEqualTo(SOURCE);
    }

    @Test
    void aHandlerThatOverflowsItsStackBecomesAnInternalToolError() throws Exception {
        ToolDef deep = ToolDef.read("deep", "t", "d", Schema.input(), Schema.output(), a -> {
            throw new StackOverflowError();
        });
        JsonNode e = errorOf(PalimpsestMcpServer.call(deep, Map.of(), JSON));
        assertThat(e.get("kind").asText()).isEqualTo("internal");
        assertThat(e.get("message").asText()).isEqualTo("java.lang.StackOverflowError");
    }

    @Test
    void aResourceReadThatFailsInsideIsAnInternalErrorAndABadIdInvalidParams() {
        assertThat(FactResources.failure(new StackOverflowError()).getJsonRpcError().code())
                .isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
        assertThat(FactResources.failure(new IllegalStateException("boom")).getJsonRpcError().code())
                .isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
        assertThatThrownBy(() -> FactResources.read(session, JSON, "palimpsest://fact/Bad!"))
                .isInstanceOfSatisfying(McpError.class, e -> assertThat(e.getJsonRpcError().code())
                        .isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS));
    }

    @Test
    void showFallsBackOnlyWhenAskedAndReadsAsOfACommit() throws Exception {
        String first = ok("assert", Map.of("id", "h1", "body", "first words")).get("commit").asText();
        ok("revise", Map.of("id", "h1", "body", "second words"));
        ok("retract", Map.of("ids", List.of("h1"), "reason", "no evidence"));
        JsonNode gone = error("show", Map.of("id", "h1"));
        assertThat(gone.get("kind").asText()).isEqualTo("not-found");
        assertThat(gone.get("message").asText()).contains("reason: no evidence").contains("fallback: true");
        JsonNode last = ok("show", Map.of("id", "h1", "fallback", true));
        assertThat(last.get("body").asText()).isEqualTo("second words");
        assertThat(last.get("retracted").asBoolean()).isTrue();
        assertThat(last.get("reason").asText()).isEqualTo("no evidence");
        assertThat(ok("show", Map.of("id", "h1", "at", first)).get("body").asText()).isEqualTo("first words");
        assertThat(ok("log", Map.of("limit", 2)).get("commits")).hasSize(2);
        assertThat(ok("history", Map.of("id", "h1")).get("history").findValuesAsText("change"))
                .containsExactly("retracted", "revised", "added");
    }

    @Test
    void factResourcesReadTheFactAtTheCommitTheUriNames() throws Exception {
        String first = ok("assert", Map.of("id", "h2", "body", "first words")).get("commit").asText();
        ok("revise", Map.of("id", "h2", "body", "second words"));
        assertThat(resource("palimpsest://fact/h2@" + first).get("body").asText()).isEqualTo("first words");
        assertThat(resource("palimpsest://fact/h2").get("body").asText()).isEqualTo("second words");
        assertThat(resource("palimpsest://fact/h2@main~1").get("body").asText()).isEqualTo("first words");
        for (String bad : List.of("palimpsest://fact/", "palimpsest://fact/never", "file:///etc/passwd",
                "palimpsest://fact/h2@nowhere")) {
            assertThatThrownBy(() -> FactResources.read(session, JSON, bad)).as(bad).isInstanceOf(McpError.class);
        }
        assertThatThrownBy(() -> FactResources.read(session, JSON, "palimpsest://fact/Bad!"))
                .isInstanceOf(McpError.class).hasMessageContaining("invalid");
    }

    @Test
    void filePutTakesTextOrBase64BytesAndReviewListsAndAcknowledges() throws Exception {
        JsonNode f = ok("file_put", Map.of("name", "notes.md", "content", "hello\n", "source", "pmid-1"));
        assertThat(f.get("sha256").asText()).isEqualTo("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
        JsonNode g = ok("file_put", Map.of("name", "copy.txt", "content_base64", "aGVsbG8K", "source", "pmid-1"));
        assertThat(g.get("sha256").asText()).isEqualTo(f.get("sha256").asText());
        assertThat(g.get("media_type").asText()).isEqualTo("text/plain");
        assertThat(error("file_put", Map.of("name", "x", "content", "a", "content_base64", "YQ==", "source", "pmid-1"))
                .get("violations").get(0).get("subject").asText()).isEqualTo("content");
        assertThat(error("file_put", Map.of("name", "x", "content_base64", "not base64!", "source", "pmid-1"))
                .get("violations").get(0).get("subject").asText()).isEqualTo("content_base64");
        ok("assert", Map.of("id", "c5", "body", "cites the source", "refs", List.of("pmid-1")));
        ok("revise", Map.of("id", "pmid-1", "body", SOURCE + " Revised."));
        assertThat(ok("review", Map.of()).get("items").findValuesAsText("id")).contains("c5");
        assertThat(error("review", Map.of("note", "orphan")).get("violations").get(0).get("subject").asText())
                .isEqualTo("note");
        JsonNode ack = ok("review", Map.of("ack", "c5"));
        assertThat(ack.get("item").asText()).isEqualTo("c5");
        assertThat(ok("review", Map.of()).get("items").findValuesAsText("id")).doesNotContain("c5");
    }

    @Test
    void textNoFileCanHoldAndAnOverlongPredicateAreRejectionsNamingTheArgumentAndWriteNothing() throws Exception {
        var before = TestStores.durableState(store.gitDir());
        JsonNode e = error("claim", Map.of("subject", "gi\ud800na", "predicate", "likes", "object", "tea", "sources",
                List.of("pmid-1")));
        assertThat(e.get("exit").asInt()).isEqualTo(5);
        assertThat(e.get("violations").findValuesAsText("rule")).containsExactly("invalid-text");
        assertThat(e.get("violations").get(0).get("subject").asText()).isEqualTo("subject");
        assertThat(e.get("message").asText()).contains("U+D800");
        assertThat(error("assert", Map.of("body", "ok", "quotes", Map.of("pmid-1", "regulates \udc00 apoptosis")))
                .get("violations").get(0).get("subject").asText()).isEqualTo("quotes");
        assertThat(error("retract", Map.of("ids", List.of("pmid-1"), "reason", "\udbff")).get("violations").get(0)
                .get("rule").asText()).isEqualTo("invalid-text");
        JsonNode tooLong = error("claim", Map.of("subject", "erk", "predicate", "p".repeat(201), "object", "x",
                "sources", List.of("pmid-1")));
        assertThat(tooLong.get("exit").asInt()).isEqualTo(5);
        assertThat(tooLong.get("violations").findValuesAsText("rule")).containsExactly("too-large");
        assertThat(tooLong.get("violations").get(0).get("message").asText()).contains("limit of 200");
        assertThat(tooLong.toString()).doesNotContain("entity-claim-");
        assertThat(error("claim", Map.of("subject", "  ", "predicate", "is", "object", "x", "sources",
                List.of("pmid-1"))).get("violations").findValuesAsText("rule")).containsExactly("claim-triple");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
    }

    @Test
    void controlCharactersAreStoredExactlyAndInvisibleOnesMakeNoLookAlikeEntity() throws Exception {
        String object = "x\u0000y\u001b[2J\u009b";
        ok("claim", Map.of("subject", "Gina", "predicate", "likes", "object", object, "sources", List.of("pmid-1"),
                "id", "g1"));
        assertThat(ok("show", Map.of("id", "g1")).get("body").asText()).isEqualTo("Gina likes " + object);
        assertThat(ok("log", Map.of("limit", 1)).get("commits").get(0).get("subject").asText())
                .isEqualTo("assert g1: Gina likes x\\x00y\\x1b[2J\\x9b");
        JsonNode look = ok("claim", Map.of("subject", "Gi\u200bna", "predicate", "likes", "object", "tea", "sources",
                List.of("pmid-1"), "id", "g2"));
        assertThat(look.get("conflicts").findValuesAsText("id")).containsExactly("g1");
        assertThat(ok("contradictions", Map.of("subject", "\ufeffGINA")).get("contradictions").get(0).get("claims"))
                .hasSize(2);
    }

    private McpSchema.CompleteResult.CompleteCompletion complete(McpSchema.CompleteReference ref, String argument,
            String prefix) {
        return Completions.complete(session, new McpSchema.CompleteRequest(ref,
                new McpSchema.CompleteRequest.CompleteArgument(argument, prefix))).completion();
    }

    private JsonNode resource(String uri) throws Exception {
        McpSchema.ReadResourceResult r = FactResources.read(session, JSON, uri);
        return JSON.readTree(((McpSchema.TextResourceContents) r.contents().get(0)).text());
    }
}
