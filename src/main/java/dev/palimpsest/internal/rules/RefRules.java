package dev.palimpsest.internal.rules;

import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.util.Set;

/**
 * The rules on a new ref, run by the reference gate on a write and by the audit on every fact
 * version in history: no duplicate (same target and role) and no self-reference; a {@code subsumes}
 * target is a hypothesis; a quote, with whitespace runs collapsed, is at least {@link #MIN_QUOTE}
 * characters and occurs in the pinned version's body. Stateless; arguments must not be null unless
 * documented.
 */
public final class RefRules {
    public static final int MIN_QUOTE = 12;

    private RefRules() {}

    /** {@code s} stripped, every whitespace run replaced by one space. */
    public static String collapse(String s) {
        String t = s.strip();
        StringBuilder out = null;
        boolean run = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean ws = isSpace(c);
            if (ws && out == null && (c != ' ' || i + 1 < t.length() && isSpace(t.charAt(i + 1)))) {
                out = new StringBuilder(t.length()).append(t, 0, i);
            }
            if (out != null) {
                if (!ws) {
                    out.append(c);
                } else if (!run) {
                    out.append(' ');
                }
            }
            run = ws;
        }
        return out == null ? t : out.toString();
    }

    /** True for the characters a regular expression's {@code \s} matches. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /**
     * Checks a ref of {@code referrer} to {@code target} in {@code role}: false (reported) when it
     * repeats a (target, role) pair already in {@code seen}, or cites the referrer itself. Adds the
     * pair to {@code seen}.
     */
    public static boolean identity(FactId referrer, FactId target, RefRole role, Set<String> seen, RuleSink sink) {
        if (!seen.add(key(target, role))) {
            sink.report(Rule.DUPLICATE_REF, "the fact already cites " + target + " as " + role);
            return false;
        }
        if (target.equals(referrer)) {
            sink.report(Rule.SELF_REFERENCE, "a fact cannot reference itself");
            return false;
        }
        return true;
    }

    /** The key {@link #identity} keeps in {@code seen} for a (target, role) pair. */
    public static String key(FactId target, RefRole role) {
        return target.value() + "\u0000" + role;
    }

    /**
     * False (reported) when {@code quote} is too short; used before the target is read, since a
     * short quote is wrong whatever it cites. A null quote passes.
     */
    public static boolean quoteLength(String quote, RuleSink sink) {
        if (quote == null) {
            return true;
        }
        String q = collapse(quote);
        if (q.length() < MIN_QUOTE) {
            sink.report(Rule.QUOTE_TOO_SHORT, "quote '" + q + "' is shorter than " + MIN_QUOTE + " characters");
            return false;
        }
        return true;
    }

    /**
     * False (reported) when {@code quote} is too short or is not in {@code targetBody}, the body of
     * the pinned version of {@code target} (null when that version cannot be read). A null quote
     * passes.
     */
    public static boolean quote(String quote, FactId target, String targetBody, RuleSink sink) {
        if (quote == null) {
            return true;
        }
        if (!quoteLength(quote, sink)) {
            return false;
        }
        String q = collapse(quote);
        if (targetBody == null || !collapse(targetBody).contains(q)) {
            sink.report(Rule.QUOTE_NOT_FOUND, "quote '" + q + "' is not in the pinned version of " + target);
            return false;
        }
        return true;
    }

    /**
     * False (reported) when a {@code subsumes} ref's target, of kind {@code targetKind} at its pinned
     * version (null when unknown: passes), is not a hypothesis.
     */
    public static boolean subsumes(RefRole role, FactId target, Kind targetKind, RuleSink sink) {
        if (!RefRole.SUBSUMES.equals(role) || targetKind == null || Kind.HYPOTHESIS.equals(targetKind)) {
            return true;
        }
        sink.report(Rule.SUBSUMES_NON_HYPOTHESIS, target + " is a " + targetKind
                + ", not a hypothesis; only a hypothesis can be subsumed");
        return false;
    }
}
