package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.GroundingRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Sentence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's layer and receipt rules replayed on a fact version found in history, through the
 * gate's own {@link GroundingRules}: the triple and receipts fit the kind (an assertion's source is
 * read at its pin), no bundle names the artifact itself, a member without a pin is written by the
 * same commit, and every member pin new in this version names a real version in the commit's past.
 * Stateless.
 */
final class ReceiptReplay {
    private ReceiptReplay() {}

    static void check(AuditedCommit c, String path, Fact fact, Fact previous) throws IOException {
        RuleSink sink = (rule, msg) -> c.violation(path, rule, msg);
        try {
            if (!GroundingRules.check(fact, r -> sourceKind(c, r), sink)) {
                return;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Grounding g = fact.grounding();
        if (!GroundingRules.hasReceipts(g)) {
            return;
        }
        Set<Pin> old = new HashSet<>();
        if (previous != null) {
            members(previous.grounding(), old);
        }
        Set<Pin> now = new HashSet<>();
        members(g, now);
        for (Pin p : now) {
            if (old.contains(p)) {
                continue;
            }
            RuleSink member = (rule, msg) -> c.violation(path, rule, "receipt member " + p.id() + ": " + msg);
            if (p.commit() == null) {
                GroundingRules.member(fact.id(), p.id(), writtenHere(c, p.id()), "receipt",
                        "the parent " + (c.parent() == null ? "(none)" : c.parent().name()), member);
            } else if (GroundingRules.notSelf(fact.id(), p.id(), "receipt", member)) {
                Pins.Problem problem = Pins.check(c, p.id(), ObjectId.fromString(p.commit().hex()),
                        ObjectId.fromString(p.blob().hex()));
                if (problem != null) {
                    member.report(problem.rule(), problem.message());
                }
            }
        }
    }

    private static boolean writtenHere(AuditedCommit c, FactId id) {
        for (String candidate : StorePaths.candidatePaths(id)) {
            Change ch = c.change(candidate);
            if (ch != null && ch.present()) {
                return true;
            }
        }
        return false;
    }

    /** The kind of the version an assertion's source ref names: its pin, or the file this commit writes. */
    private static Kind sourceKind(AuditedCommit c, Ref src) {
        try {
            ObjectId blob = null;
            if (src.commit() != null) {
                blob = ObjectId.fromString(src.blob().hex());
            } else {
                for (String candidate : StorePaths.candidatePaths(src.id())) {
                    Change ch = c.change(candidate);
                    if (ch != null && ch.present()) {
                        blob = ch.newBlob();
                    }
                }
            }
            Fact f = blob == null || c.reading().typeOf(blob) < 0 ? null : c.fact(blob);
            return f == null ? null : f.kind();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void members(Grounding g, Set<Pin> out) {
        add(g.receipt(), out);
        for (Sentence s : g.sentences()) {
            add(s.receipt(), out);
        }
    }

    private static void add(Receipt r, Set<Pin> out) {
        if (r != null) {
            for (List<Pin> bundle : r.bundles()) {
                out.addAll(bundle);
            }
        }
    }
}
