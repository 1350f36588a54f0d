package dev.palimpsest.model;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The normalised key of an entity, a predicate or an object of a claim: NFKC, case-folded, every
 * run of non-word characters (anything but Unicode letters, marks, numbers and {@code _}) turned
 * into one space, trimmed. So {@code GraphARC}, {@code "  grapharc  "} and {@code GRAPHARC!} are
 * one entity ({@code grapharc}), {@code Graph-ARC} is another ({@code graph arc}), and {@code 東京}
 * and {@code 北京} stay apart. Stateless and thread-safe.
 */
public final class EntityKey {
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{M}\\p{N}_]+");

    private EntityKey() {}

    /** The key of {@code text} (possibly empty when it holds no word character). */
    public static String of(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC);
        // full case folding: upper then lower maps e.g. ß to ss, as Unicode case folding does
        s = s.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        return NON_WORD.matcher(s).replaceAll(" ").trim();
    }
}
