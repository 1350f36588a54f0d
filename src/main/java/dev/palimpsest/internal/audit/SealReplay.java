package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.GroundingRules;
import dev.palimpsest.internal.rules.SealRules;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Sensitivity follows provenance, replayed on a fact version found in history through the gate's
 * own {@link SealRules} (rule {@code plaintext-citer}): a version written in the clear, not marked
 * {@code plaintext: true} and not a file record, whose new refs name a sealed version (the pinned
 * version's file has a {@code sealed} envelope, or the target's file this commit writes has one, or
 * the ref's quote is sealed), or which is a merge, edge or summary asserted with a receipt member
 * pinned to a sealed version. Read from git alone, as the gate decides on a write: an assertion
 * citing such a version is sealed, a revision adding such a ref is refused. A revision's new
 * receipts (cleanup, entailment, {@code revise} with receipts) are not the gate's concern and not
 * replayed. Stateless.
 */
final class SealReplay {
    private SealReplay() {}

    /** {@code previous} is the version this one revises, or null for a new assertion. */
    static void check(AuditedCommit c, String path, Fact fact, Fact previous) throws IOException {
        if (SealRules.exempt(fact)) {
            return;
        }
        Set<FactId> sealed = new TreeSet<>();
        List<Ref> before = previous == null ? List.of() : previous.refs();
        for (Ref r : fact.refs()) {
            if (carried(before, r)) {
                continue;
            }
            if (r.quoteSealed() != null || sealedTarget(c, r.id(), r.commit() == null ? null
                    : ObjectId.fromString(r.blob().hex()))) {
                sealed.add(r.id());
            }
        }
        if (previous == null && dev.palimpsest.internal.forget.Forgetting.derivedKind(fact.kind().value())) {
            for (Receipt r : GroundingRules.receipts(fact.grounding())) {
                for (List<Pin> bundle : r.bundles()) {
                    for (Pin p : bundle) {
                        // a member written in the same commit is sealed only if the gate saw it first: not replayed
                        if (p.commit() != null && sealedBlob(c, p.id(), ObjectId.fromString(p.blob().hex()))) {
                            sealed.add(p.id());
                        }
                    }
                }
            }
        }
        SealRules.plaintextCiter(fact, sealed, previous != null, (rule, msg) -> c.violation(path, rule, msg));
    }

    /** True when {@code r} was carried from the previous version (as is, or a same-transaction ref now pinned). */
    private static boolean carried(List<Ref> before, Ref r) {
        for (Ref p : before) {
            if (p.equals(r) || p.sameTransaction() && p.id().equals(r.id()) && p.role().equals(r.role())) {
                return true;
            }
        }
        return false;
    }

    /** True when the target's version is sealed: its pinned blob, or (no pin) the file this commit writes. */
    private static boolean sealedTarget(AuditedCommit c, FactId target, ObjectId blob) throws IOException {
        if (blob != null) {
            return sealedBlob(c, target, blob);
        }
        for (String candidate : StorePaths.candidatePaths(target)) {
            Change ch = c.change(candidate);
            if (ch != null && ch.present() && sealedBlob(c, target, ch.newBlob())) {
                return true;
            }
        }
        return false;
    }

    private static boolean sealedBlob(AuditedCommit c, FactId id, ObjectId blob) throws IOException {
        if (c.reading().typeOf(blob) != Constants.OBJ_BLOB) {
            return false; // a pin to nothing: the pin checks report it
        }
        return SealRules.sealed(c.reading().bytes(blob, Constants.OBJ_BLOB), id);
    }
}
