package dev.palimpsest.internal.rules;

import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Rule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds a cycle in the receipt dependencies of the artifacts one commit writes, for the gate
 * before a write and for the audit on history: from each written artifact, its receipts' members,
 * then theirs, depth first. A member naming its own artifact is not a cycle here: that is
 * {@code self-receipt} ({@link GroundingRules#notSelf}). Stateless; {@code receipts} must not return null.
 */
public final class ReceiptCycles {
    private ReceiptCycles() {}

    /**
     * Reports one {@code receipt-cycle} (through {@code sinkFor} of the artifact the cycle was found
     * from) when the receipts reachable from {@code starts} form a cycle.
     */
    public static void check(Iterable<FactId> starts, Function<FactId, List<Receipt>> receipts,
            Function<FactId, RuleSink> sinkFor) {
        Map<FactId, Integer> color = new HashMap<>();
        for (FactId start : starts) {
            List<FactId> path = new ArrayList<>();
            if (cycleFrom(start, receipts, color, path)) {
                sinkFor.apply(start).report(Rule.RECEIPT_CYCLE, "receipt dependencies form a cycle: "
                        + String.join(" -> ", path.stream().map(FactId::value).toList()));
                return;
            }
        }
    }

    private static boolean cycleFrom(FactId id, Function<FactId, List<Receipt>> receipts, Map<FactId, Integer> color,
            List<FactId> path) {
        Integer c = color.get(id);
        if (c != null) {
            if (c == 1) {
                path.add(id);
                return true;
            }
            return false;
        }
        color.put(id, 1);
        path.add(id);
        for (Receipt r : receipts.apply(id)) {
            for (FactId m : r.members()) {
                if (!m.equals(id) && cycleFrom(m, receipts, color, path)) {
                    return true;
                }
            }
        }
        path.remove(path.size() - 1);
        color.put(id, 2);
        return false;
    }
}
