package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.write.RefRules;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The reference gate replayed on a fact version found in history. Refs the previous version
 * carried must be carried over unchanged and first; every other ref is checked as the gate checks
 * a new one: no self-reference or duplicate, a pin naming a real version in the commit's past (or,
 * without a pin, a target asserted in the same commit), and a quote found in that version's body.
 * Stateless.
 */
final class RefReplay {
    private RefReplay() {}

    /** {@code previous} is the refs of the version this one revises, or null for a new assertion. */
    static void check(AuditedCommit c, String path, Fact fact, List<Ref> previous) throws IOException {
        List<Ref> refs = fact.refs();
        if (previous != null && !carried(previous, refs)) {
            c.violation(path, "refs-rewritten", "the refs of the previous version are not carried over unchanged "
                    + "(a revision keeps them, pinning same-transaction refs, and appends new ones)");
        }
        Set<String> seen = new HashSet<>();
        for (Ref r : refs) {
            boolean fresh = previous == null || !previous.contains(r);
            if (!seen.add(r.id().value() + "\u0000" + r.role()) && fresh) {
                c.violation(path, "duplicate-ref", "cites " + r.id() + " as " + r.role() + " more than once");
                continue;
            }
            if (fresh) {
                c.countRef();
                ref(c, path, fact, r);
            }
        }
    }

    /**
     * Carried refs are the previous version's, in order, unchanged, except that a same-transaction
     * ref (no pin) is carried with the pin of what it meant; such a newly pinned ref is then checked
     * like a new one.
     */
    private static boolean carried(List<Ref> previous, List<Ref> refs) {
        if (refs.size() < previous.size()) {
            return false;
        }
        for (int i = 0; i < previous.size(); i++) {
            Ref p = previous.get(i);
            Ref r = refs.get(i);
            boolean pinnedNow = p.sameTransaction() && !r.sameTransaction() && p.id().equals(r.id())
                    && p.role().equals(r.role()) && java.util.Objects.equals(p.quote(), r.quote());
            if (!p.equals(r) && !pinnedNow) {
                return false;
            }
        }
        return true;
    }

    private static void ref(AuditedCommit c, String path, Fact fact, Ref r) throws IOException {
        String subject = "ref to " + r.id() + ": ";
        if (r.id().equals(fact.id())) {
            c.violation(path, "self-reference", subject + "a fact cannot reference itself");
            return;
        }
        ObjectId versionBlob;
        if (r.commit() != null) {
            ObjectId commit = ObjectId.fromString(r.commit().hex());
            versionBlob = ObjectId.fromString(r.blob().hex());
            Pins.Problem p = Pins.check(c, r.id(), commit, versionBlob);
            if (p != null) {
                c.violation(path, p.rule(), subject + p.message());
                return;
            }
        } else {
            versionBlob = null;
            for (String candidate : StorePaths.candidatePaths(r.id())) {
                Change ch = c.change(candidate);
                if (ch != null && ch.kind() == Change.Kind.ADDED) {
                    versionBlob = ch.newBlob();
                }
            }
            if (versionBlob == null) {
                c.violation(path, "unpinned-ref", subject + "a ref without commit and blob must cite a fact asserted "
                        + "in the same commit, and " + r.id() + " is not");
                return;
            }
        }
        if (r.quote() == null) {
            return;
        }
        String q = RefRules.collapse(r.quote());
        if (q.length() < RefRules.MIN_QUOTE) {
            c.violation(path, "quote-too-short", subject + "quote '" + q + "' is shorter than " + RefRules.MIN_QUOTE
                    + " characters");
            return;
        }
        Fact target = c.fact(versionBlob);
        if (target == null || !RefRules.collapse(target.body()).contains(q)) {
            c.violation(path, "quote-not-found", subject + "quote '" + q + "' is not in the pinned version of "
                    + r.id() + " (blob " + versionBlob.name() + ")");
        }
    }
}
