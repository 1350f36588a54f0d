package dev.palimpsest.internal.rules;

import dev.palimpsest.model.Rule;
import java.time.Duration;
import java.time.Instant;

/**
 * The time rules of a commit, as the store writes its commits and the audit checks them: author
 * and committer times are equal whole seconds in zone {@code +0000}; the signature was made within
 * {@link #TOLERANCE} of the committer time; a commit is not more than the tolerance older than its
 * first parent, nor dated more than the tolerance after the auditing clock. The writer picks the
 * time with {@link #commitTime}, so its own commits pass. Stateless.
 */
public final class TimeRules {
    /** How far apart the times the rules compare may be: clocks of different machines drift. */
    public static final Duration TOLERANCE = Duration.ofMinutes(5);
    /** The only zone the store writes and accepts. */
    public static final String ZONE = "+0000";

    /** A commit's dates as its author and committer headers give them: epoch seconds and zone. */
    public record Stamp(long seconds, String zone) {
        public Stamp {
            java.util.Objects.requireNonNull(zone, "zone");
        }

        /** Parses the {@code <seconds> <zone>} end of an ident line; null when it is malformed. */
        public static Stamp parse(String when) {
            if (when == null) {
                return null;
            }
            int sp = when.indexOf(' ');
            try {
                return sp < 0 ? null : new Stamp(Long.parseLong(when.substring(0, sp)), when.substring(sp + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        Instant instant() {
            return Instant.ofEpochSecond(seconds);
        }
    }

    private TimeRules() {}

    /**
     * The time the writer gives a commit whose parent is dated {@code parent} (null for genesis):
     * the clock {@code now} in whole seconds, never earlier than the parent, so time on main never
     * goes back.
     */
    public static Instant commitTime(Instant now, Instant parent) {
        Instant t = Instant.ofEpochSecond(now.getEpochSecond());
        return parent != null && parent.isAfter(t) ? Instant.ofEpochSecond(parent.getEpochSecond()) : t;
    }

    /**
     * Checks one commit's times. {@code signed} is the signature's creation time (null: unsigned
     * or unreadable, not checked), {@code parent} the first parent's committer time (null for
     * genesis), {@code now} the auditing clock. Author and committer must be non-null. True when no
     * rule broke.
     */
    public static boolean check(Stamp author, Stamp committer, Instant signed, Stamp parent, Instant now,
            RuleSink sink) {
        boolean ok = true;
        if (!ZONE.equals(author.zone()) || !ZONE.equals(committer.zone())) {
            sink.report(Rule.TIME_ZONE, "author zone " + author.zone() + ", committer zone " + committer.zone()
                    + ": the store writes " + ZONE + " only");
            ok = false;
        }
        if (author.seconds() != committer.seconds()) {
            sink.report(Rule.AUTHOR_TIME, "author time " + author.instant() + " is not the committer time "
                    + committer.instant());
            ok = false;
        }
        if (signed != null && apart(signed, committer.instant())) {
            sink.report(Rule.SIGNATURE_TIME, "the signature was made at " + signed + ", the commit is dated "
                    + committer.instant() + " (tolerance " + TOLERANCE.toMinutes() + " minutes)");
            ok = false;
        }
        if (parent != null && committer.instant().plus(TOLERANCE).isBefore(parent.instant())) {
            sink.report(Rule.TIME_REGRESSION, "the commit is dated " + committer.instant() + ", before its parent's "
                    + parent.instant() + " (tolerance " + TOLERANCE.toMinutes() + " minutes)");
            ok = false;
        }
        if (committer.instant().isAfter(now.plus(TOLERANCE))) {
            sink.report(Rule.FUTURE_TIME, "the commit is dated " + committer.instant() + ", after the auditor's clock "
                    + Instant.ofEpochSecond(now.getEpochSecond()) + " (tolerance " + TOLERANCE.toMinutes()
                    + " minutes)");
            ok = false;
        }
        return ok;
    }

    private static boolean apart(Instant a, Instant b) {
        return Duration.between(a, b).abs().compareTo(TOLERANCE) > 0;
    }
}
