package dev.palimpsest.internal.write;

/**
 * Rules on refs shared by the reference gate and the audit's replay of it: quotes are compared
 * with whitespace runs collapsed and must be at least {@link #MIN_QUOTE} characters. Stateless.
 */
public final class RefRules {
    public static final int MIN_QUOTE = 12;

    private RefRules() {}

    /** {@code s} stripped, every whitespace run replaced by one space. */
    public static String collapse(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }
}
