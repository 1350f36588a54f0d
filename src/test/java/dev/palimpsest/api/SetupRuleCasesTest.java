package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.demo.Demo;
import dev.palimpsest.internal.hooks.HookInstaller;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Policy;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import dev.palimpsest.model.Withdrawal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Negative cases of the write-time rules outside the gate's operation rules (batches, plans,
 * configuration, keys and key homes, hooks, the demo folder), keyed by rule: each call on a store
 * holding one source is rejected with exactly the listed violations (rule and subject) and the
 * store's durable state is unchanged.
 */
class SetupRuleCasesTest {
    private static final FactId SRC = FactId.of("src-1");
    private static final ActorName BOB = ActorName.of("bob");

    interface Call {
        void on(Store s, Path dir) throws Exception;
    }

    static final Map<Rule, Call> CASES = new EnumMap<>(Rule.class);
    static final Map<Rule, String> SUBJECTS = new EnumMap<>(Rule.class);

    private static void add(Rule rule, String subject, Call call) {
        CASES.put(rule, call);
        SUBJECTS.put(rule, subject);
    }

    static {
        add(Rule.EMPTY_BATCH, "batch", (s, d) -> s.receipts().ingest(ALICE, "sources: []\n".getBytes(
                StandardCharsets.UTF_8), false));
        add(Rule.INVALID_BATCH, "assertion a1", (s, d) -> s.receipts().ingest(ALICE,
                "assertions:\n  - {id: a1, source: src-1, subject: A, object: B}\n".getBytes(StandardCharsets.UTF_8),
                false));
        add(Rule.EMPTY_PLAN, "retract", (s, d) -> s.receipts().apply(ALICE, new CleanupPlan(s.head(),
                Withdrawal.RETRACT, List.of(), "nothing", Policy.TRUST, List.of(), List.of(), List.of(), List.of())));
        add(Rule.INVALID_CONFIG, "multi_valued", (s, d) -> s.claims().declareMultiValued(ALICE, List.of("--")));
        add(Rule.INVALID_EMAIL, "email", (s, d) -> new KeyHome(d.resolve("home")).generateKey(BOB, "bob at x"));
        add(Rule.INVALID_ROLE, "key bob", (s, d) -> {
            String key = new KeyHome(d.resolve("home")).generateKey(BOB);
            Transaction t = s.begin(ALICE);
            t.add(new Operation.KeyAdd(BOB, key, "robot"));
            t.commit();
        });
        add(Rule.ALREADY_INITIALISED, "store", (s, d) -> {
            Transaction t = s.begin(ALICE);
            t.add(new Operation.Init(BOB, new KeyHome(d.resolve("home")).generateKey(BOB)));
            t.commit();
        });
        add(Rule.NO_SECRET_KEY, "actor bob", (s, d) -> s.begin(BOB));
        add(Rule.SECRET_MATERIAL, "file %dir%/home/keys/alice.sec.asc", (s, d) -> s.files().put(ALICE,
                ProducedFiles.Put.of("key.asc", d.resolve("home/keys/alice.sec.asc"), SRC)));
        add(Rule.KEY_MISMATCH, "actor bob", (s, d) -> {
            String trusted = new KeyHome(d.resolve("other-home")).generateKey(BOB);
            s.begin(ALICE).addKey(BOB, trusted, dev.palimpsest.model.KeyRole.AGENT).commit();
            new KeyHome(d.resolve("home")).generateKey(BOB);
            Transaction t = s.begin(BOB);
            t.assertFact(FactSpec.of(Kind.CLAIM, "signed by the wrong key"));
            t.commit();
        });
        add(Rule.NOT_A_STORE, "store " + "%dir%/nowhere", (s, d) -> HookInstaller.install(d.resolve("nowhere"),
                HookInstaller.Launch.current(SetupRuleCasesTest.class), false));
        add(Rule.HOOK_EXISTS, "%git%/hooks/pre-receive", (s, d) -> {
            Files.createDirectories(s.gitDir().resolve("hooks"));
            Files.writeString(s.gitDir().resolve("hooks/pre-receive"), "#!/bin/sh\nexit 0\n");
            HookInstaller.install(s.gitDir(), HookInstaller.Launch.current(SetupRuleCasesTest.class), false);
        });
        add(Rule.DEMO_DIR_NOT_EMPTY, "demo folder %dir%/demo", (s, d) -> {
            Files.createDirectories(d.resolve("demo"));
            Files.writeString(d.resolve("demo/mine.txt"), "not the demo's");
            new Demo(new PrintWriter(new StringWriter())).run(d.resolve("demo"));
        });
    }

