package dev.palimpsest.internal.write;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.Violation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Negative cases of the reference gate, keyed by the rule each breaks: on a store holding a source
 * {@code src-1}, a claim {@code claim-1} (confidence 0.8) and a merge {@code art-1} whose receipt
 * is {@code src-1}, each case may land setup commits and then makes one write the gate must reject
 * with exactly the listed violations, writing nothing. Positive boundary cases follow.
 */
public class GateRuleCasesTest {
    static final FactId SRC = FactId.of("src-1");
    static final FactId CLAIM = FactId.of("claim-1");
    static final FactId ART = FactId.of("art-1");
    static final FactId X = FactId.of("fact-x");
    static final String SRC_BODY = "The harbour board approved the new breakwater by seven votes to two.";
    static final String TRIPLE_SUBJECT = "ERK";

    /** Lands setup commits on the base store, then adds the bad write to {@code bad}. */
    interface Write {
        void into(Store s, Transaction bad) throws Exception;
    }

    /** A write the gate must reject with exactly {@code expected} (rule and subject of each violation). */
    record Case(String name, Rule rule, List<String> expected, Write write) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Receipt receipt(FactId... ids) {
        List<Pin> bundle = new ArrayList<>();
        for (FactId id : ids) {
            bundle.add(Pin.of(id));
        }
        return new Receipt(List.of(bundle));
    }

    static Grounding receiptOnly(Receipt r) {
        return new Grounding(null, null, null, r, List.of(), false);
    }

    static RefSpec source(FactId id) {
        return new RefSpec(id, null, RefRole.SOURCE, null);
    }

    private static final List<Case> CASES = new ArrayList<>();

    private static void add(String name, Rule rule, List<String> expected, Write w) {
        CASES.add(new Case(name, rule, expected, w));
    }

