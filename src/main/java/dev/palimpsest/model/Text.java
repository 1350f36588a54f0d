package dev.palimpsest.model;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether a text can be stored: every UTF-16 surrogate in it must be half of a pair. A lone
 * surrogate (a Java string can hold one, and a JSON string can spell one as {@code \ud800}) has no
 * UTF-8 encoding, so an encoder would store {@code ?} in its place; such text is refused instead
 * (rule {@code invalid-text}). Stateless and thread-safe.
 */
public final class Text {
    private Text() {}

    /**
     * The index of the first lone surrogate in {@code s}, or -1 when it has none (or is null).
     *
     * @deprecated takes null and answers -1 for none; use {@link #findLoneSurrogate(String)}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static int loneSurrogate(String s) {
        return s == null ? -1 : findLoneSurrogate(s).orElse(-1);
    }

    /** The index of the first lone surrogate in {@code s}; empty when it has none. */
    public static OptionalInt findLoneSurrogate(String s) {
        Objects.requireNonNull(s, "s");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /**
     * Why {@code s}, called {@code what}, cannot be stored (its first lone surrogate, by code unit and
     * index), or null when it can.
     *
     * @deprecated takes a null {@code s} and answers null when it can be stored; use
     *     {@link #findProblem(String, String)}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public static String problem(String what, String s) {
        int at = loneSurrogate(s);
        return at < 0 ? null : describe(what, s, at);
    }

    /**
     * Why {@code s}, called {@code what}, cannot be stored (its first lone surrogate, by code unit and
     * index); empty when it can.
     */
    public static Optional<String> findProblem(String what, String s) {
        Objects.requireNonNull(what, "what");
        OptionalInt found = findLoneSurrogate(Objects.requireNonNull(s, "s"));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(describe(what, s, found.getAsInt()));
    }

    private static String describe(String what, String s, int at) {
        return what + " holds a lone UTF-16 surrogate "
                + String.format(java.util.Locale.ROOT, "U+%04X", (int) s.charAt(at)) + " at index " + at
                + ", which UTF-8 cannot store; send well-formed Unicode";
    }

    /**
     * {@code s}, unchanged.
     *
     * @throws InvalidTextException when it holds a lone surrogate (the message names {@code what})
     */
    public static String require(String what, String s) {
        if (s != null) {
            Optional<String> p = findProblem(what, s);
            if (p.isPresent()) {
                throw new InvalidTextException(p.get());
            }
        }
        return s;
    }
}
