package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.judge.CachingJudge;
import dev.palimpsest.internal.judge.LabelsFile;
import dev.palimpsest.internal.judge.OpenAiJudge;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.internal.judge.Vendors;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.LabelledClaim;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small parts of the judge package: labels files, vendors, back-off, scripted and cached judges. */
class JudgePartsTest {
    @TempDir
    Path tmp;

    private static List<LabelledClaim> labels(String yaml) throws RejectedException {
        return LabelsFile.parse(yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void labelsFileReadsSourcesByIdOrText() throws Exception {
        assertThat(labels("""
                - {claim: c1, quote: q1, source: doc-1, supported: true}
                - {claim: c2, quote: q2, source_text: "the text", supported: false}
                """)).containsExactly(new LabelledClaim("c1", "q1", FactId.of("doc-1"), null, true),
                new LabelledClaim("c2", "q2", null, "the text", false));
        assertThat(labels("[{\"claim\": \"c\", \"quote\": \"q\", \"source\": \"d\", \"supported\": false}]")).hasSize(1);
    }

    @Test
    void labelsFileListsEveryBadEntry() {
        for (String bad : List.of("{claim: c}", "[]", "'just text'", "- [unclosed")) {
            assertThatThrownBy(() -> labels(bad)).as(bad).isInstanceOf(RejectedException.class);
        }
        assertThatThrownBy(() -> labels("""
                - {claim: c, quote: q, source: d, supported: "yes"}
                - {claim: c, quote: q, supported: true}
                - {claim: c, quote: q, source: d, source_text: t, supported: true}
                - {quote: q, source: d, supported: true}
                - {claim: c, source: d, supported: true}
                - {claim: c, quote: q, source: d, supported: true}
                - {claim: c, quote: q, source: "bad id!", supported: true}
                - {claim: 1, quote: q, source: d, supported: true}
                """)).isInstanceOfSatisfying(RejectedException.class, e -> assertThat(e.violations())
                .extracting(Violation::subject).containsExactly("--labels #1", "--labels #2", "--labels #3",
                        "--labels #4", "--labels #5", "--labels #7", "--labels #8"));
    }

    @Test
    void vendorsComeFromTheSegmentBeforeTheNameOrTheFamily() {
        assertThat(Vendors.vendor("openrouter/anthropic/claude-haiku-4.5")).isEqualTo("anthropic");
        assertThat(Vendors.vendor("anthropic/some-model")).isEqualTo("anthropic");
        // a known vendor before the name wins over the family the name suggests
        assertThat(Vendors.vendor("mistralai/llama-remix")).isEqualTo("mistralai");
        assertThat(Vendors.vendor("claude-sonnet-5")).isEqualTo("anthropic");
        assertThat(Vendors.vendor("claude")).isEqualTo("anthropic");
        assertThat(Vendors.vendor("claudette")).isEqualTo("claudette");
        assertThat(Vendors.vendor("gpt4")).isEqualTo("gpt4");
        assertThat(Vendors.vendor("o1")).isEqualTo("openai");
        assertThat(Vendors.vendor("myhost/unknown/llama-3-70b")).isEqualTo("meta-llama");
        assertThat(Vendors.vendor("myhost/custom")).isEqualTo("myhost");
        assertThat(Vendors.sameModel("a/b/X", "x")).isTrue();
        assertThat(Vendors.sameModel("a/b/x", "a/b/y")).isFalse();
        assertThat(Vendors.sameVendor("gpt-4o", "o3-mini")).isTrue();
        assertThat(Vendors.sameVendor("gpt-4o", "claude-3")).isFalse();
    }

    @Test
    void routingVariantsAndDatedSnapshotsNameTheSameModel() {
        assertThat(Vendors.sameModel("x/accept:free", "x/accept")).isTrue();
        assertThat(Vendors.sameModel("openrouter/anthropic/claude-3-5-sonnet:beta",
                "anthropic/claude-3-5-sonnet-20241022")).isTrue();
        assertThat(Vendors.sameModel("claude-3-5-sonnet@20240620", "claude-3-5-sonnet-latest")).isTrue();
        assertThat(Vendors.sameModel("gpt-4o-2024-08-06", "openai/gpt-4o")).isTrue();
        assertThat(Vendors.sameModel("gpt-3.5-turbo-0125", "gpt-3.5-turbo")).isTrue();
        assertThat(Vendors.sameModel("gemini-1.5-pro-002", "google/gemini-1.5-pro-001")).isTrue();
        assertThat(Vendors.model("openrouter/meta-llama/llama-3-70b-instruct:free")).isEqualTo("llama-3-70b-instruct");
        assertThat(Vendors.vendor("claude-3-opus-20240229:thinking")).isEqualTo("anthropic");
        // a version number is part of the name, a snapshot is not
        assertThat(Vendors.sameModel("gpt-4", "gpt-4o")).isFalse();
        assertThat(Vendors.sameModel("claude-3-5-sonnet", "claude-3-7-sonnet")).isFalse();
        assertThat(Vendors.sameModel("llama-3-70b", "llama-3-8b")).isFalse();
        assertThat(Vendors.model("vendor/20240620")).isEqualTo("20240620");
    }

    @Test
    void retriesBackOffByDoubling() {
        Duration b = Duration.ofMillis(500);
        assertThat(OpenAiJudge.delay(b, 1)).isEqualTo(Duration.ofMillis(500));
        assertThat(OpenAiJudge.delay(b, 2)).isEqualTo(Duration.ofMillis(1000));
        assertThat(OpenAiJudge.delay(b, 3)).isEqualTo(Duration.ofMillis(2000));
        assertThat(OpenAiJudge.delay(b, 11)).isEqualTo(Duration.ofMillis(512_000));
        assertThat(OpenAiJudge.delay(b, 40)).isEqualTo(Duration.ofMillis(512_000));
        assertThat(new OpenAiJudge("http://127.0.0.1:1/v1", "org/m", null, Duration.ofSeconds(1), 0, b).model())
                .isEqualTo("org/m");
    }

    @Test
    void scriptedJudgeRunsOutOrRepeats() {
        ScriptedJudge once = ScriptedJudge.of("m", List.of("a", "b"), false);
        assertThat(once.complete(JudgeRequest.user("q", 0))).isEqualTo("a");
        assertThat(once.complete(JudgeRequest.user("q", 0))).isEqualTo("b");
        assertThatThrownBy(() -> once.complete(JudgeRequest.user("q", 0))).isInstanceOf(PalimpsestInternalException.class)
                .hasMessageContaining("ran out of replies after 2");
        ScriptedJudge again = ScriptedJudge.of("m", List.of("a", "b"), true);
        again.complete(JudgeRequest.user("q", 0));
        again.complete(JudgeRequest.user("q", 0));
        assertThat(again.complete(JudgeRequest.user("q", 0))).isEqualTo("b");
        assertThat(again.calls()).isEqualTo(3);
        assertThat(again.model()).isEqualTo("m");
        assertThatThrownBy(() -> ScriptedJudge.of("m", List.of(), true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cachedJudgeKeepsItsModelAndSkipsTornLines() throws Exception {
        Path f = tmp.resolve("c.jsonl");
        java.nio.file.Files.writeString(f, "{\"key\":\"" + CachingJudge.key("m", JudgeRequest.user("q", 0))
                + "\",\"reply\":\"{\\\"supported\\\": true}\"}\n{\"key\":\"torn");
        CachingJudge j = new CachingJudge(ScriptedJudge.of("m", List.of("{\"supported\": false}"), true), f);
        assertThat(j.model()).isEqualTo("m");
        assertThat(j.complete(JudgeRequest.user("q", 0))).isEqualTo("{\"supported\": true}");
        assertThat(j.complete(JudgeRequest.user("other", 0))).isEqualTo("{\"supported\": false}");
        assertThat(j.hits()).isEqualTo(1);
        assertThat(j.misses()).isEqualTo(1);
    }

    @Test
    void requestsAndMessagesAreValidated() {
        assertThatThrownBy(() -> new JudgeRequest(List.of(), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JudgeRequest.user("q", -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JudgeRequest.Message("tool", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(JudgeRequest.user("q", 0).messages()).containsExactly(new JudgeRequest.Message("user", "q"));
    }
}
