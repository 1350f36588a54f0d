package dev.palimpsest.cli;

import dev.palimpsest.api.Judges;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Verification;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.LabelledClaim;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.AuditOracles;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.TrustPolicy;
import dev.palimpsest.model.Verdict;
import dev.palimpsest.model.VerifierStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Checks that ask a model: verify, verify-eval, rederive-audit. */
final class JudgeCommands {
    private JudgeCommands() {}

    /** The judge options: URL and model (or their environment variables); the key only from the environment. */
    static final class JudgeOptions {
        @Option(names = "--judge-url", paramLabel = "URL",
                description = "Base URL of an OpenAI-compatible chat-completions API, e.g. https://api.openai.com/v1"
                        + " (default: $PALIMPSEST_JUDGE_URL). The key is read from $PALIMPSEST_JUDGE_KEY.")
        String url;

        @Option(names = "--judge-model", paramLabel = "M",
                description = "The judge's model id, e.g. openai/gpt-4o-mini (default: $PALIMPSEST_JUDGE_MODEL).")
        String model;

        @Option(names = "--judge-timeout", paramLabel = "SECONDS", defaultValue = "60",
                description = "Timeout of one judge call in seconds (default: ${DEFAULT-VALUE}).")
        int timeout;

        @Option(names = "--judge-retries", paramLabel = "N", defaultValue = "2",
                description = "Retries of a call that timed out or got 429/5xx (default: ${DEFAULT-VALUE}).")
        int retries;

        @Option(names = "--no-judge-cache",
                description = "Ask the judge again even for a request it answered before (default: answered requests"
                        + " are served from <gitdir>/palimpsest-index/judge-cache.jsonl).")
        boolean noCache;

        /** The configured judge, cached beside the store; null when neither option nor environment names one. */
        Judge judge(Store store) {
            String u = url != null ? url : env("PALIMPSEST_JUDGE_URL");
            String m = model != null ? model : env("PALIMPSEST_JUDGE_MODEL");
            if (u == null && m == null) {
                return null;
            }
            if (u == null || m == null) {
                throw new Main.UsageException("a judge needs both --judge-url and --judge-model (or PALIMPSEST_JUDGE_URL"
                        + " and PALIMPSEST_JUDGE_MODEL)");
            }
            if (timeout < 1 || retries < 0) {
                throw new Main.UsageException("--judge-timeout must be at least 1 and --judge-retries not negative");
            }
            Judge j;
            try {
                j = openAi(u, m, env("PALIMPSEST_JUDGE_KEY"));
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException(e.getMessage());
            }
            return noCache ? j : Judges.cached(j, store);
        }

        /**
         * The second oracle of an audit from {@code --judge2-url}/{@code --judge2-model} (or
         * PALIMPSEST_JUDGE2_URL/_MODEL), with this judge's timeout, retries and cache; its key is
         * PALIMPSEST_JUDGE2_KEY, or PALIMPSEST_JUDGE_KEY when both judges share one URL. Null when none is named.
         */
        Judge second(Store store, String url2, String model2) {
            String u = url2 != null ? url2 : env("PALIMPSEST_JUDGE2_URL");
            String m = model2 != null ? model2 : env("PALIMPSEST_JUDGE2_MODEL");
            if (u == null && m == null) {
                return null;
            }
            if (u == null || m == null) {
                throw new Main.UsageException("a second oracle needs both --judge2-url and --judge2-model (or"
                        + " PALIMPSEST_JUDGE2_URL and PALIMPSEST_JUDGE2_MODEL)");
            }
            String first = url != null ? url : env("PALIMPSEST_JUDGE_URL");
            String key = env("PALIMPSEST_JUDGE2_KEY");
            if (key == null && u.equals(first)) {
                key = env("PALIMPSEST_JUDGE_KEY");
            }
            Judge j;
            try {
                j = openAi(u, m, key);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException(e.getMessage());
            }
            return noCache ? j : Judges.cached(j, store);
        }

        Judge required(Store store) {
            Judge j = judge(store);
            if (j == null) {
                throw new Main.UsageException("no judge: pass --judge-url and --judge-model or set PALIMPSEST_JUDGE_URL"
                        + " and PALIMPSEST_JUDGE_MODEL");
            }
            return j;
        }

        /** The judge at {@code u} for {@code m} with this judge's timeout and retries; {@code key} null: none sent. */
        private Judge openAi(String u, String m, String key) {
            Judges.OpenAi b = Judges.openAi(u, m).timeout(Duration.ofSeconds(timeout)).retries(retries);
            return (key == null ? b : b.key(key)).build();
        }

        private static String env(String name) {
            String v = System.getenv(name);
            return v == null || v.isBlank() ? null : v;
        }
    }

    static Map<String, Object> verdict(Verdict v) {
        return dev.palimpsest.wire.JudgeWire.verdict(v);
    }