    /** The rules this class has a negative case for. */
    static Set<Rule> rules() {
        return CASES.keySet();
    }

    static List<Rule> cases() {
        return List.copyOf(CASES.keySet());
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theCallIsRejectedWithItsRuleAndNothingIsWritten(Rule rule) throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "A source document.").id(SRC));
            t.commit();
            Set<String> before = rule == Rule.KEY_MISMATCH ? null : TestStores.durableState(s.gitDir());
            RejectedException e = catchThrowableOfType(() -> CASES.get(rule).on(s, dir), RejectedException.class);
            assertThat(e).as(rule.id()).isNotNull();
            String subject = SUBJECTS.get(rule).replace("%dir%", dir.toString()).replace("%git%", s.gitDir().toString());
            assertThat(e.violations()).extracting(v -> v.rule().id() + " " + v.subject()).as(e.getMessage())
                    .containsExactly(rule.id() + " " + subject);
            if (before != null) {
                assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
            }
        }
    }

    @Test
    void everyRuleNamesAtLeastOneNegativeCase() {
        java.util.EnumSet<Rule> covered = java.util.EnumSet.noneOf(Rule.class);
        covered.addAll(rules());
        covered.addAll(dev.palimpsest.internal.write.GateRuleCasesTest.rules());
        for (Rule r : Rule.values()) {
            if (r.where() == Rule.Where.BOTH) {
                covered.add(r); // GateAuditAgreementTest asserts a gate case for each (and RuleBookAuditTest an audit one)
            }
            if (r.auditChecked()) {
                covered.add(r); // RuleBookAuditTest asserts a forged history for each
            }
        }
        for (Rule r : Rule.values()) {
            if (!covered.contains(r)) {
                assertThat(ELSEWHERE).as("rule %s has no negative case here and names no test class that has one", r.id())
                        .containsKey(r);
                assertThat(source(ELSEWHERE.get(r))).as("%s names %s", ELSEWHERE.get(r), r.id())
                        .containsAnyOf("Rule." + r.name(), r.id());
            }
        }
    }

    /** Rules whose negative cases live in other test classes (checked to name the rule). */
    private static final Map<Rule, String> ELSEWHERE = Map.ofEntries(
            Map.entry(Rule.INVALID_FACT, "api/StoreTest"),
            Map.entry(Rule.INVALID_TEXT, "api/BadTextApiTest"),
            Map.entry(Rule.STORE_EXISTS, "api/InitTest"),
            Map.entry(Rule.KEY_PERMISSIONS, "api/KeyPermissionsTest"),
            Map.entry(Rule.INVALID_ARGUMENT, "cli/CliErrorContractTest"),
            Map.entry(Rule.INVALID_UTF8, "cli/CliTextInputTest"),
            Map.entry(Rule.DAMAGED_ARGUMENT, "cli/CliLocaleTest"),
            Map.entry(Rule.FILE_UNREADABLE, "cli/CliFilesTest"),
            Map.entry(Rule.FILE_UNWRITABLE, "cli/CliErrorContractTest"),
            Map.entry(Rule.NO_STORE, "cli/CliErrorContractTest"),
            Map.entry(Rule.UNKNOWN_ACTOR, "api/KeysTest"),
            Map.entry(Rule.KEY_EXISTS, "api/KeysTest"),
            Map.entry(Rule.ALREADY_SUPERSEDED, "claims/ClaimStoriesTest"),
            Map.entry(Rule.FILE_PARENT_NOT_FILE, "files/ProducedFilesTest"),
            Map.entry(Rule.REVIEWER_IS_AUTHOR, "judge/ReviewerTest"),
            Map.entry(Rule.CLAIM_NOT_VERIFIED, "judge/ClaimReviewRecordTest"),
            Map.entry(Rule.REMOTE_REJECTED, "it/SyncDaemonTest"),
            Map.entry(Rule.READ_ONLY_TOKEN, "hub/HubServerTest"),
            Map.entry(Rule.SEALING_OFF, "forget/ForgetTest"),
            Map.entry(Rule.PLAINTEXT_CITER, "forget/SealFollowsProvenanceTest"),
            Map.entry(Rule.FORGET_PLAINTEXT, "forget/ForgetTest"),
            Map.entry(Rule.ALREADY_FORGOTTEN, "forget/ForgetTest"),
            Map.entry(Rule.FORGOTTEN, "forget/ForgetTest"));

    private static String source(String testClass) {
        try {
            return Files.readString(Path.of("src/test/java/dev/palimpsest/" + testClass + ".java"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
