package dev.palimpsest.internal.rules;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The layer rules of a fact version, run by the reference gate on a write and by the audit on
 * every fact version in history: an assertion states a triple, cites exactly one source document
 * (ref role {@code source}) and carries no receipt; a merge, edge or summary carries a receipt (a
 * summary: per sentence, or one receipt flagged flat), only summaries have sentences or flat
 * receipts, an edge states a triple; other kinds carry neither triple nor receipt. A receipt member
 * is never the artifact itself and exists before the commit or is written by it. Stateless;
 * arguments must not be null.
 */
public final class GroundingRules {

    private GroundingRules() {}

    /**
     * Checks {@code f}'s triple and receipts against its kind; {@code sourceKind} gives the kind of
     * an assertion's source ref's target (null when unknown: not checked). True when no rule broke.
     */
    public static boolean check(Fact f, Function<Ref, Kind> sourceKind, RuleSink sink) {
        Grounding g = f.grounding();
        Kind k = f.kind();
        boolean ok = true;
        if (g.review() != null && !Kind.ENTITY_CLAIM.equals(k)) {
            sink.report(Rule.GROUNDING_ON_PLAIN_FACT, "only claims carry a reviewer's verdict (review)");
            ok = false;
            g = g.withReview(null);
        }
        if (Kind.ASSERTION.equals(k)) {
            if (!g.hasTriple()) {
                sink.report(Rule.ASSERTION_TRIPLE, "an assertion states one triple: subject, predicate, object");
                ok = false;
            }
            long sources = f.refs().stream().filter(r -> RefRole.SOURCE.equals(r.role())).count();
            if (sources != 1) {
                sink.report(Rule.ASSERTION_SOURCE, "an assertion cites exactly one source document (ref role "
                        + "'source'), found " + sources);
                ok = false;
            } else {
                Ref src = f.refs().stream().filter(r -> RefRole.SOURCE.equals(r.role())).findFirst().orElseThrow();
                Kind kind = sourceKind.apply(src);
                if (kind != null && !Kind.SOURCE.equals(kind)) {
                    sink.report(Rule.ASSERTION_SOURCE, src.id() + " is a " + kind + ", not a source");
                    ok = false;
                }
            }
            if (hasReceipts(g)) {
                sink.report(Rule.RECEIPT_ON_ASSERTION, "assertions are evidence; they carry no receipt");
                ok = false;
            }
        } else if (k.isArtifact()) {
            ok = artifact(k, g, sink);
        } else if (Kind.ENTITY_CLAIM.equals(k)) {
            // a claim states a triple (the gate requires it); like an assertion, it is evidence: no receipt
            if (hasReceipts(g) || g.flat()) {
                sink.report(Rule.GROUNDING_ON_PLAIN_FACT, "a claim states a triple and carries no receipt");
                ok = false;
            }
        } else if (!g.isEmpty()) {
            sink.report(Rule.GROUNDING_ON_PLAIN_FACT, "only assertions, claims, merges, edges and summaries carry "
                    + "triples and receipts");
            ok = false;
        }
        return ok;
    }

    private static boolean artifact(Kind k, Grounding g, RuleSink sink) {
        boolean ok = true;
        if (Kind.SUMMARY.equals(k)) {
            if (g.sentences().isEmpty() && g.receipt() == null) {
                sink.report(Rule.RECEIPT_REQUIRED, "a summary needs sentence receipts or a flat receipt");
                ok = false;
            } else if (g.receipt() != null && !g.flat()) {
                sink.report(Rule.FLAT_UNFLAGGED, "a whole-summary receipt must be flagged flat: true");
                ok = false;
            }
        } else {
            if (g.receipt() == null) {
                sink.report(Rule.RECEIPT_REQUIRED, "a " + k + " needs a receipt");
                ok = false;
            }
            if (!g.sentences().isEmpty() || g.flat()) {
                sink.report(Rule.SENTENCES_ON_NON_SUMMARY, "only summaries have sentences or flat receipts");
                ok = false;
            }
        }
        if (Kind.EDGE.equals(k) && !g.hasTriple()) {
            sink.report(Rule.EDGE_TRIPLE, "an edge states one triple: subject, predicate, object");
            ok = false;
        }
        return ok;
    }

    /** The receipts {@code g} carries: the whole-fact receipt, then each sentence's, in order. */
    public static List<Receipt> receipts(Grounding g) {
        List<Receipt> rs = new ArrayList<>();
        if (g.receipt() != null) {
            rs.add(g.receipt());
        }
        g.sentences().forEach(s -> rs.add(s.receipt()));
        return rs;
    }

    /** True when {@code g} carries a whole-fact receipt or sentence receipts. */
    public static boolean hasReceipts(Grounding g) {
        return g.receipt() != null || !g.sentences().isEmpty();
    }

    /**
     * Checks one receipt member of artifact {@code self} named without a pin: it is not the artifact
     * itself, and it is {@code available} (exists before the commit, or is written by it). {@code
     * what} names the receipt ("receipt", "sentence #2 receipt"); {@code where} the commit it must
     * exist at. True when no rule broke.
     */
    public static boolean member(FactId self, FactId member, boolean available, String what, String where,
            RuleSink sink) {
        if (!notSelf(self, member, what, sink)) {
            return false;
        }
        if (!available) {
            sink.report(Rule.RECEIPT_MEMBER_MISSING, member + " does not exist at " + where
                    + " and is not written in this transaction");
            return false;
        }
        return true;
    }

    /** False (reported) when a member of {@code self}'s receipt {@code what} is {@code self}. */
    public static boolean notSelf(FactId self, FactId member, String what, RuleSink sink) {
        if (member.equals(self)) {
            sink.report(Rule.SELF_RECEIPT, "an artifact's " + what + " cannot name the artifact itself");
            return false;
        }
        return true;
    }
}
