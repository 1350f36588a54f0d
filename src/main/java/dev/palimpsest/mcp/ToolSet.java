package dev.palimpsest.mcp;

import java.util.Locale;

/**
 * Which tools a server lists: {@link #CORE}, the ones an agent needs in most sessions (recall,
 * reading a fact, what is believed about an entity, writing and correcting), or {@link #ALL}.
 */
public enum ToolSet {
    /** brief, search, show, history, current, dead_ends, contradictions, claim, assert, revise, supersede, retract. */
    CORE,
    /** Every tool: the core set, the provenance reads, produced files, the review queue and erasure. */
    ALL;

    /** The set named {@code name} ({@code core} or {@code all}, any case); IllegalArgumentException otherwise. */
    public static ToolSet of(String name) {
        for (ToolSet t : values()) {
            if (t.name().equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is no tool set: core or all");
    }

    /** The name the command line uses. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
