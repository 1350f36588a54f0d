package dev.palimpsest.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.judge.ScriptedJudge;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.RederiveReport.LayerAudit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The re-derivation audit on the bundled corpus (examples/receipts-corpus.yaml) with an oracle that
 * reads only the question it is sent: a claim is supported when each of its sentences is stated by a
 * listed piece of surviving evidence (a merge: when both names occur in it). It knows nothing of the plan.
 */
class CorpusAuditTest {
    private static final Pattern CLAIM = Pattern.compile("\nArtifact (\\S+) \\((\\w+)\\)(?:, sentence (\\d+))?: (.*)\n");
    private static final Pattern EVIDENCE = Pattern.compile("\n- (\\S+): (.*)");

    @TempDir
    Path tmp;

    /** The reading oracle: supported when the surviving evidence states the claim. */
    static ScriptedJudge reader(String model) {
        return ScriptedJudge.answering(model, r -> {
            String prompt = r.messages().get(0).content();
            Matcher m = CLAIM.matcher(prompt);
            if (!m.find()) {
                return "no claim";
            }
            List<String> evidence = new ArrayList<>();
            for (Matcher e = EVIDENCE.matcher(prompt); e.find(); ) {
                evidence.add(e.group(2).toLowerCase(Locale.ROOT));
            }
            String claim = m.group(4).toLowerCase(Locale.ROOT);
            boolean supported = true;
            if (claim.contains("==")) {
                for (String side : claim.split("==")) {
                    supported &= evidence.stream().anyMatch(e -> e.contains(side.trim()));
                }
            } else {
                for (String sentence : claim.split("\\.\\s*")) {
                    String s = sentence.trim();
                    supported &= s.isEmpty() || evidence.stream().anyMatch(e -> e.contains(s));
                }
            }
            return "{\"supported\": " + supported + "}";
        });
    }

    private Store corpus(String extra) throws Exception {
        Store store = TestStores.init(tmp);
        String yaml = Files.readString(Path.of("examples/receipts-corpus.yaml"), StandardCharsets.UTF_8) + extra;
        store.receipts().ingest(TestStores.ALICE, yaml.getBytes(StandardCharsets.UTF_8), false);
        store.receipts().entail(TestStores.ALICE);
        return store;
    }

    private static List<String> asked(ScriptedJudge j, String id) {
        List<String> out = new ArrayList<>();
        for (JudgeRequest r : j.received()) {
            Matcher m = CLAIM.matcher(r.messages().get(0).content());
            if (m.find() && m.group(1).equals(id)) {
                out.add(m.group(3) == null ? "whole" : "sentence " + m.group(3));
            }
        }
        return out.stream().distinct().toList();
    }

    @Test
    void aSentenceSummaryIsJudgedOnTheSentencesThePlanKeepsSoTheDroppedAim2SentenceIsNotALeak() throws Exception {
        try (Store store = corpus("")) {
            CommitId at = store.head();
            ScriptedJudge judge = reader("oracle/reader");
            RederiveReport r = store.rederivations().retractSource(List.of(FactId.of("pmid-40057077")), at, 5, 0.2,
                    AuditOracles.of(judge));
            LayerAudit summary = r.layers().get(Layer.SUMMARY);
            assertThat(summary.leakyIds()).isEmpty();
            assertThat(summary.overDeletedIds()).isEmpty();
            assertThat(summary.agree()).isEqualTo(2); // s-aim2 revised and alive, s-aim2-flat removed and dead
            assertThat(asked(judge, "s-aim2")).containsExactly("sentence 2");
            assertThat(asked(judge, "s-aim2-flat")).containsExactly("whole");
            assertThat(r.layers().get(Layer.MERGE).agree()).isEqualTo(1);
        }
    }

    @Test
    void anIncompleteReceiptsOverDeletionIsVisibleBecauseTheOracleSeesTheOtherLiveSourcesOnTheEntities()
            throws Exception {
        // s-erk's receipt cites only the retracted paper's a1, while a5 (a standing paper) states the sentence
        String extra = "  - id: s-erk\n    kind: summary\n    sentences:\n"
                + "      - {text: \"ERK1/2 signalling regulates apoptosis.\", receipt: [[a1]]}\n";
        try (Store store = corpus(extra)) {
            ScriptedJudge judge = reader("oracle/reader");
            RederiveReport r = store.rederivations().retractSource(List.of(FactId.of("pmid-39973430")), store.head(),
                    3, 0.2, AuditOracles.of(judge));
            assertThat(r.layers().get(Layer.SUMMARY).overDeletedIds()).extracting(FactId::value)
                    .containsExactly("s-erk");
        }
    }

    @Test
    void aSecondOracleDecidesTheSameQuestionsAndItsAgreementWithTheFirstIsReportedPerLayer() throws Exception {
        try (Store store = corpus("")) {
            ScriptedJudge first = reader("oracle/reader");
            ScriptedJudge yes = ScriptedJudge.answering("oracle/yes", q -> "{\"supported\": true}");
            RederiveReport r = store.rederivations().retractSource(
                    List.of(FactId.of("pmid-39973430"), FactId.of("pmid-40057077")), store.head(), 3, 0.2,
                    AuditOracles.of(first, yes));
            RederiveReport.Agreement summary = r.layers().get(Layer.SUMMARY).agreement();
            assertThat(summary.oracle()).isEqualTo("oracle/yes");
            assertThat(summary.bothDecided()).isEqualTo(2);
            // the reader finds the flat summary's AIM2 sentence unsupported; the yes-sayer does not
            assertThat(summary.disagreeIds()).extracting(FactId::value).containsExactly("s-aim2-flat");
            assertThat(summary.rate()).isEqualTo(0.5);
            assertThat(r.layers().get(Layer.EDGE).agreement()).isEqualTo(RederiveReport.Agreement.NONE);
            assertThat(yes.calls()).isEqualTo(first.calls());
        }
    }
}
