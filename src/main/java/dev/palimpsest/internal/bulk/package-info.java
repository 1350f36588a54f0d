/** Bulk loading and unloading: markdown notes read as source facts, and the live facts of a commit as JSON lines. */
package dev.palimpsest.internal.bulk;
