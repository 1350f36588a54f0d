package dev.palimpsest.internal.audit;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.FactSpec;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gate's half of the agreement: every rule checked at both ends rejects a write that breaks
 * it with the same id that {@link RuleBookAuditTest} sees the audit report on a forged commit
 * breaking it, and nothing is written.
 */
class GateAuditAgreementTest {
    private static final FactId SRC = ForgedCases.SRC;
    private static final FactId CLAIM = ForgedCases.CLAIM;
    private static final FactId M = FactId.of("m-x");

    /** A write through the gate on a store holding {@code src-1} (a source) and {@code claim-1}. */
    private interface Write {
        void into(Transaction t, Store s, Path dir) throws Exception;
    }

    private static final Map<Rule, Write> WRITES = new EnumMap<>(Rule.class);

    /** A write by an agent key ({@code bot}, added to the store first) that breaks its rule; returns it uncommitted. */
    private interface AgentWrite {
        Transaction prepare(Store s, Path dir) throws Exception;
    }

    private static final Map<Rule, AgentWrite> AGENT_WRITES = new EnumMap<>(Rule.class);
    private static final ActorName BOT = ActorName.of("bot");

    /** Adds the agent key {@code bot} (its secret in the key home). */
    private static void addAgent(Store s, Path dir) throws Exception {
        s.begin(ALICE).addKey(BOT, new KeyHome(dir.resolve("home")).generateKey(BOT), KeyRole.AGENT).commit();
    }

    /** Writes that land setup commits first, then break their rule; returned uncommitted. */
    private static final Map<Rule, AgentWrite> PREPARED = new EnumMap<>(Rule.class);

