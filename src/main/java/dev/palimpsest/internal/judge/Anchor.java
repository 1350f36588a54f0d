package dev.palimpsest.internal.judge;

import dev.palimpsest.internal.rules.RefRules;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic quote anchor: a quote is anchored when, with whitespace collapsed, it is at least
 * {@link RefRules#MIN_QUOTE} characters and occurs in the source. The quote is split on whitespace
 * and matched as its tokens joined by {@code \s+}, so a line break in the source where the quote has
 * a space (or several spaces) matches, and every other character must match exactly: the same test
 * as the gate's {@link RefRules#quote}. Stateless; arguments must not be null.
 */
public final class Anchor {
    /** Where the quote occurs in the source: {@code [start, end)} of the first match. */
    public record Span(int start, int end) {}

    public static final String TOO_SHORT = "citation shorter than " + RefRules.MIN_QUOTE
            + " characters anchors nothing (deterministic anchor)";
    public static final String NOT_FOUND = "citation does not exist in the source (deterministic anchor)";

    private Anchor() {}

    /** The first span of {@code source} the quote matches, or null when it is too short or absent. */
    public static Span find(String quote, String source) {
        String q = RefRules.collapse(quote);
        if (q.length() < RefRules.MIN_QUOTE) {
            return null;
        }
        StringBuilder re = new StringBuilder();
        for (String token : q.split(" ")) {
            if (re.length() > 0) {
                re.append("\\s+");
            }
            re.append(Pattern.quote(token));
        }
        Matcher m = Pattern.compile(re.toString()).matcher(source);
        return m.find() ? new Span(m.start(), m.end()) : null;
    }

    /** Why {@code quote} is not anchored in {@code source}, or null when it is. */
    public static String problem(String quote, String source) {
        if (RefRules.collapse(quote).length() < RefRules.MIN_QUOTE) {
            return TOO_SHORT;
        }
        return find(quote, source) == null ? NOT_FOUND : null;
    }
}
