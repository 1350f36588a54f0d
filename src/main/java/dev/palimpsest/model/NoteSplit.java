package dev.palimpsest.model;

/**
 * How an import cuts a markdown note into source facts: one per file, or one per section that
 * starts at a heading of level 1, 2 or 3 ({@code #}, {@code ##}, {@code ###}); the text before the
 * first such heading is a section of its own when it is not blank.
 */
public enum NoteSplit {
    FILE(0), H1(1), H2(2), H3(3);

    private final int level;

    NoteSplit(int level) {
        this.level = level;
    }

    /** The heading level that starts a section; 0 for {@link #FILE}. */
    public int level() {
        return level;
    }

    /** The split named {@code file}, {@code h1}, {@code h2} or {@code h3} (any case). */
    public static NoteSplit of(String name) {
        for (NoteSplit s : values()) {
            if (s.name().equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("split must be file, h1, h2 or h3, got '" + name + "'");
    }
}
