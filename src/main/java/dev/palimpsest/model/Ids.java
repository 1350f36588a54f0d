package dev.palimpsest.model;

import java.util.regex.Pattern;

/** Shared validation of the textual forms of ids; not part of the public API surface. */
final class Ids {
    static final Pattern FACT_ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,79}");
    static final Pattern ACTOR = Pattern.compile("[a-z0-9][a-z0-9._-]{0,39}");
    static final Pattern TOKEN = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
    static final Pattern HEX40 = Pattern.compile("[0-9a-f]{40}");

    private Ids() {}

    static String require(String what, String value, Pattern pattern, String rule) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        if (!pattern.matcher(value).matches()) {
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