    @Command(name = "verify", description = "Check a claim against its source, failing closed: the quote must be in the"
            + " source (12+ characters, whitespace collapsed) before the reviewer is asked; then only a JSON true for"
            + " 'supported' accepts. Exit 0 with the verdict; 5 when the reviewer is the author's model; 8 when the"
            + " judge is unreachable or its reply is no verdict (judge-degraded).")
    static final class Verify extends Context implements Callable<Integer> {
        @Option(names = "--source", required = true, paramLabel = "ID", description = "The fact the quote is from.")
        String source;

        @Option(names = "--quote", required = true, paramLabel = "TEXT", description = "The verbatim quote cited.")
        String quote;

        @Option(names = "--claim", required = true, paramLabel = "TEXT", description = "The claim the quote should support.")
        String claim;

        @Option(names = "--author-model", paramLabel = "M",
                description = "The model that wrote the claim: the same model as judge is refused, the same vendor warned.")
        String authorModel;

        @Mixin
        Shared.At at;

        @Mixin
        JudgeOptions judge;

        @Override
        public Integer call() throws Exception {
            String q = TextInput.arg("--quote", quote);
            String c = TextInput.arg("--claim", claim);
            var src = Parse.fact("--source", source);
            try (Store store = open()) {
                Judge j = judge.required(store);
                Optional<String> warning = authorModel == null ? Optional.empty()
                        : Verification.checkPair(TextInput.arg("--author-model", authorModel), j.model());
                CommitId when = at(store, at);
                Verdict v = store.verification().verify(j, src, when, q, c);
                if (v.judgeDegraded()) {
                    throw new dev.palimpsest.model.JudgeDegradedException("the reviewer " + j.model()
                            + " answered no verdict (" + v.reason() + "): the claim is not accepted");
                }
                Map<String, Object> m = verdict(v);
                warning.ifPresent(w -> m.put("warning", w));
                if (json()) {
                    printJson(m);
                } else {
                    warning.ifPresent(w -> spec.commandLine().getErr().println("warning: " + w));
                    out().println((v.accepted() ? "accepted" : "rejected") + " (anchor " + (v.anchorOk() ? "ok" : "failed")
                            + ", reviewer " + (v.modelAccepted() == null ? "not asked" : v.modelAccepted() ? "accepted"
                            : "rejected") + ")" + (v.reason() == null ? "" : ": " + Render.safe(v.reason())));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "verify-eval", description = "Score the judge as a verifier against labelled claims: four counters"
            + " (true/false accepts/rejects), never one accuracy.")
    static final class VerifyEval extends Context implements Callable<Integer> {
        @Option(names = "--labels", required = true, paramLabel = "FILE",
                description = "YAML or JSON list of {claim, quote, source (fact id) or source_text, supported (boolean)}.")
        Path labels;

        @Mixin
        JudgeOptions judge;

        @Override
        public Integer call() throws Exception {
            List<LabelledClaim> ls = Verification.parseLabels(TextInput.bytes("--labels", labels, 64L << 20, home()));
            try (Store store = open()) {
                VerifierStats s = store.verification().evaluate(judge.required(store), ls);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("true_accepts", s.trueAccepts());
                m.put("true_rejects", s.trueRejects());
                m.put("false_accepts", s.falseAccepts());
                m.put("false_rejects", s.falseRejects());
                if (json()) {
                    printJson(m);
                } else {
                    m.forEach((k, v) -> out().println(k + " " + v));
                }
            }
            return Main.OK;
        }
    }

    /** Exactly one withdrawal to audit. */
    static final class Operation {
        @Option(names = "--retract-source", arity = "1..*", paramLabel = "DOC",
                description = "Audit retracting these source documents (and their assertions).")
        List<String> docs;

        @Option(names = "--revoke-relation", paramLabel = "P", description = "Audit revoking this predicate.")
        String predicate;
    }

    @Command(name = "rederive-audit", description = "Dry-run a cleanup and check its receipts by re-derivation: each"
            + " artifact live at the commit (touched by the plan or not) is put to an oracle R independent times (entailed"
            + " edges: entailment recomputed; merges, summaries: the judge, shown the surviving corpus on the artifact's"
            + " entities; sentence summaries per kept sentence) and the plan is compared per layer: leaky, over-deleted,"
            + " agree; with a second oracle, their agreement. Writes nothing unless --apply-verdict.")
    static final class RederiveAudit extends Context implements Callable<Integer> {
        @ArgGroup(exclusive = true, multiplicity = "1")
        Operation op;

        @Mixin
        Shared.At at;

        @Option(names = "--draws", paramLabel = "R", defaultValue = "5",
                description = "Oracle draws per artifact (default: ${DEFAULT-VALUE}).")
        int draws;

        @Option(names = "--tau", paramLabel = "T", defaultValue = "0.2",
                description = "Alive when at least 1-T of the draws say alive, dead when at least 1-T say dead,"
                        + " undecided otherwise; in [0, 0.5) (default: ${DEFAULT-VALUE}).")
        double tau;

        @Option(names = "--temperature", paramLabel = "T", defaultValue = "1.0",
                description = "Sampling temperature of every draw, sent with the draw's index so that draws are"
                        + " independent; in [0, 2] (default: ${DEFAULT-VALUE}).")
        double temperature;

        @Mixin
        JudgeOptions judge;

        @Option(names = "--judge2-url", paramLabel = "URL",
                description = "Base URL of a second oracle (default: $PALIMPSEST_JUDGE2_URL); its key is"
                        + " $PALIMPSEST_JUDGE2_KEY, or $PALIMPSEST_JUDGE_KEY when both share one URL.")
        String judge2Url;

        @Option(names = "--judge2-model", paramLabel = "M",
                description = "Model of a second oracle, asked the same questions; the report gives its agreement"
                        + " with the first per layer (default: $PALIMPSEST_JUDGE2_MODEL).")
        String judge2Model;

        @Option(names = "--apply-verdict", description = "Update the store's per-layer trust from the audit (one commit):"
                + " a judged layer whose leaky share exceeds --max-leaky is distrusted, any other judged layer and"
                + " the symbolic edge layer trusted.")
        boolean applyVerdict;

        @Option(names = "--max-leaky", paramLabel = "S", defaultValue = "0.2",
                description = "The leaky share above which --apply-verdict distrusts a layer (default: ${DEFAULT-VALUE}).")
        double maxLeaky;

        @Option(names = "--actor", paramLabel = "NAME", description = "Who commits --apply-verdict's trust change.")
        String actor;

        @Option(names = "--grade-labels", description = "Audit the plan that trusts every receipt as written (what"
                + " --apply-verdict needs) instead of the plan under the store's trust policy.")
        boolean gradeLabels;

        @Override
        public Integer call() throws Exception {
            if (applyVerdict && actor == null) {
                throw new Main.UsageException("--apply-verdict needs --actor");
            }
            try (Store store = open()) {
                CommitId when = at(store, at);
                Judge j = judge.judge(store);
                Judge j2 = judge.second(store, judge2Url, judge2Model);
                if (j2 != null && j == null) {
                    throw new Main.UsageException("a second oracle needs a first: pass --judge-url and --judge-model");
                }
                if (!(temperature >= 0.0 && temperature <= 2.0)) {
                    throw new Main.UsageException("--temperature must be in [0, 2], got " + temperature);
                }
                List<Judge> judges = new ArrayList<>();
                if (j != null) {
                    judges.add(j);
                }
                if (j2 != null) {
                    judges.add(j2);
                }
                AuditOracles oracles = new AuditOracles(judges, temperature);
                TrustPolicy under = gradeLabels || applyVerdict ? TrustPolicy.TRUST_ALL : store.receipts().trust(when);
                RederiveReport r = op.predicate != null
                        ? store.rederivations().revokeRelation(TextInput.arg("--revoke-relation", op.predicate), when,
                                draws, tau, oracles, under)
                        : store.rederivations().retractSource(Parse.facts("--retract-source", op.docs), when, draws,
                                tau, oracles, under);
                TrustPolicy applied = null;
                if (applyVerdict) {
                    applied = store.receipts().applyVerdict(Parse.actor("--actor", actor), r, maxLeaky).policy();
                }
                if (json()) {
                    Map<String, Object> m = report(r);
                    if (applied != null) {
                        m.put("policy", PolicyCommand.view(applied));
                    }
                    printJson(m);
                } else {
                    out().println(r.operation() + " " + String.join(" ", r.targets()) + " at " + r.at().hex() + " ("
                            + r.draws() + " draws, tau " + r.tau() + ")");
                    for (Layer l : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
                        RederiveReport.LayerAudit a = r.layers().get(l);
                        out().printf("  %-8s oracle %-14s graded %d: leaky %d, over-deleted %d, agree %d, undecided %d,"
                                + " ungraded %d%n", l, a.oracle(), a.graded(), a.leaky(), a.overDeleted(), a.agree(),
                                a.undecided(), a.ungraded());
                        if (!a.agreement().oracle().equals("none")) {
                            out().printf("  %-8s second oracle %s agrees on %d of %d decided by both%s%n", "",
                                    a.agreement().oracle(), a.agreement().agree(), a.agreement().bothDecided(),
                                    a.agreement().disagreeIds().isEmpty() ? ""
                                            : " (disagree: " + String.join(", ", ids(a.agreement().disagreeIds())) + ")");
                        }
                    }
                    if (applied != null) {
                        out().println("trust now: " + PolicyCommand.line(applied));
                    }
                }
            }
            return Main.OK;
        }

        static Map<String, Object> report(RederiveReport r) {
            return dev.palimpsest.wire.JudgeWire.rederive(r);
        }

        private static List<String> ids(List<dev.palimpsest.model.FactId> ids) {
            List<String> out = new ArrayList<>();
            ids.forEach(i -> out.add(i.value()));
            return out;
        }
    }
}
