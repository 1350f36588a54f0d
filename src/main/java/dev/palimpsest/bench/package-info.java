/** Benchmarks behind the {@code bench} command: our write path beside the git CLI, in one run. */
package dev.palimpsest.bench;
