package dev.palimpsest.cli;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.RejectedException;
import java.io.InputStream;
import picocli.CommandLine.Option;

/** The options several commands share, as picocli mixins. */
final class Shared {
    private Shared() {}

    /** {@code --actor NAME}: who signs the commit. */
    static final class Actor {
        @Option(names = "--actor", required = true, paramLabel = "NAME",
                description = "The actor who signs the commit; its secret key must be in the key home.")
        String name;
    }

    /** {@code --at COMMIT}: the commit a read is made at. */
    static final class At {
        @Option(names = "--at", paramLabel = "COMMIT",
                description = "Read as of this commit: any revision git understands (default: main).")
        String revision;

        @Option(names = "--as-of", paramLabel = "TIME", description = "Read as the store stood at TIME: the last"
                + " commit of main dated at or before it (ISO-8601 instant or date, UTC); not with --at.")
        String asOf;
    }

    /** {@code --body TEXT} or {@code --body-file PATH}: exactly one. */
    static final class Body {
        @Option(names = "--body", paramLabel = "TEXT",
                description = "The fact's text; this or --body-file is required. Under a non-UTF-8 locale, non-ASCII"
                        + " text is refused: use --body-file.")
        String text;

        @Option(names = "--body-file", paramLabel = "PATH",
                description = "Read the body from PATH ('-': standard input) as strict UTF-8, byte for byte.")
        String file;
    }

    /** {@code --reason TEXT} or {@code --reason-file PATH}: exactly one. */
    static final class Reason {
        @Option(names = "--reason", paramLabel = "TEXT", description = "Why (recorded in the commit); this or --reason-file is required.")
        String text;

        @Option(names = "--reason-file", paramLabel = "PATH",
                description = "Read the reason from PATH ('-': standard input) as strict UTF-8.")
        String file;

        String read(InputStream stdin, KeyHome keyHome) throws RejectedException {
            return TextInput.oneOf("--reason", text, "--reason-file", file, stdin, keyHome);
        }
    }

    /** {@code --sensitive}, {@code --retain-until TIME} and {@code --plaintext}: how a written fact is sealed. */
    static final class Sealing {
        @Option(names = "--sensitive", description = "Seal the content (AES-256-GCM, its own data key) so it can be forgotten.")
        boolean sensitive;

        @Option(names = "--retain-until", paramLabel = "TIME",
                description = "Retention deadline (ISO-8601 instant, e.g. 2027-01-01T00:00:00Z); sealed; expire forgets it after.")
        String retainUntil;

        @Option(names = "--plaintext", description = "Keep the content in the clear although it cites or quotes sealed"
                + " facts (by default such a fact is sealed); recorded in the fact as plaintext: true.")
        boolean plaintext;

        java.time.Instant deadline() throws Main.UsageException {
            if (retainUntil == null) {
                return null;
            }
            try {
                return java.time.Instant.parse(retainUntil);
            } catch (java.time.format.DateTimeParseException e) {
                throw new Main.UsageException("--retain-until: '" + retainUntil + "' is not an ISO-8601 instant");
            }
        }

        dev.palimpsest.model.FactSpec apply(dev.palimpsest.model.FactSpec spec) throws Main.UsageException {
            dev.palimpsest.model.FactSpec s = sensitive ? spec.asSensitive() : spec;
            s = plaintext ? s.asPlaintext() : s;
            java.time.Instant d = deadline();
            return d == null ? s : s.retainedUntil(d);
        }
    }

    /** {@code --valid-from TIME} and {@code --valid-until TIME}: when the written fact was true in the world. */
    static final class ValidTime {
        @Option(names = "--valid-from", paramLabel = "TIME", description = "Valid in the world from TIME on (ISO-8601 "
                + "instant, e.g. 2021-03-01T00:00:00Z, or a date, meaning its start in UTC); default: open.")
        String from;

        @Option(names = "--valid-until", paramLabel = "TIME", description = "Valid in the world until TIME, exclusive "
                + "(as --valid-from); default: open.")
        String until;

        boolean given() {
            return from != null || until != null;
        }

        java.time.Instant start() throws dev.palimpsest.model.RejectedException {
            return parse("--valid-from", from);
        }

        java.time.Instant end() throws dev.palimpsest.model.RejectedException {
            return parse("--valid-until", until);
        }

        /** {@code text} as an instant, an unreadable one rejected under {@code valid-time-malformed} naming {@code option}. */
        static java.time.Instant instant(String option, String text) throws dev.palimpsest.model.RejectedException {
            return parse(option, text);
        }

        private static java.time.Instant parse(String option, String text) throws dev.palimpsest.model.RejectedException {
            if (text == null) {
                return null;
            }
            try {
                return dev.palimpsest.model.Validity.parse(option, text);
            } catch (dev.palimpsest.model.ValidTimeException e) {
                throw new dev.palimpsest.model.RejectedException(e.rule(), option, e.getMessage());
            }
        }

        dev.palimpsest.model.FactSpec apply(dev.palimpsest.model.FactSpec spec)
                throws dev.palimpsest.model.RejectedException {
            java.time.Instant f = start();
            java.time.Instant u = end();
            spec = f == null ? spec : spec.validFrom(f);
            return u == null ? spec : spec.validUntil(u);
        }

        dev.palimpsest.model.ClaimSpec apply(dev.palimpsest.model.ClaimSpec spec)
                throws dev.palimpsest.model.RejectedException {
            java.time.Instant f = start();
            java.time.Instant u = end();
            spec = f == null ? spec : spec.validFrom(f);
            return u == null ? spec : spec.validUntil(u);
        }
    }

    /** {@code --valid-at TIME}: ask in valid time, only what was true in the world then. */
    static final class ValidAt {
        @Option(names = "--valid-at", paramLabel = "TIME", description = "Only what was valid in the world at TIME"
                + " (ISO-8601 instant, or a date meaning its start in UTC), succession applied.")
        String text;

        java.util.Optional<java.time.Instant> instant() throws dev.palimpsest.model.RejectedException {
            return java.util.Optional.ofNullable(ValidTime.instant("--valid-at", text));
        }

        dev.palimpsest.api.ClaimsAt apply(dev.palimpsest.api.ClaimsAt q) throws dev.palimpsest.model.RejectedException {
            java.util.Optional<java.time.Instant> t = instant();
            return t.isPresent() ? q.validAt(t.get()) : q;
        }
    }
}
