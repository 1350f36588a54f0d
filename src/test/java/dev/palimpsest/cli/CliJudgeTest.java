package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.judge.LocalChatServer;
import dev.palimpsest.model.ClaimReview;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** verify, verify-eval, rederive-audit and claim --verify end to end, against a local chat-completions server. */
class CliJudgeTest {
    static final String SOURCE = "GraphARC wraps LangGraph with typed state contracts. GraphARC was never benchmarked"
            + " at 10x faster than raw LangGraph; no such measurement exists.";

    @TempDir
    Path dir;

    private LocalChatServer server;

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    private Run judged(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--judge-url", server.url(), "--judge-model", "openai/gpt-4o-mini"));
        return cmd(all.toArray(String[]::new));
    }

    private JsonNode ok(Run r) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return r.json();
    }

    @BeforeEach
    void init() throws Exception {
        server = new LocalChatServer(msg -> msg.contains("never benchmarked") && msg.contains("Claim: GraphARC was bench")
                ? "{\"supported\": false, \"reason\": \"the sentence negates the quote\"}"
                : msg.contains("Artifact s-aim2-flat") ? "{\"supported\": true}"
                : msg.contains("Artifact ") ? "{\"supported\": false}"
                : "{\"supported\": true}");
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        ok(cmd("assert", "--actor", "alice", "--id", "readme", "--kind", "source", "--json", "--body", SOURCE));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void verifyAnchorsFirstThenAsksOnceAndServesARerunFromTheCache() throws Exception {
        JsonNode fabricated = ok(judged("verify", "--source", "readme", "--quote", "benchmarked at 100x faster",
                "--claim", "GraphARC is 100x faster", "--json"));
        assertThat(fabricated.toString()).isEqualTo("{\"accepted\":false,\"anchor_ok\":false,\"model_accepted\":null,"
                + "\"reason\":\"citation does not exist in the source (deterministic anchor)\"}");
        assertThat(server.messages()).isEmpty();
        JsonNode negated = ok(judged("verify", "--source", "readme", "--quote", "benchmarked at 10x faster than raw",
                "--claim", "GraphARC was benchmarked at 10x faster than raw LangGraph", "--json"));
        assertThat(negated.toString()).isEqualTo("{\"accepted\":false,\"anchor_ok\":true,\"model_accepted\":false,"
                + "\"reason\":\"the sentence negates the quote\"}");
        assertThat(server.messages()).hasSize(1);
        JsonNode good = ok(judged("verify", "--source", "readme", "--quote", "wraps LangGraph with typed",
                "--claim", "GraphARC has typed state", "--json"));
        assertThat(good.get("accepted").asBoolean()).isTrue();
        assertThat(good.get("model_accepted").asBoolean()).isTrue();
        assertThat(server.messages()).hasSize(2);
        ok(judged("verify", "--source", "readme", "--quote", "wraps LangGraph with typed",
                "--claim", "GraphARC has typed state", "--json"));
        assertThat(server.messages()).hasSize(2); // the re-run was served from the cache
        assertThat(dir.resolve("s.git/palimpsest-index/judge-cache.jsonl")).exists();
        assertThat(Files.readAllLines(dir.resolve("s.git/palimpsest-index/judge-cache.jsonl"))).hasSize(2);
    }

    @Test
    void theAuthorsOwnModelIsRefusedAndTheSameVendorWarned() throws Exception {
        Run same = judged("verify", "--source", "readme", "--quote", "wraps LangGraph with typed", "--claim", "c",
                "--author-model", "openrouter/openai/gpt-4o-mini", "--json");
        assertThat(same.code()).isEqualTo(5);
        assertThat(same.out() + same.err()).contains("reviewer-is-author");
        assertThat(server.messages()).isEmpty();
        JsonNode warned = ok(judged("verify", "--source", "readme", "--quote", "wraps LangGraph with typed", "--claim",
                "c", "--author-model", "openai/gpt-4.1", "--json"));
        assertThat(warned.get("warning").asText()).contains("openai");
        JsonNode clean = ok(judged("verify", "--source", "readme", "--quote", "wraps LangGraph with typed", "--claim",
                "c", "--author-model", "anthropic/claude-sonnet-4.5", "--json"));
        assertThat(clean.has("warning")).isFalse();
    }

    @Test
    void noJudgeIsAUsageErrorAndAMissingSourceIsNotFound() {
        assertThat(cmd("verify", "--source", "readme", "--quote", "wraps LangGraph with typed", "--claim", "c").code())
                .isEqualTo(2);
        assertThat(judged("verify", "--source", "nope", "--quote", "wraps LangGraph with typed", "--claim", "c").code())
                .isEqualTo(4);
    }

    @Test
    void verifyEvalPrintsFourCounters() throws Exception {
        Path labels = dir.resolve("labels.yaml");
        Files.writeString(labels, """
                - {claim: "GraphARC has typed state", quote: "wraps LangGraph with typed", source: readme, supported: true}
                - {claim: "GraphARC is 10x faster", quote: "benchmarked at 100x faster", source: readme, supported: false}
                - {claim: "GraphARC was benchmarked at 10x faster than raw LangGraph",
                   quote: "benchmarked at 10x faster than raw", source: readme, supported: false}
                - {claim: "Budgets bound work", quote: "Budgets put hard ceilings", supported: true,
                   source_text: "Budgets put hard ceilings on iterations."}
                """);
        JsonNode s = ok(judged("verify-eval", "--labels", labels.toString(), "--json"));
        assertThat(s.toString()).isEqualTo("{\"true_accepts\":2,\"true_rejects\":2,\"false_accepts\":0,"
                + "\"false_rejects\":0}");
        Files.writeString(labels, "- {claim: x, quote: y}\n");
        Run bad = judged("verify-eval", "--labels", labels.toString());
        assertThat(bad.code()).isEqualTo(5);
        assertThat(bad.out() + bad.err()).contains("--labels #1");
    }

    @Test
    void claimVerifyRecordsTheVerdictAndARejectedClaimWritesNothing() throws Exception {
        JsonNode c = ok(judged("claim", "--actor", "alice", "--subject", "GraphARC", "--predicate", "has",
                "--object", "typed state contracts", "--source", "readme", "--quote", "typed state contracts",
                "--verify", "--id", "c1", "--json"));
        assertThat(c.get("id").asText()).isEqualTo("c1");
        try (Store store = Store.open(dir.resolve("s.git"), new KeyHome(dir.resolve("home")))) {
            FactRead.Found f = (FactRead.Found) store.read(FactId.of("c1"), store.head());
            assertThat(f.fact().grounding().review()).isEqualTo(new ClaimReview("openai/gpt-4o-mini", true, null));
        }
        String head = ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText();
        Run rejected = judged("claim", "--actor", "alice", "--subject", "GraphARC", "--predicate", "was benchmarked at",
                "--object", "10x faster than raw LangGraph", "--source", "readme", "--quote",
                "benchmarked at 10x faster than raw", "--verify", "--id", "c2", "--json");
        assertThat(rejected.code()).isEqualTo(5);
        assertThat(rejected.out() + rejected.err()).contains("claim-not-verified").contains("the sentence negates the quote");
        Run fabricated = judged("claim", "--actor", "alice", "--subject", "GraphARC", "--predicate", "is",
                "--object", "fast", "--source", "readme", "--quote", "benchmarked at 100x faster", "--verify", "--json");
        assertThat(fabricated.code()).isEqualTo(5);
        assertThat(fabricated.out() + fabricated.err()).contains("claim-not-verified").contains("anchor: citation does not exist");
        Run noQuote = judged("claim", "--actor", "alice", "--subject", "GraphARC", "--predicate", "is",
                "--object", "fast", "--source", "readme", "--verify", "--json");
        assertThat(noQuote.code()).isEqualTo(5);
        assertThat(noQuote.out() + noQuote.err()).contains("needs a quote");
        assertThat(ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText()).isEqualTo(head);
        assertThat(cmd("audit").code()).as("the recorded review passes the audit").isZero();
    }

    @Test
    void rederiveAuditReportsLeakyOverDeletedAndAgreePerLayer() throws Exception {
        ok(cmd("ingest", "--actor", "alice", "--file", "examples/receipts-corpus.yaml", "--json"));
        ok(cmd("entail", "--actor", "alice", "--json"));
        String before = ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText();
        JsonNode r = ok(judged("rederive-audit", "--retract-source", "pmid-39973430", "pmid-40057077", "--draws", "3",
                "--json"));
        assertThat(r.get("operation").asText()).isEqualTo("retract-source");
        assertThat(r.get("draws").asInt()).isEqualTo(3);
        assertThat(r.get("tau").asDouble()).isEqualTo(0.2);
        JsonNode summary = r.get("layers").get("summary");
        assertThat(summary.get("oracle").asText()).isEqualTo("judge");
        assertThat(summary.get("over_deleted_ids").toString()).isEqualTo("[\"s-aim2-flat\"]");
        assertThat(r.get("layers").get("edge").get("oracle").asText()).isEqualTo("symbolic");
        assertThat(ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText()).isEqualTo(before);
        JsonNode blind = ok(cmd("rederive-audit", "--revoke-relation", "regulates", "--json"));
        assertThat(blind.get("layers").get("merge").get("oracle").asText()).isEqualTo("none");
        assertThat(cmd("rederive-audit", "--revoke-relation", "regulates", "--tau", "0.5").code()).isEqualTo(5);
        assertThat(cmd("rederive-audit", "--draws", "3").code()).isEqualTo(2);
    }

    @Test
    void rederiveAuditReportsASecondOraclesAgreementAndApplyVerdictDistrustsTheLeakyLayers() throws Exception {
        ok(cmd("ingest", "--actor", "alice", "--file", "examples/receipts-corpus.yaml", "--json"));
        ok(cmd("entail", "--actor", "alice", "--json"));
        try (LocalChatServer yes = new LocalChatServer(msg -> "{\"supported\": true}")) {
            JsonNode r = ok(judged("rederive-audit", "--retract-source", "pmid-40057077", "--draws", "3",
                    "--judge2-url", yes.url(), "--judge2-model", "other/model", "--temperature", "0.5",
                    "--apply-verdict", "--actor", "alice", "--json"));
            JsonNode second = r.get("layers").get("summary").get("second_oracle");
            assertThat(second.get("oracle").asText()).isEqualTo("other/model");
            assertThat(second.get("both_decided").asInt()).isEqualTo(2);
            assertThat(second.get("disagree_ids").toString()).isEqualTo("[\"s-aim2\"]");
            assertThat(yes.messages()).isNotEmpty();
            assertThat(r.get("under").get("flat").asText()).isEqualTo("trust");
            // the first oracle calls every artifact but the flat summary dead: merges and summaries leak
            assertThat(r.get("policy").get("layers").toString())
                    .isEqualTo("{\"merge\":\"distrust\",\"edge\":\"trust\",\"summary\":\"distrust\"}");
        }
        JsonNode shown = ok(cmd("policy", "show", "--json"));
        assertThat(shown.get("layers").get("summary").asText()).isEqualTo("distrust");
        JsonNode set = ok(cmd("policy", "set", "merge", "trust", "--actor", "alice", "--json"));
        assertThat(set.get("layers").get("merge").asText()).isEqualTo("trust");
        assertThat(set.get("commit").isTextual()).isTrue();
        assertThat(ok(cmd("policy", "set", "merge", "trust", "--actor", "alice", "--json")).get("commit").isNull())
                .isTrue();
        assertThat(ok(cmd("policy", "label-free", "--actor", "alice", "--json")).get("label_free").asBoolean()).isTrue();
        assertThat(cmd("policy", "set", "assertion", "trust", "--actor", "alice").code()).isEqualTo(2);
        assertThat(cmd("rederive-audit", "--retract-source", "pmid-40057077", "--apply-verdict").code()).isEqualTo(2);
        assertThat(cmd("audit").code()).isZero();
    }
}