    static {
        PREPARED.put(Rule.PLAINTEXT_CITER, (s, d) -> {
            Transaction w = s.begin(ALICE);
            w.assertFact(FactSpec.of(Kind.of("note"), "Sealed words here.").id(FactId.of("sx")).asSensitive());
            w.commit();
            return s.begin(ALICE).revise(CLAIM, "The vote was close, as the sealed note says.",
                    List.of(RefSpec.cites(FactId.of("sx"))));
        });
        AGENT_WRITES.put(Rule.AGENT_OVERRIDES_HUMAN, (s, d) -> {
            addAgent(s, d);
            return s.begin(BOT).retract(CLAIM, "an agent retracts a human's claim");
        });
        AGENT_WRITES.put(Rule.AGENTS_MAY_HUMAN_ONLY, (s, d) -> {
            addAgent(s, d);
            Transaction t = s.begin(BOT);
            dev.palimpsest.api.TestStores.add(t, dev.palimpsest.internal.write.Operation.Configure.agentsMay(
                    Set.of(dev.palimpsest.model.AgentPermission.OVERRIDE_HUMAN)));
            return t;
        });
        AGENT_WRITES.put(Rule.AGENT_RETRACTS_SNAPSHOT, (s, d) -> {
            addAgent(s, d);
            Transaction t = s.begin(BOT);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(FactId.of("bot-claim")));
            t.commit();
            t = s.begin(BOT);
            t.supersede(FactId.of("bot-claim"), FactSpec.of(Kind.CLAIM, "The vote was recounted: six to three."));
            t.commit();
            return s.begin(BOT).retract(FactId.of("bot-claim"), "overtaken by the recount");
        });
    }

    static {
        Receipt src = new Receipt(List.of(List.of(Pin.of(SRC))));
        WRITES.put(Rule.DUPLICATE_REF, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "twice").refs(RefSpec.cites(SRC), RefSpec.cites(SRC))));
        WRITES.put(Rule.SELF_REFERENCE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "itself").id(FactId.of("fact-x")).refs(List.of(RefSpec.cites(FactId.of("fact-x"))))));
        WRITES.put(Rule.PIN_UNKNOWN, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "nothing").refs(RefSpec.cites(SRC)
                .at(CommitId.of("1234567890123456789012345678901234567890")))));
        WRITES.put(Rule.PIN_NOT_ANCESTOR, (t, s, d) -> {
            var side = Forge.by(s.gitDir(), new KeyHome(d.resolve("home")), "alice").put("facts/x", "x")
                    .trailers("alice").commit(false);
            t.assertFact(FactSpec.of(Kind.CLAIM, "a side commit").refs(RefSpec.cites(SRC).at(CommitId.of(side.name()))));
        });
        WRITES.put(Rule.QUOTE_TOO_SHORT, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "short").refs(RefSpec.cites(SRC)
                .withQuote("seven votes"))));
        WRITES.put(Rule.QUOTE_NOT_FOUND, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "misquotes").refs(RefSpec.cites(SRC)
                .withQuote("approved unanimously by all"))));
        WRITES.put(Rule.SUBSUMES_NON_HYPOTHESIS, (t, s, d) -> t.subsume(SRC, FactSpec.of(Kind.CLAIM, "subsumes a source")));
        WRITES.put(Rule.ASSERTION_TRIPLE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "no triple").refs(List.of(new RefSpec(SRC, null, RefRole.of("source"), null))).grounding(Grounding.NONE)));
        WRITES.put(Rule.ASSERTION_SOURCE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "cites a claim").refs(List.of(new RefSpec(CLAIM, null, RefRole.of("source"), null))).grounding(Grounding.triple("ERK", "regulates", "apoptosis"))));
        WRITES.put(Rule.RECEIPT_ON_ASSERTION, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "with a receipt").refs(List.of(new RefSpec(SRC, null, RefRole.of("source"), null))).grounding(new Grounding("ERK", "regulates", "apoptosis", src,
                        List.of(), false))));
        WRITES.put(Rule.RECEIPT_REQUIRED, (t, s, d) -> t.assertFact(FactSpec.of(Kind.MERGE, "bare").id(M).grounding(Grounding.NONE)));
        WRITES.put(Rule.FLAT_UNFLAGGED, (t, s, d) -> t.assertFact(FactSpec.of(Kind.SUMMARY, "unflagged").id(M).grounding(new Grounding(null, null, null, src, List.of(), false))));
        WRITES.put(Rule.SENTENCES_ON_NON_SUMMARY, (t, s, d) -> t.assertFact(FactSpec.of(Kind.MERGE, "flat merge").id(M).grounding(new Grounding(null, null, null, src, List.of(), true))));
        WRITES.put(Rule.EDGE_TRIPLE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.EDGE, "no triple").id(M).grounding(new Grounding(null, null, null, src, List.of(), false))));
        WRITES.put(Rule.GROUNDING_ON_PLAIN_FACT, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "a triple").id(M).grounding(Grounding.triple("ERK", "regulates", "apoptosis"))));
        WRITES.put(Rule.SELF_RECEIPT, (t, s, d) -> t.assertFact(FactSpec.of(Kind.MERGE, "itself").id(M).grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(M)))), List.of(), false))));
        WRITES.put(Rule.RECEIPT_MEMBER_MISSING, (t, s, d) -> t.assertFact(FactSpec.of(Kind.MERGE, "a ghost").id(M).grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(FactId.of("ghost"))))), List.of(),
                        false))));
        WRITES.put(Rule.RECEIPT_CYCLE, (t, s, d) -> {
            FactId y = FactId.of("m-y");
            t.assertFact(FactSpec.of(Kind.MERGE, "rests on m-y").id(M).grounding(new Grounding(null, null, null,
                    new Receipt(List.of(List.of(Pin.of(y)))), List.of(), false)));
            t.assertFact(FactSpec.of(Kind.MERGE, "rests on m-x").id(y).grounding(new Grounding(null, null, null,
                    new Receipt(List.of(List.of(Pin.of(M)))), List.of(), false)));
        });
        WRITES.put(Rule.TOO_LARGE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "x".repeat(dev.palimpsest.model.Limits.MAX_BODY + 1))));
        WRITES.put(Rule.INVALID_KEY, (t, s, d) -> t.addKey(ActorName.of("dave"), "not a key", KeyRole.AGENT));
        WRITES.put(Rule.CLAIM_TRIPLE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "no triple").refs(List.of(
                new RefSpec(SRC, null, RefRole.SOURCE, null))).grounding(Grounding.triple("ERK", "--", "apoptosis"))));
        WRITES.put(Rule.CLAIM_SOURCE, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "no source")
                .grounding(Grounding.triple("ERK", "regulates", "apoptosis"))));
        WRITES.put(Rule.SELF_SUPERSESSION, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "supersedes itself")
                .id(FactId.of("fact-x")).refs(List.of(new RefSpec(FactId.of("fact-x"), null, RefRole.SUPERSEDES, null)))));
        WRITES.put(Rule.ALREADY_SUPERSEDED, (t, s, d) -> {
            t.assertFact(FactSpec.of(Kind.CLAIM, "first correction").id(FactId.of("fix-a"))
                    .refs(List.of(new RefSpec(CLAIM, null, RefRole.SUPERSEDES, null))));
            t.assertFact(FactSpec.of(Kind.CLAIM, "second correction").id(FactId.of("fix-b"))
                    .refs(List.of(new RefSpec(CLAIM, null, RefRole.SUPERSEDES, null))));
        });
        WRITES.put(Rule.VALID_TIME_MALFORMED, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "The breakwater opened.")
                .validFrom(java.time.Instant.parse("2021-03-01T00:00:00.5Z"))));
        WRITES.put(Rule.VALID_TIME_INVERTED, (t, s, d) -> t.assertFact(FactSpec.of(Kind.CLAIM, "The breakwater opened.")
                .validFrom(java.time.Instant.parse("2021-03-01T00:00:00Z"))
                .validUntil(java.time.Instant.parse("2021-03-01T00:00:00Z"))));
        WRITES.put(Rule.INVALID_SUCCESSION, (t, s, d) -> t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "The board approved it.")
                .refs(List.of(new RefSpec(SRC, null, RefRole.SOURCE, null), new RefSpec(CLAIM, null, RefRole.INVALIDATES, null)))
                .grounding(Grounding.triple("harbour board", "approved", "breakwater"))
                .validFrom(java.time.Instant.parse("2021-03-01T00:00:00Z"))));
        WRITES.put(Rule.FILE_SOURCE_REQUIRED, (t, s, d) -> t.assertFact(FactSpec.of(Kind.of(FileMeta.KIND),
                new FileMeta("report.txt", "text/plain", "0".repeat(64), 3, null).encode())
                .id(FileMeta.idOf("report.txt"))));
        WRITES.put(Rule.INVALID_FILE_RECORD, (t, s, d) -> t.assertFact(FactSpec.of(Kind.of(FileMeta.KIND), "not metadata")
                .id(FileMeta.idOf("report.txt")).refs(List.of(new RefSpec(SRC, null, RefRole.SOURCE, null)))));
        WRITES.put(Rule.KEY_IN_USE, (t, s, d) -> t.addKey(ActorName.of("dave"), OpenPgpKeys.armor(
                OpenPgpKeys.publicRing(new SecretKeyFiles(d.resolve("home")).load(ALICE))), KeyRole.AGENT));
    }

    @TempDir
    Path dir;

    static Stream<Rule> sharedRules() {
        return Arrays.stream(Rule.values()).filter(r -> r.where() == Rule.Where.BOTH);
    }

    @Test
    void everyRuleCheckedAtBothEndsHasAGateCase() {
        Set<Rule> shared = sharedRules().collect(Collectors.toSet());
        Set<Rule> cased = new java.util.HashSet<>(WRITES.keySet());
        cased.addAll(AGENT_WRITES.keySet());
        cased.addAll(PREPARED.keySet());
        assertThat(cased).containsExactlyInAnyOrderElementsOf(shared);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedRules")
    void theGateRejectsAWriteThatBreaksASharedRuleWithThatRulesId(Rule rule) throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, ForgedCases.SRC_BODY).id(SRC));
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(CLAIM));
            t.commit();
            Transaction bad;
            CommitId before;
            if (AGENT_WRITES.containsKey(rule) || PREPARED.containsKey(rule)) {
                bad = (AGENT_WRITES.containsKey(rule) ? AGENT_WRITES : PREPARED).get(rule).prepare(s, dir);
                before = s.head();
            } else {
                before = s.head();
                bad = s.begin(ALICE);
                WRITES.get(rule).into(bad, s, dir);
            }
            RejectedException e = catchThrowableOfType(bad::commit, RejectedException.class);
            assertThat(e).as("the gate rejects a write breaking " + rule).isNotNull();
            assertThat(e.violations()).extracting(v -> v.rule()).as(e.getMessage()).contains(rule);
            assertThat(s.head()).isEqualTo(before);
        }
    }
}