    static {
        add("empty transaction", Rule.EMPTY_TRANSACTION, List.of("empty-transaction transaction"), (s, t) -> {});
        add("one id asserted twice", Rule.DUPLICATE_OPERATION, List.of("duplicate-operation fact fact-x"), (s, t) -> {
            t.assertFact(FactSpec.of(Kind.CLAIM, "first").id(X));
            t.assertFact(FactSpec.of(Kind.CLAIM, "second").id(X));
        });
        add("one id revised twice", Rule.DUPLICATE_OPERATION, List.of("duplicate-operation fact claim-1"), (s, t) -> {
            t.revise(CLAIM, "first revision", List.of());
            t.revise(CLAIM, "second revision", List.of());
        });
        add("one id regrounded twice", Rule.DUPLICATE_OPERATION, List.of("duplicate-operation fact art-1"), (s, t) -> {
            t.reground(ART, receiptOnly(receipt(CLAIM)));
            t.reground(ART, receiptOnly(receipt(SRC)));
        });
        add("one id retracted twice", Rule.DUPLICATE_OPERATION, List.of("duplicate-operation fact claim-1"), (s, t) -> {
            t.retract(CLAIM, "wrong");
            t.retract(CLAIM, "still wrong");
        });
        add("assert of a live id", Rule.ALREADY_EXISTS, List.of("already-exists fact claim-1"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "again").id(CLAIM)));
        add("revise of a retracted fact", Rule.NOT_LIVE, List.of("not-live fact claim-1"), (s, t) -> {
            s.begin(ALICE).retract(CLAIM, "wrong").commit();
            t.revise(CLAIM, "too late", List.of());
        });
        add("reground of a retracted artifact", Rule.NOT_LIVE, List.of("not-live fact art-1"), (s, t) -> {
            s.begin(ALICE).retract(ART, "wrong").commit();
            t.reground(ART, receiptOnly(receipt(CLAIM)));
        });
        add("revise of an unknown id", Rule.NOT_FOUND, List.of("not-found fact fact-x"),
                (s, t) -> t.revise(X, "nothing there", List.of()));
        add("retract of an unknown id", Rule.NOT_FOUND, List.of("not-found fact fact-x"),
                (s, t) -> t.retract(X, "nothing there"));
        add("retract without a reason", Rule.REASON_REQUIRED, List.of("reason-required fact claim-1"),
                (s, t) -> t.retract(CLAIM, "  "));
        add("revision that changes nothing", Rule.NO_CHANGE, List.of("no-change fact claim-1"),
                (s, t) -> t.revise(CLAIM, "The vote was close.", List.of()));
        add("reground of a claim", Rule.NOT_AN_ARTIFACT, List.of("not-an-artifact fact claim-1"),
                (s, t) -> t.reground(CLAIM, receiptOnly(receipt(SRC))));
        add("ref to a missing target", Rule.REF_TARGET_MISSING, List.of("ref-target-missing ref fact-x -> ghost"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "cites a ghost").id(X)
                        .refs(RefSpec.cites(FactId.of("ghost")))));
        add("ref pinned before its target existed", Rule.REF_TARGET_MISSING,
                List.of("ref-target-missing ref fact-x -> claim-1"), (s, t) -> {
                    CommitId genesis = s.log(10).get(s.log(10).size() - 1).commit();
                    t.assertFact(FactSpec.of(Kind.CLAIM, "cites too early").id(X)
                            .refs(RefSpec.cites(CLAIM).at(genesis)));
                });
        add("pinned receipt member not carried", Rule.PIN_NOT_CARRIED, List.of("pin-not-carried receipt art-1 -> claim-1"),
                (s, t) -> {
                    var v = s.factExistsAt(CLAIM, s.head()).version();
                    t.reground(ART, receiptOnly(new Receipt(List.of(List.of(new Pin(CLAIM, v.commit(), v.blob()))))));
                });
        add("revise of a file that does not decode", Rule.CORRUPT_FILE, List.of("corrupt-file facts/44/84/claim-1.yaml"),
                (s, t) -> {
                    dev.palimpsest.internal.audit.SideCommits.corruptClaim(s.gitDir(), s.gitDir().resolveSibling("home"),
                            CLAIM, "not: [a fact\n");
                    t.revise(CLAIM, "a new body", List.of());
                });
        add("quote of a target that does not decode", Rule.CORRUPT_TARGET, List.of("corrupt-target fact claim-1"),
                (s, t) -> {
                    dev.palimpsest.internal.audit.SideCommits.corruptClaim(s.gitDir(), s.gitDir().resolveSibling("home"),
                            CLAIM, "not: [a fact\n");
                    t.assertFact(FactSpec.of(Kind.CLAIM, "quotes it").id(X).refs(RefSpec.cites(CLAIM)
                            .withQuote("The vote was close")));
                });
        add("revoke of the last key", Rule.LAST_KEY, List.of("last-key key alice"), (s, t) -> t.revokeKey(ALICE));
        add("assertion without a triple", Rule.ASSERTION_TRIPLE, List.of("assertion-triple fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "no triple").id(X).refs(List.of(source(SRC)))));
        add("assertion citing no source", Rule.ASSERTION_SOURCE, List.of("assertion-source fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "no source").id(X)
                        .grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis"))));
        add("assertion citing two sources", Rule.ASSERTION_SOURCE, List.of("assertion-source fact fact-x"), (s, t) -> {
            t.assertFact(FactSpec.of(Kind.SOURCE, "A second source document.").id(FactId.of("src-2")));
            t.assertFact(FactSpec.of(Kind.ASSERTION, "two sources").id(X).refs(List.of(source(SRC),
                    source(FactId.of("src-2")))).grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis")));
        });
        add("assertion citing a same-transaction claim as source", Rule.ASSERTION_SOURCE,
                List.of("assertion-source fact fact-x"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.CLAIM, "Not a source document.").id(FactId.of("claim-2")));
                    t.assertFact(FactSpec.of(Kind.ASSERTION, "cites a claim").id(X).refs(List.of(
                            source(FactId.of("claim-2")))).grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis")));
                });
        add("receipt on an assertion", Rule.RECEIPT_ON_ASSERTION, List.of("receipt-on-assertion fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "with a receipt").id(X).refs(List.of(source(SRC)))
                        .grounding(new Grounding(TRIPLE_SUBJECT, "regulates", "apoptosis", receipt(SRC), List.of(), false))));
        add("summary without a receipt", Rule.RECEIPT_REQUIRED, List.of("receipt-required fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.SUMMARY, "bare summary").id(X)));
        add("edge without a receipt", Rule.RECEIPT_REQUIRED, List.of("receipt-required fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.EDGE, "bare edge").id(X)
                        .grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis"))));
        add("sentences on an edge", Rule.SENTENCES_ON_NON_SUMMARY,
                List.of("receipt-required fact fact-x", "sentences-on-non-summary fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.EDGE, "an edge with sentences").id(X).grounding(new Grounding(
                        TRIPLE_SUBJECT, "regulates", "apoptosis", null, List.of(new Sentence("One.", receipt(SRC))), false))));
        add("flat receipt on an edge", Rule.SENTENCES_ON_NON_SUMMARY, List.of("sentences-on-non-summary fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.EDGE, "a flat edge").id(X).grounding(new Grounding(
                        TRIPLE_SUBJECT, "regulates", "apoptosis", receipt(SRC), List.of(), true))));
        add("edge without a triple", Rule.EDGE_TRIPLE, List.of("edge-triple fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.EDGE, "no triple").id(X).grounding(receiptOnly(receipt(SRC)))));
        add("receipt on a plain claim", Rule.GROUNDING_ON_PLAIN_FACT, List.of("grounding-on-plain-fact fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "a receipt").id(X).grounding(receiptOnly(receipt(SRC)))));
        add("receipt on an entity claim", Rule.GROUNDING_ON_PLAIN_FACT, List.of("grounding-on-plain-fact fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "a claim with a receipt").id(X).refs(List.of(
                        source(SRC))).grounding(new Grounding(TRIPLE_SUBJECT, "regulates", "apoptosis", receipt(SRC),
                        List.of(), false))));
        add("quote of 11 characters", Rule.QUOTE_TOO_SHORT, List.of("quote-too-short ref fact-x -> src-1"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "short").id(X).refs(RefSpec.cites(SRC)
                        .withQuote("seven votes"))));
        add("quote of 12 characters collapsing to 11", Rule.QUOTE_TOO_SHORT, List.of("quote-too-short ref fact-x -> src-1"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "short").id(X).refs(RefSpec.cites(SRC)
                        .withQuote("seven  votes"))));
        add("short quote of a same-transaction fact", Rule.QUOTE_TOO_SHORT, List.of("quote-too-short ref fact-x -> src-2"),
                (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.SOURCE, "A second source document.").id(FactId.of("src-2")));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "short").id(X).refs(RefSpec.cites(FactId.of("src-2"))
                            .withQuote("second")));
                });
        add("misquote of a same-transaction fact", Rule.QUOTE_NOT_FOUND, List.of("quote-not-found ref fact-x -> src-2"),
                (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.SOURCE, "A second source document.").id(FactId.of("src-2")));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "misquotes").id(X).refs(RefSpec.cites(FactId.of("src-2"))
                            .withQuote("a third source document")));
                });
        add("subsumes a same-transaction claim", Rule.SUBSUMES_NON_HYPOTHESIS,
                List.of("subsumes-non-hypothesis ref fact-x -> claim-2"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.CLAIM, "Not a hypothesis.").id(FactId.of("claim-2")));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "subsumes").id(X).refs(RefSpec.of(FactId.of("claim-2"),
                            RefRole.SUBSUMES)));
                });
        add("receipt cycle through a re-added id", Rule.RECEIPT_CYCLE, List.of("receipt-cycle fact art-1"), (s, t) -> {
            Transaction b = s.begin(ALICE);
            b.assertFact(FactSpec.of(Kind.MERGE, "rests on art-1").id(FactId.of("art-2"))
                    .grounding(receiptOnly(receipt(ART))));
            b.commit();
            s.begin(ALICE).retract(ART, "withdrawn").commit();
            t.assertFact(FactSpec.of(Kind.MERGE, "re-added on art-2").id(ART)
                    .grounding(receiptOnly(receipt(FactId.of("art-2")))));
        });
        add("self receipt in a sentence", Rule.SELF_RECEIPT, List.of("self-receipt receipt fact-x -> fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.SUMMARY, "One. Two.").id(X).grounding(new Grounding(null, null,
                        null, null, List.of(new Sentence("One.", receipt(SRC)), new Sentence("Two.", receipt(X))), false))));
        add("missing member in a regrounded receipt", Rule.RECEIPT_MEMBER_MISSING,
                List.of("receipt-member-missing receipt art-1 -> ghost"),
                (s, t) -> t.reground(ART, receiptOnly(receipt(SRC, FactId.of("ghost")))));
    }

    static final FactId Y = FactId.of("fact-y");

    static {
        add("ref to a same-transaction claim the gate rejected", Rule.CLAIM_SOURCE,
                List.of("claim-source fact fact-x", "ref-target-missing ref fact-y -> fact-x"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "ERK regulates apoptosis.").id(X)
                            .grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis")));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "cites the bad claim").id(Y).refs(RefSpec.cites(X)));
                });
        add("ref to a same-transaction assertion the gate rejected", Rule.ASSERTION_TRIPLE,
                List.of("assertion-triple fact fact-x", "ref-target-missing ref fact-y -> fact-x"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.ASSERTION, "no triple").id(X).refs(List.of(source(SRC))));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "cites the bad assertion").id(Y).refs(RefSpec.cites(X)));
                });
        add("supersede of a fact a live fact supersedes", Rule.ALREADY_SUPERSEDED,
                List.of("already-superseded ref fact-y -> claim-1"), (s, t) -> {
                    Transaction b = s.begin(ALICE);
                    b.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(X));
                    b.commit();
                    t.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was unanimous.").id(Y));
                });
        add("revision adding a supersedes ref to a superseded fact", Rule.ALREADY_SUPERSEDED,
                List.of("already-superseded ref src-1 -> claim-1"), (s, t) -> {
                    Transaction b = s.begin(ALICE);
                    b.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(X));
                    b.commit();
                    t.addRefs(SRC, List.of(RefSpec.of(CLAIM, RefRole.SUPERSEDES)));
                });
        add("two facts of one transaction supersede one fact", Rule.ALREADY_SUPERSEDED,
                List.of("already-superseded ref fact-y -> claim-1"), (s, t) -> {
                    t.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(X));
                    t.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was unanimous.").id(Y));
                });
        add("receipt on a claim naming a missing member", Rule.GROUNDING_ON_PLAIN_FACT,
                List.of("grounding-on-plain-fact fact fact-x"), (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM,
                        "a receipt").id(X).grounding(receiptOnly(receipt(FactId.of("ghost"))))));
        add("edge without a triple naming a missing member", Rule.EDGE_TRIPLE, List.of("edge-triple fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.EDGE, "no triple").id(X)
                        .grounding(receiptOnly(receipt(FactId.of("ghost"))))));
        add("flat reground of a merge naming a missing member", Rule.SENTENCES_ON_NON_SUMMARY,
                List.of("sentences-on-non-summary fact art-1"), (s, t) -> t.reground(ART, new Grounding(null, null,
                        null, receipt(FactId.of("ghost")), List.of(), true)));
        add("receipt cycle through a sentence receipt and a re-added id", Rule.RECEIPT_CYCLE,
                List.of("receipt-cycle fact art-1"), (s, t) -> {
                    Transaction b = s.begin(ALICE);
                    b.assertFact(FactSpec.of(Kind.SUMMARY, "One. Two.").id(FactId.of("sum-2")).grounding(new Grounding(
                            null, null, null, null, List.of(new Sentence("One.", receipt(SRC)),
                            new Sentence("Two.", receipt(ART))), false)));
                    b.commit();
                    s.begin(ALICE).retract(ART, "withdrawn").commit();
                    t.assertFact(FactSpec.of(Kind.MERGE, "re-added on sum-2").id(ART)
                            .grounding(receiptOnly(receipt(FactId.of("sum-2")))));
                });
        add("reground naming the artifact itself", Rule.SELF_RECEIPT, List.of("self-receipt receipt art-1 -> art-1"),
                (s, t) -> t.reground(ART, receiptOnly(receipt(SRC, ART))));
        add("assertion citing a claim as its source", Rule.ASSERTION_SOURCE, List.of("assertion-source fact fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.ASSERTION, "cites a claim").id(X).refs(List.of(source(CLAIM)))
                        .grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis"))));
        add("short quote not in a same-transaction fact", Rule.QUOTE_TOO_SHORT,
                List.of("quote-too-short ref fact-x -> src-2"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.SOURCE, "A second source document.").id(FactId.of("src-2")));
                    t.assertFact(FactSpec.of(Kind.CLAIM, "short").id(X).refs(RefSpec.cites(FactId.of("src-2"))
                            .withQuote("nowhere")));
                });
        add("subsumes a claim of the parent", Rule.SUBSUMES_NON_HYPOTHESIS,
                List.of("subsumes-non-hypothesis ref fact-x -> claim-1"), (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM,
                        "subsumes").id(X).refs(RefSpec.of(CLAIM, RefRole.SUBSUMES))));
        add("pin to a blob", Rule.PIN_UNKNOWN, List.of("pin-unknown ref fact-x -> src-1"), (s, t) -> {
            CommitId blob = CommitId.of(s.factExistsAt(SRC, s.head()).version().blob().hex());
            t.assertFact(FactSpec.of(Kind.CLAIM, "pins a blob").id(X).refs(RefSpec.cites(SRC).at(blob)));
        });
        add("receipt member read at a commit that does not exist", Rule.PIN_UNKNOWN,
                List.of("pin-unknown receipt fact-x -> src-1"), (s, t) -> t.assertFact(FactSpec.of(Kind.MERGE,
                        "read nowhere").id(X).grounding(receiptOnly(new Receipt(List.of(List.of(Pin.asOf(SRC,
                        CommitId.of("1234567890123456789012345678901234567890")))))))));
        add("receipt member read before it existed", Rule.RECEIPT_MEMBER_MISSING,
                List.of("receipt-member-missing receipt fact-x -> claim-m"), (s, t) -> {
                    CommitId before = s.head();
                    Transaction b = s.begin(ALICE);
                    b.assertFact(FactSpec.of(Kind.CLAIM, "Later.").id(FactId.of("claim-m")));
                    b.commit();
                    t.assertFact(FactSpec.of(Kind.MERGE, "too early").id(X).grounding(receiptOnly(new Receipt(List.of(
                            List.of(Pin.asOf(FactId.of("claim-m"), before)))))));
                });
        add("a fact superseding itself", Rule.SELF_SUPERSESSION,
                List.of("self-supersession ref fact-x -> fact-x", "self-reference ref fact-x -> fact-x"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.CLAIM, "supersedes itself").id(X)
                        .refs(RefSpec.of(X, RefRole.SUPERSEDES))));
        add("revision repeating a carried supersedes ref", Rule.DUPLICATE_REF,
                List.of("duplicate-ref ref fact-x -> claim-1", "no-change fact fact-x"), (s, t) -> {
                    Transaction b = s.begin(ALICE);
                    b.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(X));
                    b.commit();
                    t.addRefs(X, List.of(RefSpec.of(CLAIM, RefRole.SUPERSEDES)));
                });
        add("ref to a same-transaction fact the store cannot seal", Rule.SEALING_OFF,
                List.of("sealing-off fact fact-x", "ref-target-missing ref fact-y -> fact-x"), (s, t) -> {
                    t.assertFact(FactSpec.of(Kind.of("file"), "name: a.txt").id(X).asSensitive());
                    t.assertFact(FactSpec.of(Kind.CLAIM, "cites the refused record").id(Y).refs(RefSpec.cites(X)));
                });
        add("revision of a citing fact adding a supersedes ref to a superseded fact", Rule.ALREADY_SUPERSEDED,
                List.of("already-superseded ref fact-y -> claim-1"), (s, t) -> {
                    Transaction b = s.begin(ALICE);
                    b.supersede(CLAIM, FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(X));
                    b.assertFact(FactSpec.of(Kind.CLAIM, "Cites the source.").id(Y).refs(RefSpec.cites(SRC)));
                    b.commit();
                    t.addRefs(Y, List.of(RefSpec.of(CLAIM, RefRole.SUPERSEDES)));
                });
        add("file record under another name's id", Rule.INVALID_FILE_RECORD,
                List.of("invalid-file-record fact file-a"), (s, t) -> t.assertFact(FactSpec.of(Kind.of("file"),
                        new dev.palimpsest.internal.layout.FileMeta("a.txt", "text/plain", "ab".repeat(32), 3, null)
                                .encode()).id(FactId.of("file-a")).refs(List.of(source(SRC)))));
        add("file record whose content is not in the tree", Rule.INVALID_FILE_RECORD,
                List.of("invalid-file-record fact " + dev.palimpsest.internal.layout.FileMeta.idOf("a.txt")), (s, t) -> {
                    var meta = new dev.palimpsest.internal.layout.FileMeta("a.txt", "text/plain", "ab".repeat(32), 3, null);
                    t.assertFact(FactSpec.of(Kind.of("file"), meta.encode()).id(
                            dev.palimpsest.internal.layout.FileMeta.idOf("a.txt")).refs(List.of(source(SRC))));
                });
        add("file record that is not file metadata", Rule.INVALID_FILE_RECORD,
                List.of("invalid-file-record fact file-a", "file-source-required fact file-a"),
                (s, t) -> t.assertFact(FactSpec.of(Kind.of("file"), "not metadata").id(FactId.of("file-a"))));
    }

    static Stream<Case> cases() {
        return CASES.stream();
    }

    /** The rules this class has a negative case for. */
    public static Set<Rule> rules() {
        Set<Rule> out = new java.util.HashSet<>();
        CASES.forEach(c -> out.add(c.rule()));
        return out;
    }

    @TempDir
    Path dir;

    static Store base(Path dir) throws Exception {
        Store s = TestStores.init(dir);
        Transaction t = s.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, SRC_BODY).id(SRC));
        t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(CLAIM).confidence(0.8));
        t.assertFact(FactSpec.of(Kind.MERGE, "The board approved it.").id(ART).grounding(receiptOnly(receipt(SRC))));
        t.commit();
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theGateRejectsTheWriteWithExactlyItsViolationsAndWritesNothing(Case c) throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            c.write().into(s, t);
            Set<String> before = TestStores.durableState(s.gitDir());
            RejectedException e = catchThrowableOfType(t::commit, RejectedException.class);
            assertThat(e).as(c.name()).isNotNull();
            assertThat(e.violations()).extracting(v -> v.rule().id() + " " + v.subject()).as(e.getMessage())
                    .containsExactlyElementsOf(c.expected());
            assertThat(e.violations()).extracting(Violation::rule).contains(c.rule());
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
        }
    }

    @Test
    void notLiveAndNotFoundNameTheRetractionAndTheCommitLookedAt() throws Exception {
        try (Store s = base(dir)) {
            CommitId gone = s.begin(ALICE).retract(CLAIM, "wrong").commit().id();
            RejectedException e = catchThrowableOfType(() -> s.begin(ALICE).revise(CLAIM, "again", List.of())
                    .revise(X, "ghost", List.of()).commit(), RejectedException.class);
            assertThat(e.violations()).extracting(Violation::message).containsExactly(
                    "cannot revise: already retracted at " + gone.hex(),
                    "cannot revise: does not exist at " + gone.hex());
        }
    }

    @Test
    void aQuoteOfTwelveCharactersIsAccepted() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "twelve").id(X).refs(RefSpec.cites(SRC).withQuote("by seven vot")));
            t.assertFact(FactSpec.of(Kind.CLAIM, "thirteen collapsing to twelve").id(FactId.of("fact-y"))
                    .refs(RefSpec.cites(SRC).withQuote("by  seven vot")));
            CommitId c = t.commit().id();
            assertThat(fact(s, X, c).refs().get(0).quote()).isEqualTo("by seven vot");
        }
    }

    @Test
    void aRevisionWithoutAConfidenceKeepsThePreviousOne() throws Exception {
        try (Store s = base(dir)) {
            CommitId c = s.begin(ALICE).revise(CLAIM, "The vote was seven to two.", List.of()).commit().id();
            Fact f = fact(s, CLAIM, c);
            assertThat(f.body()).isEqualTo("The vote was seven to two.");
            assertThat(f.confidence()).isEqualTo(0.8);
        }
    }

    @Test
    void aPinNotAncestorNamesTheRealSideCommit() throws Exception {
        try (Store s = base(dir)) {
            CommitId main = s.head();
            CommitId side = dev.palimpsest.internal.audit.SideCommits.sideOf(s.gitDir(), dir.resolve("home"));
            RejectedException e = catchThrowableOfType(() -> {
                Transaction t = s.begin(ALICE);
                t.assertFact(FactSpec.of(Kind.CLAIM, "a side commit").id(X).refs(RefSpec.cites(SRC).at(side)));
                t.commit();
            }, RejectedException.class);
            assertThat(e.violations()).containsExactly(new Violation(Rule.PIN_NOT_ANCESTOR, "ref fact-x -> src-1",
                    "commit " + side.hex() + " is not an ancestor of the commit the write lands on (" + main.hex() + ")"));
        }
    }

    @Test
    void aPinToAnOlderCommitResolvesTheTargetVersionThere() throws Exception {
        try (Store s = base(dir)) {
            CommitId first = s.head();
            var v1 = s.factExistsAt(CLAIM, first).version();
            s.begin(ALICE).revise(CLAIM, "The vote was seven to two.", List.of()).commit();
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "cites the first").id(X).refs(RefSpec.cites(CLAIM).at(first)
                    .withQuote("The vote was close")));
            CommitId c = t.commit().id();
            var ref = fact(s, X, c).refs().get(0);
            assertThat(ref.commit()).isEqualTo(v1.commit());
            assertThat(ref.blob()).isEqualTo(v1.blob());
        }
    }

    @Test
    void aRegroundPinsCarriedUnpinnedMembersWhereThePreviousVersionSawThem() throws Exception {
        try (Store s = base(dir)) {
            FactId m = FactId.of("claim-m");
            FactId a = FactId.of("art-m");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "A member.").id(m));
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the member.").id(a).grounding(receiptOnly(receipt(m))));
            CommitId c1 = t.commit().id();
            var mv1 = s.factExistsAt(m, c1).version();
            s.begin(ALICE).revise(m, "A member, revised.", List.of()).commit();
            var srcV = s.factExistsAt(SRC, s.head()).version();
            CommitId c3 = s.begin(ALICE).reground(a, receiptOnly(receipt(m, SRC))).commit().id();
            List<Pin> bundle = fact(s, a, c3).grounding().receipt().bundles().get(0);
            assertThat(bundle).containsExactlyInAnyOrder(new Pin(m, mv1.commit(), mv1.blob()),
                    new Pin(SRC, srcV.commit(), srcV.blob()));
        }
    }

    @Test
    void aReceiptMemberReadAtACommitIsPinnedToItsVersionThereInAnAssertAndARevision() throws Exception {
        try (Store s = base(dir)) {
            CommitId first = s.head();
            var v1 = s.factExistsAt(CLAIM, first).version();
            s.begin(ALICE).revise(CLAIM, "The vote was seven to two.", List.of()).commit();
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the first reading.").id(X)
                    .grounding(receiptOnly(new Receipt(List.of(List.of(Pin.asOf(CLAIM, first)))))));
            CommitId c = t.commit().id();
            assertThat(fact(s, X, c).grounding().receipt().bundles().get(0))
                    .containsExactly(new Pin(CLAIM, v1.commit(), v1.blob()));
            var src = s.factExistsAt(SRC, c).version();
            CommitId c2 = s.begin(ALICE).revise(ART, new Receipt(List.of(List.of(Pin.asOf(CLAIM, first)),
                    List.of(Pin.of(SRC))))).commit().id();
            Fact art = fact(s, ART, c2);
            assertThat(art.grounding().receipt().bundles()).containsExactlyInAnyOrder(
                    List.of(new Pin(CLAIM, v1.commit(), v1.blob())), List.of(new Pin(SRC, src.commit(), src.blob())));
            assertThat(art.body()).isEqualTo(fact(s, ART, first).body());
        }
    }

    @Test
    void aRevisionWithReceiptsKeepsTheTripleAndFlagsASummarysWholeReceiptFlat() throws Exception {
        try (Store s = base(dir)) {
            FactId edge = FactId.of("edge-x");
            FactId sum = FactId.of("sum-x");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.EDGE, "ERK regulates apoptosis").id(edge).grounding(new Grounding(
                    TRIPLE_SUBJECT, "regulates", "apoptosis", receipt(SRC), List.of(), false)));
            t.assertFact(FactSpec.of(Kind.SUMMARY, "One.").id(sum).grounding(new Grounding(null, null, null, null,
                    List.of(new Sentence("One.", receipt(SRC))), false)));
            t.commit();
            CommitId c = s.begin(ALICE).revise(edge, receipt(CLAIM)).revise(sum, "One, flat.", receipt(CLAIM, SRC))
                    .commit().id();
            Fact e = fact(s, edge, c);
            assertThat(e.grounding().subject()).isEqualTo(TRIPLE_SUBJECT);
            assertThat(e.grounding().receipt().members()).containsExactly(CLAIM);
            Fact f = fact(s, sum, c);
            assertThat(f.grounding().flat()).isTrue();
            assertThat(f.grounding().sentences()).isEmpty();
            assertThat(f.body()).isEqualTo("One, flat.");
            CommitId c2 = s.begin(ALICE).revise(sum, List.of(new Sentence("Two.", receipt(SRC)),
                    new Sentence("Three.", receipt(CLAIM)))).commit().id();
            Fact g = fact(s, sum, c2);
            assertThat(g.grounding().flat()).isFalse();
            assertThat(g.grounding().receipt()).isNull();
            assertThat(g.body()).isEqualTo("Two. Three.");
        }
    }

    @Test
    void aRegroundKeepsACarriedPinnedMember() throws Exception {
        try (Store s = base(dir)) {
            FactId art = FactId.of("art-2");
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.MERGE, "Rests on the source.").id(art).grounding(receiptOnly(receipt(SRC))));
            t.commit();
            Pin carried = fact(s, art, s.head()).grounding().receipt().bundles().get(0).get(0);
            assertThat(carried.commit()).isNotNull();
            CommitId c = s.begin(ALICE).reground(art, receiptOnly(new Receipt(List.of(List.of(carried,
                    Pin.of(CLAIM)))))).commit().id();
            var cv = s.factExistsAt(CLAIM, c).version();
            assertThat(fact(s, art, c).grounding().receipt().bundles().get(0))
                    .containsExactlyInAnyOrder(carried, new Pin(CLAIM, cv.commit(), cv.blob()));
        }
    }

    @Test
    void aClaimWithATripleAndASourceLands() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "ERK regulates apoptosis.").id(X).refs(List.of(source(SRC)))
                    .grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis")));
            CommitId c = t.commit().id();
            Fact f = fact(s, X, c);
            assertThat(f.grounding().subject()).isEqualTo(TRIPLE_SUBJECT);
            assertThat(f.refs()).extracting(Ref::id).containsExactly(SRC);
        }
    }

    @Test
    void anAssertionMayCiteOtherFactsBesideItsOneSource() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.ASSERTION, "cites first").id(X).refs(List.of(RefSpec.cites(CLAIM),
                    source(SRC))).grounding(Grounding.triple(TRIPLE_SUBJECT, "regulates", "apoptosis")));
            t.assertFact(FactSpec.of(Kind.ASSERTION, "source first").id(Y).refs(List.of(source(SRC),
                    RefSpec.cites(CLAIM))).grounding(Grounding.triple(TRIPLE_SUBJECT, "inhibits", "apoptosis")));
            CommitId c = t.commit().id();
            assertThat(fact(s, X, c).refs()).extracting(Ref::id).containsExactly(CLAIM, SRC);
            assertThat(fact(s, Y, c).refs()).extracting(Ref::id).containsExactly(SRC, CLAIM);
        }
    }

    @Test
    void aSelfReceiptInALaterSentenceNamesTheSentence() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SUMMARY, "One. Two. Three.").id(X).grounding(new Grounding(null, null, null,
                    null, List.of(new Sentence("One.", receipt(SRC)), new Sentence("Two.", receipt(CLAIM)),
                    new Sentence("Three.", receipt(X))), false)));
            assertThat(catchThrowableOfType(t::commit, RejectedException.class).violations()).containsExactly(
                    new Violation(Rule.SELF_RECEIPT, "receipt fact-x -> fact-x",
                            "an artifact's sentence #3 receipt cannot name the artifact itself"));
        }
    }

    @Test
    void aRevisionPinsACarriedSameTransactionRefWhereThePreviousVersionSawIt() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The target.").id(Y));
            t.assertFact(FactSpec.of(Kind.CLAIM, "Cites the target.").id(X).refs(RefSpec.cites(Y)));
            CommitId c1 = t.commit().id();
            assertThat(fact(s, X, c1).refs().get(0).commit()).isNull();
            var y1 = s.factExistsAt(Y, c1).version();
            s.begin(ALICE).revise(Y, "The target, revised.", List.of()).commit();
            CommitId c3 = s.begin(ALICE).revise(X, "Cites the target, revised.", List.of()).commit().id();
            Ref carried = fact(s, X, c3).refs().get(0);
            assertThat(carried.id()).isEqualTo(Y);
            assertThat(carried.commit()).isEqualTo(y1.commit());
            assertThat(carried.blob()).isEqualTo(y1.blob());
        }
    }

    @Test
    void aMergeRecordsThePooledEvidenceOfItsInputsAndAPlainAssertNone() throws Exception {
        try (Store s = base(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "Duplicate one.").id(X).refs(RefSpec.cites(SRC)));
            t.assertFact(FactSpec.of(Kind.CLAIM, "Duplicate two.").id(Y).refs(RefSpec.cites(SRC)));
            t.commit();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "A second source document.").id(FactId.of("src-2")));
            t.commit();
            t = s.begin(ALICE);
            FactId m = t.merge(List.of(X, Y), FactSpec.of(Kind.CLAIM, "Merged.").id(FactId.of("merged"))
                    .refs(RefSpec.cites(FactId.of("src-2"))));
            t.assertFact(FactSpec.of(Kind.CLAIM, "Plain, citing an input.").id(FactId.of("plain")).refs(
                    RefSpec.of(X, RefRole.MERGED_FROM)));
            CommitId c = t.commit().id();
            assertThat(fact(s, m, c).pooled()).containsOnlyKeys(SRC);
            assertThat(fact(s, FactId.of("plain"), c).pooled()).isEmpty();
        }
    }

    @Test
    void aCommitIsDatedByTheClockToTheSecond() throws Exception {
        try (Store s = base(dir)) {
            java.time.Instant parent = s.log(1).get(0).time();
            java.time.Instant before = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            while (!before.isAfter(parent)) { // a second later than the parent, so the parent's time is wrong
                Thread.sleep(50);
                before = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            }
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "Dated.").id(X));
            t.commit();
            java.time.Instant after = java.time.Instant.now();
            java.time.Instant at = s.log(1).get(0).time();
            assertThat(at).isBetween(before, after);
            assertThat(at.getNano()).isZero();
        }
    }

    @Test
    void aFileRecordUnderAnotherNamesIdNamesTheRightId() throws Exception {
        try (Store s = base(dir)) {
            var meta = new dev.palimpsest.internal.layout.FileMeta("a.txt", "text/plain", "ab".repeat(32), 3, null);
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.of("file"), meta.encode()).id(FactId.of("file-a")).refs(List.of(source(SRC))));
            assertThat(catchThrowableOfType(t::commit, RejectedException.class).violations()).containsExactly(
                    new Violation(Rule.INVALID_FILE_RECORD, "fact file-a", "the record of a file named \"a.txt\" is "
                            + dev.palimpsest.internal.layout.FileMeta.idOf("a.txt") + " (use file put)"));
        }
    }

    static Fact fact(Store s, FactId id, CommitId at) throws Exception {
        return ((FactRead.Found) s.read(id, at)).fact();
    }

    /** Each case's name is unique, so a report names one case. */
    @Test
    void caseNamesAreUnique() {
        Map<String, Case> byName = new LinkedHashMap<>();
        CASES.forEach(c -> assertThat(byName.put(c.name(), c)).as(c.name()).isNull());
    }
}
