package dev.palimpsest.internal.audit;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.RefRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The reference gate replayed on a fact version found in history. Refs the previous version
 * carried must be carried over unchanged and first; every other ref is checked by the gate's own
 * {@link RefRules} (no duplicate or self-reference, a subsumed hypothesis, a quote found in the
 * pinned version's body), after its pin is checked: a real version in the commit's past (or,
 * without a pin, a target asserted in the same commit).
 * Stateless.
 */
final class RefReplay {
    private RefReplay() {}

    /** {@code previous} is the refs of the version this one revises, or null for a new assertion. */
    static void check(AuditedCommit c, String path, Fact fact, List<Ref> previous) throws IOException {
        List<Ref> refs = fact.refs();
        if (previous != null && !carried(previous, refs)) {
            c.violation(path, Rule.REFS_REWRITTEN, "the refs of the previous version are not carried over unchanged "
                    + "(a revision keeps them, pinning same-transaction refs, and appends new ones)");
        }
        Set<String> seen = new HashSet<>();
        for (Ref r : refs) {
            boolean fresh = previous == null || !previous.contains(r);
            if (!fresh) {
                seen.add(RefRules.key(r.id(), r.role()));
                continue;
            }
            String subject = "ref to " + r.id() + ": ";
            RuleSink sink = (rule, msg) -> c.violation(path, rule, subject + msg);
            if (RefRules.identity(fact.id(), r.id(), r.role(), seen, sink)) {
                c.countRef();
                ref(c, path, fact, r, sink);
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

    private static void ref(AuditedCommit c, String path, Fact fact, Ref r, RuleSink sink) throws IOException {
        ObjectId versionBlob;
        if (r.commit() != null) {
            ObjectId commit = ObjectId.fromString(r.commit().hex());
            versionBlob = ObjectId.fromString(r.blob().hex());
            Pins.Problem p = Pins.check(c, r.id(), commit, versionBlob);
            if (p != null) {
                sink.report(p.rule(), p.message());
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
                sink.report(Rule.UNPINNED_REF, "a ref without commit and blob must cite a fact asserted "
                        + "in the same commit, and " + r.id() + " is not");
                return;
            }
        }
        if (dev.palimpsest.internal.rules.SuccessionRules.isSuccession(r.role())) {
            dev.palimpsest.internal.rules.SuccessionRules.check(fact, r, c.fact(versionBlob), sink);
        }
        if (!RefRole.SUBSUMES.equals(r.role()) && r.quote() == null) {
            return;
        }
        if (!RefRules.quoteLength(r.quote(), sink)) {
            return;
        }
        Fact target = c.fact(versionBlob);
        if (RefRules.subsumes(r.role(), r.id(), target == null ? null : target.kind(), sink)) {
            RefRules.quote(r.quote(), r.id(), target == null ? null : target.body(), sink);
        }
    }
}
