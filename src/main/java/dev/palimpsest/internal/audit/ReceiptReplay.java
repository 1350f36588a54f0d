package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's receipt rules replayed on an artifact version found in history: a derived artifact
 * (merge, edge, summary) carries a receipt (per sentence, or flat and flagged), no bundle names the
 * artifact itself, and every member pin new in this version names a real version in the commit's
 * past; a member without a pin must be written by the same commit. Stateless.
 */
final class ReceiptReplay {
    private ReceiptReplay() {}

    static void check(AuditedCommit c, String path, Fact fact, Fact previous) throws IOException {
        Grounding g = fact.grounding();
        boolean derived = fact.kind().isArtifact();
        boolean hasReceipt = g != null && (g.receipt() != null || !g.sentences().isEmpty());
        if (derived && !hasReceipt) {
            c.violation(path, "receipt-missing", "a " + fact.kind() + " must carry a receipt");
            return;
        }
        if (!hasReceipt) {
            return;
        }
        Set<Pin> old = new HashSet<>();
        if (previous != null && previous.grounding() != null) {
            members(previous.grounding(), old);
        }
        Set<Pin> now = new HashSet<>();
        members(g, now);
        for (Pin p : now) {
            if (old.contains(p)) {
                continue;
            }
            if (p.id().equals(fact.id())) {
                c.violation(path, "receipt-self", "a bundle names the artifact itself");
            } else if (p.commit() == null) {
                boolean written = false;
                for (String candidate : StorePaths.candidatePaths(p.id())) {
                    Change ch = c.change(candidate);
                    written |= ch != null && ch.present();
                }
                if (!written) {
                    c.violation(path, "receipt-pin-missing", "member " + p.id()
                            + " has no pin and is not written by this commit");
                }
            } else {
                Pins.Problem problem = Pins.check(c, p.id(), ObjectId.fromString(p.commit().hex()),
                        ObjectId.fromString(p.blob().hex()));
                if (problem != null) {
                    c.violation(path, problem.rule(), "receipt member " + p.id() + ": " + problem.message());
                }
            }
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
