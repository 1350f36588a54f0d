package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * A context brief: what an agent puts in its prompt before it works. {@code sections} in priority
 * order (known facts, contradictions, dead ends), each with its entry lines; {@code omitted} entry
 * lines were dropped to fit {@code budget} tokens ({@code budget} 0: none), counted by {@code
 * tokens} (the text's token count). A section never stands without lines. Immutable.
 */
public record Brief(List<Section> sections, int omitted, int budget, int tokens) {
    /** The first section: facts live at the commit, each with its provenance. */
    public static final String KNOWN = "Known facts (with provenance)";
    /** The second section: live claims that disagree. */
    public static final String CONTRADICTIONS = "Contradictions \u2014 same subject and predicate, different values";
    /** The third section: corrections not to walk into again. */
    public static final String DEAD_ENDS = "Superseded or retracted \u2014 do not re-derive these";

    /** One section: its name and its entry lines (each starting with "- "). */
    public record Section(String name, List<String> lines) {
        public Section {
            Objects.requireNonNull(name, "name");
            lines = List.copyOf(lines);
            if (lines.isEmpty()) {
                throw new IllegalArgumentException("a section never stands over nothing: " + name);
            }
        }
    }

    public Brief {
        sections = List.copyOf(sections);
        if (omitted < 0 || budget < 0 || tokens < 0) {
            throw new IllegalArgumentException("omitted, budget and tokens must not be negative");
        }
        if (omitted > 0 && budget == 0) {
            throw new IllegalArgumentException("lines are only omitted to fit a budget");
        }
    }

    /** The line that says what was dropped, or null when nothing was. */
    public String omissionLine() {
        return omitted == 0 ? null : omissionLine(omitted, budget);
    }

    /** "(+N lines omitted to fit a B-token budget)". */
    public static String omissionLine(int omitted, int budget) {
        return "(+" + omitted + (omitted == 1 ? " line" : " lines") + " omitted to fit a " + budget + "-token budget)";
    }

    /** The brief as prompt text: each section's name and colon, its lines, a blank line between sections. */
    public String text() {
        return render(sections, omissionLine());
    }

    /** The text of these sections followed by {@code omission} (null: none). */
    public static String render(List<Section> sections, String omission) {
        StringBuilder b = new StringBuilder();
        for (Section s : sections) {
            if (b.length() > 0) {
                b.append('\n');
            }
            b.append(s.name()).append(":\n");
            for (String l : s.lines()) {
                b.append(l).append('\n');
            }
        }
        if (omission != null) {
            b.append(omission).append('\n');
        }
        return b.toString();
    }
}
