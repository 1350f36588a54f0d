/** The picocli command line: parses arguments, calls the Java API, prints text or JSON; no business logic. */
package dev.palimpsest.cli;
