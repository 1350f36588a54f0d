package dev.palimpsest.internal.search;

import dev.palimpsest.model.Brief;
import dev.palimpsest.model.Brief.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Fits a brief to a token budget: the entries of a {@link Layout} are kept in their priority order
 * and the lowest-priority ones dropped whole, never part of an entry; a section left without entries
 * loses its header too (the layout leaves it out); the omission line ("(+N lines omitted to fit a
 * B-token budget)") is always kept, even when it alone exceeds the budget. N counts dropped entries.
 * Stateless; thread-safe.
 */
public final class BriefFit {
    private BriefFit() {}

    /**
     * What a brief lays out: {@link #size()} entries in priority order, and the sections that the
     * first {@code keep} of them make (a group header of a kept entry, an entry rendered where it
     * belongs, not where its priority puts it). The more entries kept, the longer the text.
     */
    public interface Layout {
        /** The number of entries. */
        int size();

        /** The sections of the {@code keep} entries of highest priority; no section without lines. */
        List<Section> render(int keep);
    }

    /** The brief of {@code sections} within {@code budget} tokens of {@code counter} (0: no budget); each line is an entry, the last dropped first. */
    public static Brief fit(List<Section> sections, int budget, ToIntFunction<String> counter) {
        List<Section> kept = new ArrayList<>();
        int total = 0;
        for (Section s : sections) {
            if (!s.lines().isEmpty()) {
                kept.add(s);
                total += s.lines().size();
            }
        }
        int size = total;
        return fit(new Layout() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public List<Section> render(int keep) {
                return take(kept, keep);
            }
        }, budget, counter);
    }

    /** The brief of {@code layout} within {@code budget} tokens of {@code counter} (0: no budget). */
    public static Brief fit(Layout layout, int budget, ToIntFunction<String> counter) {
        int total = layout.size();
        List<Section> all = layout.render(total);
        int full = counter.applyAsInt(Brief.render(all, null));
        if (budget == 0 || full <= budget) {
            return new Brief(all, 0, budget, full);
        }
        // the largest count that fits, by bisection over a text that grows with it, then checked up and down
        int lo = 0;
        int hi = total - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (cost(layout, mid, total, budget, counter) <= budget) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int keep = lo;
        while (keep + 1 < total && cost(layout, keep + 1, total, budget, counter) <= budget) {
            keep++;
        }
        while (true) {
            List<Section> cut = layout.render(keep);
            int tokens = counter.applyAsInt(Brief.render(cut, Brief.omissionLine(total - keep, budget)));
            if (tokens <= budget || keep == 0) {
                return new Brief(cut, total - keep, budget, tokens);
            }
            keep--;
        }
    }

    private static int cost(Layout layout, int keep, int total, int budget, ToIntFunction<String> counter) {
        return counter.applyAsInt(Brief.render(layout.render(keep), Brief.omissionLine(total - keep, budget)));
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
