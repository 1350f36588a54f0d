package dev.palimpsest.model;

/**
 * Whether a text can be stored: every UTF-16 surrogate in it must be half of a pair. A lone
 * surrogate (a Java string can hold one, and a JSON string can spell one as {@code \ud800}) has no
 * UTF-8 encoding, so an encoder would store {@code ?} in its place; such text is refused instead
 * (rule {@code invalid-text}). Stateless and thread-safe.
 */
public final class Text {
    private Text() {}

    /** The index of the first lone surrogate in {@code s}, or -1 when it has none (or is null). */
    public static int loneSurrogate(String s) {
        if (s == null) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else {
                return i;
            }
        }
        return -1;
    }

    /**
     * Why {@code s}, called {@code what}, cannot be stored (its first lone surrogate, by code unit and
     * index), or null when it can.
     */
    public static String problem(String what, String s) {
        int at = loneSurrogate(s);
        return at < 0 ? null : what + " holds a lone UTF-16 surrogate "
                + String.format(java.util.Locale.ROOT, "U+%04X", (int) s.charAt(at)) + " at index " + at
                + ", which UTF-8 cannot store; send well-formed Unicode";
    }

    /**
     * {@code s}, unchanged.
     *
     * @throws InvalidTextException when it holds a lone surrogate (the message names {@code what})
     */
    public static String require(String what, String s) {
        String p = problem(what, s);
        if (p != null) {
            throw new InvalidTextException(p);
        }
        return s;
    }
}
