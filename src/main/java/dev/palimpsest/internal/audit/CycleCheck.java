package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.GroundingRules;
import dev.palimpsest.internal.rules.ReceiptCycles;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Receipt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate's receipt-cycle rule replayed on a commit, through the gate's own {@link ReceiptCycles}:
 * the receipts of the artifacts the commit writes, followed through members the same commit
 * writes (and, when it re-adds an artifact, through the receipts already in the tree), form no
 * cycle. Stateless.
 */
final class CycleCheck implements AuditCheck {
    @Override
    public void check(AuditedCommit c) throws IOException {
        Map<FactId, Fact> written = new LinkedHashMap<>();
        Map<FactId, String> paths = new LinkedHashMap<>();
        boolean readd = false;
        for (Change ch : c.changes()) {
            if (!ch.present() || !ch.path().startsWith(StorePaths.ARTIFACTS + "/")) {
                continue;
            }
            Fact f = c.fact(ch.newBlob());
            if (f == null || receipts(f).isEmpty()) {
                continue;
            }
            written.put(f.id(), f);
            paths.put(f.id(), ch.path());
            readd |= ch.kind() == Change.Kind.ADDED && c.parentBlobAt(StorePaths.retractionPath(f.id())) != null;
        }
        if (written.isEmpty()) {
            return;
        }
        boolean followTree = readd;
        try {
            ReceiptCycles.check(written.keySet(), id -> {
                Fact f = written.get(id);
                return f != null ? receipts(f) : followTree ? inTree(c, id) : List.of();
            }, start -> (rule, msg) -> c.violation(paths.get(start), rule, msg));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static List<Receipt> inTree(AuditedCommit c, FactId id) {
        try {
            for (String p : StorePaths.candidatePaths(id)) {
                var blob = c.blobAt(p);
                Fact f = blob == null ? null : c.fact(blob);
                if (f != null) {
                    return receipts(f);
                }
            }
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Receipt> receipts(Fact f) {
        return GroundingRules.receipts(f.grounding());
    }
}
