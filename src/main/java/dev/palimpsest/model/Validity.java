package dev.palimpsest.model;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * When a fact was true in the world (valid time), beside when the store learned it (transaction
 * time, its commits): the half-open interval [{@code from}, {@code until}). An open start is
 * {@link Instant#MIN}, an open end {@link Instant#MAX}; {@link #ALWAYS} is open at both ends, which is
 * what a fact without {@code valid_from} and {@code valid_until} states. A closed bound is a
 * whole-second instant of the years 1 to 9999 ({@link Rule#VALID_TIME_MALFORMED} otherwise), and the
 * start lies before the end ({@link Rule#VALID_TIME_INVERTED}); both are thrown as {@link
 * ValidTimeException}.
 *
 * <p>Immutable and thread-safe; arguments must not be null.
 */
public record Validity(Instant from, Instant until) {
    /** Open at both ends: valid at every instant. */
    public static final Validity ALWAYS = new Validity(Instant.MIN, Instant.MAX);
    private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59Z");

    public Validity {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(until, "until");
        if (!from.equals(Instant.MIN)) {
            requireStorable("valid_from", from);
        }
        if (!until.equals(Instant.MAX)) {
            requireStorable("valid_until", until);
        }
        if (!from.isBefore(until)) {
            throw new ValidTimeException(Rule.VALID_TIME_INVERTED, "valid_from " + from + " is not before valid_until "
                    + until + " (validity is the half-open interval [valid_from, valid_until))");
        }
    }

    private static void requireStorable(String field, Instant t) {
        if (t.getNano() != 0 || t.isBefore(FIRST) || t.isAfter(LAST)) {
            throw new ValidTimeException(Rule.VALID_TIME_MALFORMED, field + " " + t
                    + " is not a whole-second instant of the years 1 to 9999");
        }
    }

    /** Valid from {@code start} on, open-ended. */
    public static Validity startingAt(Instant start) {
        return new Validity(start, Instant.MAX);
    }

    /** The same validity with another start ({@link Instant#MIN}: open). */
    public Validity withFrom(Instant value) {
        return new Validity(value, until);
    }

    /** The same validity with another end ({@link Instant#MAX}: open). */
    public Validity withUntil(Instant value) {
        return new Validity(from, value);
    }

    /** The start, empty when open. */
    public Optional<Instant> start() {
        return from.equals(Instant.MIN) ? Optional.empty() : Optional.of(from);
    }

    /** The end (exclusive), empty when open. */
    public Optional<Instant> end() {
        return until.equals(Instant.MAX) ? Optional.empty() : Optional.of(until);
    }

    /** True when open at both ends. */
    public boolean always() {
        return from.equals(Instant.MIN) && until.equals(Instant.MAX);
    }

    /** True when {@code t} lies in [from, until). */
    public boolean contains(Instant t) {
        Objects.requireNonNull(t, "t");
        return !t.isBefore(from) && t.isBefore(until);
    }

    /** True when the two intervals share an instant. */
    public boolean overlaps(Validity other) {
        Objects.requireNonNull(other, "other");
        return from.isBefore(other.until) && other.from.isBefore(until);
    }

    /**
     * The canonical spelling of a bound, as fact files hold it: ISO-8601 in UTC with seconds and
     * {@code Z}, e.g. {@code 2021-03-01T00:00:00Z}.
     */
    public static String canonical(Instant t) {
        return Objects.requireNonNull(t, "t").toString();
    }

    /**
     * Reads a bound in its canonical spelling only (what a fact file must hold).
     *
     * @throws ValidTimeException ({@link Rule#VALID_TIME_MALFORMED}) for any other spelling
     */
    public static Instant parseCanonical(String field, String text) {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(text, "text");
        Instant t;
        try {
            t = Instant.parse(text);
        } catch (DateTimeParseException e) {
            t = null;
        }
        if (t == null || !t.toString().equals(text)) {
            throw new ValidTimeException(Rule.VALID_TIME_MALFORMED, field + " '" + text
                    + "' is not an ISO-8601 UTC instant in canonical form (e.g. 2021-03-01T00:00:00Z)");
        }
        requireStorable(field, t);
        return t;
    }

    /**
     * Reads a time as writers give it: an ISO-8601 instant ({@code 2021-03-01T12:30:00Z}, an offset
     * such as {@code +02:00} is converted to UTC) or a date ({@code 2021-03-01}, meaning its start,
     * 00:00 UTC). Fractions of a second are refused.
     *
     * @throws ValidTimeException ({@link Rule#VALID_TIME_MALFORMED}) naming {@code what} when it is neither
     */
    public static Instant parse(String what, String text) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(text, "text");
        String s = text.strip();
        Instant t = null;
        try {
            if (s.length() == 10) {
                t = LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            } else {
                t = java.time.OffsetDateTime.parse(s).toInstant();
            }
        } catch (DateTimeParseException e) {
            t = null;
        }
        if (t == null) {
            throw new ValidTimeException(Rule.VALID_TIME_MALFORMED, what + ": '" + text
                    + "' is neither an ISO-8601 instant (2021-03-01T00:00:00Z) nor a date (2021-03-01)");
        }
        requireStorable(what, t);
        return t;
    }
}
