package dev.palimpsest.cli;

import java.io.InputStream;

/** The top command of a command tree: the global options its subcommands inherit, and standard input. */
interface Root {
    GlobalOptions global();

    InputStream stdin();
}
