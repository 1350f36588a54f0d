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
        String ascii = ascii(text);
        if (ascii != null) {
            return ascii;
        }
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC);
        // full case folding: upper then lower maps e.g. ß to ss, as Unicode case folding does
        s = s.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        return NON_WORD.matcher(s).replaceAll(" ").trim();
    }

    /**
     * The key of an all-ASCII text without regular expressions or normalisers (NFKC and case folding
     * of ASCII are plain lower-casing; its word characters are letters, digits and {@code _}), or
     * null when the text holds a non-ASCII character.
     */
    private static String ascii(String text) {
        StringBuilder b = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            boolean word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (c >= 'A' && c <= 'Z');
            if (!word) {
                gap = b.length() > 0;
                continue;
            }
            if (gap) {
                b.append(' ');
                gap = false;
            }
            b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return b.toString();
    }
}
