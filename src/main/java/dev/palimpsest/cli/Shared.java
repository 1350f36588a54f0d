package dev.palimpsest.cli;

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

        String read(InputStream stdin) throws RejectedException {
            return TextInput.oneOf("--reason", text, "--reason-file", file, stdin);
        }
    }
}
