package dev.palimpsest.internal.write;

import dev.palimpsest.model.ActorName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds commit messages: a readable subject, a blank line, then trailers that agree with the tree
 * change ({@code Palimpsest-Actor}, then for each operation a {@code Palimpsest-Op} followed by the
 * {@code Palimpsest-Fact} or {@code Palimpsest-Key} it concerns). Not thread-safe.
 */
final class CommitMessage {
    static final String ACTOR = "Palimpsest-Actor";
    static final String OP = "Palimpsest-Op";
    static final String FACT = "Palimpsest-Fact";
    static final String KEY = "Palimpsest-Key";
    /** The agent run that learned the facts written (one trailer per distinct run, sorted), right after the actor. */
    static final String RUN = "Palimpsest-Run";
    private final java.util.SortedSet<String> runs = new java.util.TreeSet<>();

    private final List<String[]> ops = new ArrayList<>();
    private String lastDetail;

    void add(String verb, String trailerKey, String subjectValue, String detail) {
        ops.add(new String[] {verb, trailerKey, subjectValue});
        lastDetail = detail;
    }

    /** Records that a fact written by this commit carries {@code run} (null: none). */
    void run(String run) {
        if (run != null) {
            runs.add(run);
        }
    }

    String build(ActorName actor) {
        StringBuilder b = new StringBuilder();
        if (ops.size() == 1) {
            String[] op = ops.get(0);
            b.append(op[0]).append(' ').append(op[2]);
            if (lastDetail != null) {
                b.append(": ").append(excerpt(lastDetail));
            }
        } else {
            Map<String, Integer> counts = new TreeMap<>();
            for (String[] op : ops) {
                counts.merge(op[0], 1, Integer::sum);
            }
            b.append("transaction of ").append(ops.size()).append(" operations:");
            counts.forEach((verb, n) -> b.append(' ').append(n).append(' ').append(verb).append(','));
            b.setLength(b.length() - 1);
        }
        b.append("\n\n").append(ACTOR).append(": ").append(actor.value()).append('\n');
        for (String run : runs) {
            b.append(RUN).append(": ").append(run).append('\n');
        }
        for (String[] op : ops) {
            b.append(OP).append(": ").append(op[0]).append('\n');
            b.append(op[1]).append(": ").append(op[2]).append('\n');
        }
        return b.toString();
    }

    /**
     * The text with whitespace runs collapsed to one space, cut to 60 characters (never between the
     * two halves of a surrogate pair), then every control character (C0 such as NUL and ESC, DEL, C1),
     * bidirectional control and lone surrogate escaped as {@code \\xhh} or {@code \\uhhhh}: a subject
     * is one line of printable text, which {@code git fsck --strict} accepts (it refuses a NUL) and a
     * terminal shows as it is. The fact file keeps the exact text.
     */
    static String excerpt(String text) {
        StringBuilder b = new StringBuilder(Math.min(text.length(), 61));
        boolean space = false;
        for (int i = 0; i < text.length() && b.length() <= 60; i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                space = b.length() > 0;
            } else {
                if (space) {
                    b.append(' ');
                    space = false;
                }
                b.append(c);
            }
        }
        if (b.length() > 60) {
            b.setLength(Character.isHighSurrogate(b.charAt(56)) ? 56 : 57);
            b.append("...");
        }
        return escaped(b);
    }

    private static String escaped(CharSequence s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else if (Character.getType(c) == Character.CONTROL || Character.isSurrogate(c) || bidi(c)) {
                b.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean bidi(char c) {
        return c == '\u061c' || c == '\u200e' || c == '\u200f' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
