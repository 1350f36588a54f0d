package dev.palimpsest.model;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The normalised key of an entity, a predicate or an object of a claim: invisible characters (the
 * default-ignorable code points, such as the zero-width space U+200B, the joiners U+200C and U+200D,
 * the word joiner U+2060, the byte order mark U+FEFF, the soft hyphen U+00AD, bidirectional marks
 * and variation selectors) dropped, then NFKC, case-folded, every run of non-word characters
 * (anything but Unicode letters, marks, numbers and {@code _}) turned into one space, trimmed. So
 * {@code GraphARC}, {@code "  grapharc  "}, {@code GRAPHARC!} and {@code Graph\u200BARC} are one
 * entity ({@code grapharc}), {@code Graph-ARC} is another ({@code graph arc}), and {@code 東京} and
 * {@code 北京} stay apart. Stateless and thread-safe.
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
        String s = Normalizer.normalize(visible(text), Normalizer.Form.NFKC);
        // full case folding: upper then lower maps e.g. ß to ss, as Unicode case folding does
        s = s.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        return NON_WORD.matcher(s).replaceAll(" ").trim();
    }

    /** {@code text} without its default-ignorable code points. */
    private static String visible(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (!ignorable(cp)) {
                if (b != null) {
                    b.append(text, i, next);
                }
            } else if (b == null) {
                b = new StringBuilder(text.length()).append(text, 0, i);
            }
            i = next;
        }
        return b == null ? text : b.toString();
    }

    /**
     * True for a default-ignorable code point (Unicode's {@code Default_Ignorable_Code_Point}
     * property, DerivedCoreProperties.txt): a character that is shown as nothing when a font has no
     * glyph for it, so two keys that differ only by one would look alike.
     */
    private static boolean ignorable(int cp) {
        if (cp < 0xAD) {
            return false;
        }
        return cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F || cp == 0x1160 || cp == 0x17B4
                || cp == 0x17B5 || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x200B && cp <= 0x200F)
                || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0x3164
                || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF0 && cp <= 0xFFF8)
                || (cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A)
                || (cp >= 0xE0000 && cp <= 0xE0FFF);
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
