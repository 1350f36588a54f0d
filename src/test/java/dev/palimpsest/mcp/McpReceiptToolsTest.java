package dev.palimpsest.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.api.Judges;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.judge.LocalChatServer;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.StoreOptions;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts through the agent's door, in-process: assert and revise take receipts, the full set's
 * merge, ingest, retract_source, revoke_relation, receipts, verify and rederive_audit answer with the
 * CLI's fields through the public API, and every refusal is a tool error naming its rule and writing
 * nothing. The judge is a local chat-completions endpoint.
 */
class McpReceiptToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Store store;
    private LocalChatServer judgeServer;
    private final AtomicReference<String> reply = new AtomicReference<>("{\"supported\": true}");
    private Map<String, ToolDef> tools;
    private Map<String, ToolDef> unjudged;

    @BeforeEach
    void open() throws Exception {
        TestStores.init(dir).close();
        store = Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")),
                StoreOptions.defaults().withFsync(false).inRun("run-7"));
        judgeServer = new LocalChatServer(m -> reply.get());
        Judge judge = Judges.openAi(judgeServer.url(), "test/judge-1").retries(0).build();
        tools = byName(new Session(store, TestStores.ALICE, "run-7", List.of(judge)));
        unjudged = byName(new Session(store, TestStores.ALICE, "run-7"));
        String batch = Files.readString(Path.of("examples/receipts-corpus.yaml"), StandardCharsets.UTF_8);
        JsonNode in = ok("ingest", Map.of("batch", batch));
        assertThat(in.get("kinds").get("assertion").asInt()).isEqualTo(4);
        assertThat(in.get("configured").asBoolean()).isTrue();
    }

    private static Map<String, ToolDef> byName(Session s) {
        Map<String, ToolDef> m = new HashMap<>();
        PalimpsestMcpServer.tools(s, ToolSet.ALL).forEach(t -> m.put(t.name(), t));
        return m;
    }

    @AfterEach
    void close() {
        judgeServer.close();
        store.close();
    }

    private JsonNode ok(String tool, Map<String, Object> args) throws Exception {
        return okOf(PalimpsestMcpServer.call(tools.get(tool), args, JSON));
    }

    private static JsonNode okOf(McpSchema.CallToolResult r) throws Exception {
        assertThat(r.isError()).as(r.content().toString()).isFalse();
        JsonNode structured = JSON.valueToTree(r.structuredContent());
        assertThat(JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text())).isEqualTo(structured);
        return structured;
    }

    private JsonNode error(String tool, Map<String, Object> args) throws Exception {
        return errorOf(PalimpsestMcpServer.call(tools.get(tool), args, JSON));
    }

    private static JsonNode errorOf(McpSchema.CallToolResult r) throws Exception {
        assertThat(r.isError()).as(r.content().toString()).isTrue();
        assertThat(r.structuredContent()).isNull();
        return JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text()).get("error");
    }

    private static List<String> rules(JsonNode error) {
        return error.get("violations").findValuesAsText("rule");
    }

    @Test
    void assertAndReviseTakeReceiptsAndAnArtifactWithoutOneIsStillReceiptRequired() throws Exception {
        var before = TestStores.durableState(store.gitDir());
        JsonNode bare = error("assert", Map.of("id", "m2", "kind", "merge", "body", "ERK == MAPK"));
        assertThat(bare.get("exit").asInt()).isEqualTo(5);
        assertThat(rules(bare)).containsExactly("receipt-required");
        assertThat(rules(error("assert", Map.of("id", "m2", "kind", "merge", "body", "x", "receipts",
                List.of(List.of("a1@nowhere")))))).containsExactly("pin-unknown");
        assertThat(rules(error("assert", Map.of("id", "c2", "body", "a plain claim", "receipts",
                List.of(List.of("a1")))))).containsExactly("grounding-on-plain-fact");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);

        ok("assert", Map.of("id", "m2", "kind", "merge", "body", "ERK == MAPK", "receipts",
                List.of(List.of("a1"), List.of("a5", "a6"))));
        JsonNode r = ok("receipts", Map.of("id", "m2"));
        assertThat(r.get("alive").asBoolean()).isTrue();
        assertThat(r.get("receipt").get(1).findValuesAsText("id")).containsExactly("a5", "a6");
        ok("assert", Map.of("id", "s2", "kind", "summary", "body", "ERK regulates apoptosis.", "receipts",
                List.of(List.of("a5"))));
        assertThat(ok("receipts", Map.of("id", "s2")).get("flat").asBoolean()).isTrue();

        String revised = ok("revise", Map.of("id", "m2", "receipts", List.of(List.of("a6")))).get("commit").asText();
        assertThat(ok("receipts", Map.of("id", "m2")).get("receipt").findValuesAsText("id")).containsExactly("a6");
        assertThat(ok("show", Map.of("id", "m2")).get("body").asText()).isEqualTo("ERK == MAPK");
        ok("revise", Map.of("id", "m2", "body", "ERK1/2 == MAPK", "receipts", List.of(List.of("a1"))));
        assertThat(ok("show", Map.of("id", "m2")).get("body").asText()).isEqualTo("ERK1/2 == MAPK");
        assertThat(ok("receipts", Map.of("id", "m2", "at", revised)).get("receipt").findValuesAsText("id"))
                .containsExactly("a6");
        var now = TestStores.durableState(store.gitDir());
        assertThat(error("revise", Map.of("id", "m2", "receipts", List.of(List.of("a5")), "refs", List.of("a1")))
                .get("violations").get(0).get("subject").asText()).isEqualTo("refs");
        assertThat(rules(error("revise", Map.of("id", "a1", "receipts", List.of(List.of("a5"))))))
                .containsExactly("not-an-artifact");
        assertThat(error("revise", Map.of("id", "m2")).get("violations").get(0).get("subject").asText())
                .isEqualTo("body");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(now);
    }

    @Test
    void mergeWritesAnIdentityThatSurvivesOnAnotherBundleAndDiesWithTheLast() throws Exception {
        assertThat(rules(error("merge", Map.of("body", "A == B", "receipts", List.of()))))
                .containsExactly("receipt-required");
        JsonNode m = ok("merge", Map.of("body", "MAPK/ERK pathway == ERK1/2 signalling (again)", "receipts",
                List.of(List.of("a1"), List.of("a5"))));
        String id = m.get("id").asText();
        assertThat(id).startsWith("merge-");
        assertThat(store.log(1).get(0).trailers()).anyMatch(t -> t.key().equals("Palimpsest-Run"));

        JsonNode dry = ok("retract_source", Map.of("docs", List.of("pmid-39973430"), "reason", "retracted",
                "dry_run", true));
        assertThat(dry.get("dry_run").asBoolean()).isTrue();
        assertThat(dry.get("commit").isNull()).isTrue();
        assertThat(JSON.convertValue(dry.get("roots"), List.class)).contains("pmid-39973430", "a1");
        JsonNode first = ok("retract_source", Map.of("docs", List.of("pmid-39973430"), "reason", "retracted"));
        assertThat(first.get("commit").asText()).isEqualTo(store.head().hex());
        assertThat(JSON.convertValue(first.get("roots"), List.class)).contains("pmid-39973430", "a1");
        assertThat(ok("receipts", Map.of("id", id)).get("alive").asBoolean()).isTrue();

        JsonNode second = ok("retract_source", Map.of("docs", List.of("pmid-38800001"), "reason", "retracted"));
        assertThat(second.get("removals").findValuesAsText("id")).contains(id, "m1");
        JsonNode gone = ok("receipts", Map.of("id", id));
        assertThat(gone.get("live").asBoolean()).isFalse();
        assertThat(gone.get("alive").asBoolean()).isFalse();
        assertThat(rules(error("retract_source", Map.of("docs", List.of("pmid-38800001"), "reason", "again"))))
                .containsExactly("not-live");
    }

    @Test
    void revokeRelationPlansAndLandsTheCascadeAndIngestListsEveryProblem() throws Exception {
        var before = TestStores.durableState(store.gitDir());
        JsonNode bad = error("ingest", Map.of("batch", "assertions:\n  - {id: a9, source: pmid-39973430}\n"
                + "artifacts:\n  - {id: m9, kind: merge, body: x, bogus: 1}\n"));
        assertThat(bad.get("exit").asInt()).isEqualTo(5);
        assertThat(bad.get("violations").size()).isGreaterThanOrEqualTo(2);
        assertThat(rules(error("revoke_relation", Map.of("predicate", "nope", "reason", "x")))).isNotEmpty();
        JsonNode dry = ok("revoke_relation", Map.of("predicate", "part_of", "reason", "unsound", "dry_run", true));
        assertThat(JSON.convertValue(dry.get("roots"), List.class)).containsExactly("a6");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
        JsonNode wet = ok("revoke_relation", Map.of("predicate", "part_of", "reason", "unsound"));
        assertThat(wet.get("dry_run").asBoolean()).isFalse();
        assertThat(wet.get("commit").asText()).isEqualTo(store.head().hex());
    }

    @Test
    void verifyAsksTheServersJudgeAndFailsClosedWithTheRuleOrKindOfEachFailure() throws Exception {
        Map<String, Object> args = Map.of("source", "pmid-40057077", "quote", "AIM2 suppresses oral carcinoma growth",
                "claim", "AIM2 suppresses oral carcinoma");
        JsonNode yes = ok("verify", args);
        assertThat(yes.get("accepted").asBoolean()).isTrue();
        assertThat(yes.get("anchor_ok").asBoolean()).isTrue();
        assertThat(yes.get("model_accepted").asBoolean()).isTrue();
        assertThat(judgeServer.messages()).hasSize(1);

        JsonNode misquote = ok("verify", Map.of("source", "pmid-40057077", "quote", "AIM2 promotes oral carcinoma",
                "claim", "AIM2 promotes oral carcinoma"));
        assertThat(misquote.get("accepted").asBoolean()).isFalse();
        assertThat(misquote.get("anchor_ok").asBoolean()).isFalse();
        assertThat(misquote.get("model_accepted").isNull()).isTrue();
        assertThat(judgeServer.messages()).as("the anchor fails before the judge is asked").hasSize(1);

        reply.set("Quota exceeded. Upgrade your plan.");
        JsonNode degraded = error("verify", args);
        assertThat(degraded.get("exit").asInt()).isEqualTo(8);
        assertThat(degraded.get("kind").asText()).isEqualTo("judge-degraded");
        reply.set("{\"supported\": true}");

        JsonNode same = error("verify", Map.of("source", "pmid-40057077", "quote", "AIM2 suppresses oral carcinoma growth",
                "claim", "x", "author_model", "test/judge-1:free"));
        assertThat(rules(same)).containsExactly("reviewer-is-author");
        JsonNode vendor = ok("verify", Map.of("source", "pmid-40057077", "quote", "AIM2 suppresses oral carcinoma growth",
                "claim", "AIM2 suppresses oral carcinoma", "author_model", "test/other"));
        assertThat(vendor.get("warning").asText()).contains("share the vendor");

        JsonNode none = errorOf(PalimpsestMcpServer.call(unjudged.get("verify"), args, JSON));
        assertThat(none.get("exit").asInt()).isEqualTo(8);
        assertThat(none.get("kind").asText()).isEqualTo("judge-unavailable");
        assertThat(none.get("message").asText()).contains("--judge-url");
        assertThat(error("verify", Map.of("source", "never", "quote", "x".repeat(12), "claim", "x")).get("kind")
                .asText()).isEqualTo("not-found");
    }

    @Test
    void rederiveAuditGradesWithTheServersJudgesAndWithoutThemOnlyTheEntailedEdges() throws Exception {
        reply.set("{\"supported\": false}");
        JsonNode r = ok("rederive_audit", Map.of("retract_source", List.of("pmid-40057077"), "draws", 2));
        assertThat(r.get("operation").asText()).isEqualTo("retract-source");
        assertThat(r.get("draws").asInt()).isEqualTo(2);
        assertThat(r.get("layers").get("summary").get("oracle").asText()).isEqualTo("judge");
        assertThat(r.get("layers").get("summary").get("graded").asInt()).isPositive();
        assertThat(r.get("under").get("flat").asText()).isEqualTo("distrust");
        assertThat(judgeServer.messages()).isNotEmpty();

        int asked = judgeServer.messages().size();
        JsonNode plain = okOf(PalimpsestMcpServer.call(unjudged.get("rederive_audit"), Map.of("revoke_relation",
                "part_of", "grade_labels", true), JSON));
        assertThat(plain.get("layers").get("merge").get("oracle").asText()).isEqualTo("none");
        assertThat(plain.get("under").get("flat").asText()).isEqualTo("trust");
        assertThat(judgeServer.messages()).hasSize(asked);

        assertThat(error("rederive_audit", Map.of()).get("violations").get(0).get("subject").asText())
                .isEqualTo("retract_source");
        assertThat(error("rederive_audit", Map.of("retract_source", List.of("pmid-40057077"), "revoke_relation",
                "part_of")).get("exit").asInt()).isEqualTo(5);
        assertThat(rules(error("rederive_audit", Map.of("revoke_relation", "part_of", "tau", 0.7))))
                .containsExactly("invalid-argument");
    }
}
