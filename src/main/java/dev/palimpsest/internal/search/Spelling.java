package dev.palimpsest.internal.search;

import java.util.HashSet;
import java.util.Set;

/**
 * The spelling channel's measure: the Dice coefficient of two strings' character trigram sets,
 * {@code 2 |A ∩ B| / (|A| + |B|)}, in [0, 1]. Entity keys are compared without their spaces, so
 * {@code authservice} and {@code auth-service} (key {@code auth service}) are 1.0 apart, while
 * {@code redsi} and {@code redis} share one trigram of three each (0.33) and stay below {@link
 * #MIN_SIMILARITY}. Stateless; thread-safe.
 */
final class Spelling {
    /** The least similarity at which the spelling channel returns a fact. */
    static final double MIN_SIMILARITY = 0.5;

    private Spelling() {}

    static Set<String> grams(String s) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i + FactDocs.GRAM <= s.length(); i++) {
            out.add(s.substring(i, i + FactDocs.GRAM));
        }
        return out;
    }

    static double similarity(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0.0;
        }
        if (a.equals(b)) {
            return 1.0;
        }
        Set<String> ga = grams(a);
        Set<String> gb = grams(b);
        if (ga.isEmpty() || gb.isEmpty()) {
            return 0.0;
        }
        int common = 0;
        for (String g : ga) {
            if (gb.contains(g)) {
                common++;
            }
        }
        return 2.0 * common / (ga.size() + gb.size());
    }
}
