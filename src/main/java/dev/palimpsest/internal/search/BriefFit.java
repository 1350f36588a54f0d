package dev.palimpsest.internal.search;

import dev.palimpsest.model.Brief;
import dev.palimpsest.model.Brief.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Fits sections of entry lines to a token budget: whole entries are dropped from the tail (the
 * lowest-priority section's last entry first), never part of a line; a section left without
 * entries loses its header too; the omission line ("(+N lines omitted to fit a B-token budget)")
 * is always kept, even when it alone exceeds the budget. N counts dropped entry lines. Stateless;
 * thread-safe.
 */
public final class BriefFit {
    private BriefFit() {}

    /** The brief of {@code sections} within {@code budget} tokens of {@code counter} (0: no budget). */
    public static Brief fit(List<Section> sections, int budget, ToIntFunction<String> counter) {
        List<Section> kept = new ArrayList<>();
        for (Section s : sections) {
            if (!s.lines().isEmpty()) {
                kept.add(s);
            }
        }
        int full = counter.applyAsInt(Brief.render(kept, null));
        if (budget == 0 || full <= budget) {
            return new Brief(kept, 0, budget, full);
        }
        int total = 0;
        for (Section s : kept) {
            total += s.lines().size();
        }
        // start from an estimate, then check the exact count up and down from there
        int keep = Math.max(0, Math.min(total, estimate(kept, total, budget, counter)));
        while (keep < total && exact(kept, keep + 1, total, budget, counter) <= budget) {
            keep++;
        }
        while (true) {
            List<Section> cut = take(kept, keep);
            String omission = Brief.omissionLine(total - keep, budget);
            int tokens = counter.applyAsInt(Brief.render(cut, omission));
            if (tokens <= budget || keep == 0) {
                return new Brief(cut, total - keep, budget, tokens);
            }
            keep--;
        }
    }

    /** How many entries fit by the sum of their lines' and headers' costs and the longest omission line's. */
    @dev.palimpsest.model.DoNotMutate("speed only: fit checks the exact count up and down from any start")
    private static int estimate(List<Section> sections, int total, int budget, ToIntFunction<String> counter) {
        int cost = counter.applyAsInt(Brief.omissionLine(total, budget));
        int keep = 0;
        for (Section s : sections) {
            cost += counter.applyAsInt(s.name() + ":\n") + 1;
            for (String l : s.lines()) {
                cost += counter.applyAsInt(l + "\n");
                if (cost > budget) {
                    return keep;
                }
                keep++;
            }
        }
        return keep;
    }

    private static int exact(List<Section> sections, int keep, int total, int budget, ToIntFunction<String> counter) {
        return counter.applyAsInt(Brief.render(take(sections, keep), Brief.omissionLine(total - keep, budget)));
    }

    /** The first {@code n} entries, in their sections; sections left empty are dropped. */
    private static List<Section> take(List<Section> sections, int n) {
        List<Section> out = new ArrayList<>();
        int left = n;
        for (Section s : sections) {
            if (left == 0) {
                break;
            }
            int k = Math.min(left, s.lines().size());
            out.add(new Section(s.name(), s.lines().subList(0, k)));
            left -= k;
        }
        return out;
    }
}
