package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.ClaimReview;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reviewer's verdict recorded with a claim: canonical YAML, the gate, the API. */
class ClaimReviewRecordTest {
    @TempDir
    Path tmp;

    private static Fact claim(ClaimReview r) {
        return new Fact(FactId.of("c1"), Kind.ENTITY_CLAIM, "a b c", null, List.of(), null,
                Grounding.triple("a", "b", "c").withReview(r), null);
    }

    @Test
    void reviewIsWrittenAfterTheTripleAndRoundTrips() throws Exception {
        Fact f = claim(new ClaimReview("openai/gpt-4o-mini", true, "the source says so"));
        String yaml = new String(FactCodec.encode(f), StandardCharsets.UTF_8);
        assertThat(yaml).endsWith("subject: \"a\"\npredicate: \"b\"\nobject: \"c\"\nreview:\n  model: \"openai/gpt-4o-mini\"\n"
                + "  model_accepted: true\n  reason: \"the source says so\"\n");
        assertThat(FactCodec.decodeFact(yaml.getBytes(StandardCharsets.UTF_8), "c1")).isEqualTo(f);
        Fact never = claim(new ClaimReview("m", null, null));
        String y2 = new String(FactCodec.encode(never), StandardCharsets.UTF_8);
        assertThat(y2).endsWith("review:\n  model: \"m\"\n");
        assertThat(FactCodec.decodeFact(y2.getBytes(StandardCharsets.UTF_8), "c1").grounding().review()
                .modelAccepted()).isNull();
        Fact no = claim(new ClaimReview("m", false, null));
        assertThat(FactCodec.decodeFact(FactCodec.encode(no), "c1").grounding().review().modelAccepted()).isFalse();
    }

    @Test
    void malformedReviewsDoNotDecode() {
        String base = "id: \"c1\"\nkind: \"entity-claim\"\nbody: \"a b c\"\nsubject: \"a\"\npredicate: \"b\"\nobject: \"c\"\n";
        for (String bad : List.of("review: \"yes\"\n", "review:\n  model_accepted: true\n",
                "review:\n  model: \"m\"\n  model_accepted: \"true\"\n", "review:\n  model: \"m\"\n  extra: 1\n")) {
            assertThatThrownBy(() -> FactCodec.decodeFact((base + bad).getBytes(StandardCharsets.UTF_8), "c1"))
                    .as(bad).isInstanceOf(FormatException.class);
        }
    }

    @Test
    void groundingKeepsTheReviewWhenReceiptsArePinned() {
        ClaimReview r = new ClaimReview("m", true, null);
        Grounding g = Grounding.triple("a", "b", "c").withReview(r);
        assertThat(g.withReceipts(null, List.of()).review()).isEqualTo(r);
        assertThat(g.isEmpty()).isFalse();
        assertThat(Grounding.NONE.review()).isNull();
        assertThatThrownBy(() -> new ClaimReview(" ", true, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClaimReview("a\nb", true, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ClaimReview("m", false, " ").reason()).isNull();
        assertThat(ClaimReview.of("m", new Verdict(false, true, false, "no"))).isEqualTo(new ClaimReview("m", false, "no"));
    }

    @Test
    void theGateRefusesAReviewOnAnythingButAClaim() throws Exception {
        try (Store s = TestStores.init(tmp)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "a note").id(FactId.of("n1"))
                    .grounding(Grounding.NONE.withReview(new ClaimReview("m", true, null))));
            assertThatThrownBy(tx::commit).isInstanceOfSatisfying(RejectedException.class, e -> {
                assertThat(e.violations()).hasSize(1);
                assertThat(e.violations().get(0).rule()).isEqualTo(Rule.GROUNDING_ON_PLAIN_FACT);
                assertThat(e.violations().get(0).message()).contains("only claims carry a reviewer's verdict");
            });
        }
    }

    @Test
    void claimVerifiedWritesOnlyWhatTheReviewerAcceptsAndRecordsTheVerdict() throws Exception {
        try (Store s = TestStores.init(tmp)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "Budgets put hard ceilings on iterations.").id(FactId.of("doc")));
            tx.commit();
            ClaimSpec spec = new ClaimSpec(FactId.of("c1"), "budgets", "bound", "iterations",
                    List.of(new RefSpec(FactId.of("doc"), null, RefRole.SOURCE, "hard ceilings on iterations")), null,
                    null, null);
            ScriptedJudge no = ScriptedJudge.of("openai/gpt-4o-mini", List.of("{\"supported\": false}"), true);
            var head = s.head();
            assertThatThrownBy(() -> s.claims().claimVerified(TestStores.ALICE, spec, no))
                    .isInstanceOfSatisfying(RejectedException.class, e -> {
                        assertThat(e.violations().get(0).rule()).isEqualTo(Rule.CLAIM_NOT_VERIFIED);
                        assertThat(e.violations().get(0).message())
                                .isEqualTo("reviewer openai/gpt-4o-mini: not supported");
                    });
            assertThat(s.head()).isEqualTo(head);
            assertThat(no.received().get(0).messages().get(0).content()).contains("Claim: budgets bound iterations\n");
            ScriptedJudge yes = ScriptedJudge.of("openai/gpt-4o-mini", List.of("{\"supported\": true, \"reason\": \"r\"}"),
                    false);
            s.claims().claimVerified(TestStores.ALICE, spec, yes);
            FactRead.Found f = (FactRead.Found) s.read(FactId.of("c1"), s.head());
            assertThat(f.fact().grounding().review()).isEqualTo(new ClaimReview("openai/gpt-4o-mini", true, "r"));
            assertThat(f.fact().grounding().subject()).isEqualTo("budgets");
        }
    }
}
