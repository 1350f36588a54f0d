package dev.palimpsest.model;

/**
 * Shared validation of the textual forms of ids; not part of the public API surface. Ids are
 * checked on every value built, thousands per cascade commit, so the character classes are
 * lookup tables rather than regular expressions.
 */
final class Ids {
    static final Syntax FACT_ID = new Syntax("a-z0-9", "a-z0-9._-", 1, 80);
    static final Syntax ACTOR = new Syntax("a-z0-9", "a-z0-9._-", 1, 40);
    static final Syntax TOKEN = new Syntax("a-z", "a-z0-9_-", 1, 32);
    static final Syntax HEX40 = new Syntax("0-9a-f", "0-9a-f", 40, 40);

    /** A first character from one set, then more from another, {@code min} to {@code max} in all (ASCII). */
    static final class Syntax {
        private final boolean[] first;
        private final boolean[] rest;
        private final int min;
        private final int max;

        Syntax(String first, String rest, int min, int max) {
            this.first = table(first);
            this.rest = table(rest);
            this.min = min;
            this.max = max;
        }

        boolean matches(String s) {
            int n = s.length();
            if (n < min || n > max || !in(first, s.charAt(0))) {
                return false;
            }
            for (int i = 1; i < n; i++) {
                if (!in(rest, s.charAt(i))) {
                    return false;
                }
            }
            return true;
        }

        private static boolean in(boolean[] set, char c) {
            return c < 128 && set[c];
        }

        /** {@code a-z0-9._-}: ranges, and single characters (a trailing {@code -} is one). */
        private static boolean[] table(String spec) {
            boolean[] t = new boolean[128];
            for (int i = 0; i < spec.length(); i++) {
                char lo = spec.charAt(i);
                if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
                    for (char c = lo; c <= spec.charAt(i + 2); c++) {
                        t[c] = true;
                    }
                    i += 2;
                } else {
                    t[lo] = true;
                }
            }
            return t;
        }
    }

    private Ids() {}

    static String require(String what, String value, Syntax syntax, String rule) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        if (!syntax.matches(value)) {
            throw new IllegalArgumentException(
                    what + " '" + printable(value) + "' is invalid: it must match " + rule);
        }
        return value;
    }

    static String printable(String s) {
        String cut = s.length() > 100 ? s.substring(0, 100) + "..." : s;
        StringBuilder b = new StringBuilder();
        for (char c : cut.toCharArray()) {
            b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
