package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A context brief: what an agent puts in its prompt before it works. {@code sections} in priority
 * order (known facts, contradictions, dead ends), each with its lines: the first section opens
 * with the commit the brief is made at, and entries ({@code "  - ID: statement"}) stand under the
 * header line of their group ({@code "- run R, source S:"}), so provenance is said once per group
 * (docs/claims-and-recall.md); {@code omitted} entries were dropped to fit {@code budget} tokens
 * ({@code budget} 0: none), counted by {@code tokens} (the text's token count). A section never
 * stands without lines. Immutable.
 */
public record Brief(List<Section> sections, int omitted, int budget, int tokens) {
    /** The first section: facts live at the commit, each with its provenance. */
    public static final String KNOWN = "Known facts (with provenance)";
    /** The second section: live claims that disagree. */
    public static final String CONTRADICTIONS = "Contradictions \u2014 same subject and predicate, different values";
    /** The third section: corrections not to walk into again. */
    public static final String DEAD_ENDS = "Superseded or retracted \u2014 do not re-derive these";

    /** One section: its name and its lines (each starting with "- ", or "  - " for an entry in a group). */
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

    /**
     * The line that says what was dropped, or null when nothing was.
     *
     * @deprecated answers null when nothing was dropped; use {@link #omission()}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public String omissionLine() {
        return omission().orElse(null);
    }

    /** The line that says what was dropped; empty when nothing was. */
    public Optional<String> omission() {
        return omitted == 0 ? Optional.empty() : Optional.of(omissionLine(omitted, budget));
    }

    /**
     * "(+N lines omitted to fit a B-token budget)". Plumbing of the brief's fitting, public for it;
     * a caller reads {@link #omission()}.
     */
    public static String omissionLine(int omitted, int budget) {
        return "(+" + omitted + (omitted == 1 ? " line" : " lines") + " omitted to fit a " + budget + "-token budget)";
    }

    /** The brief as prompt text: each section's name and colon, its lines, a blank line between sections. */
    public String text() {
        return render(sections, omission().orElse(null));
    }

    /**
     * The text of these sections followed by {@code omission} (null: none). Plumbing of the brief's
     * fitting (it measures candidate texts), public for it; a caller reads {@link #text()}.
     */
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
