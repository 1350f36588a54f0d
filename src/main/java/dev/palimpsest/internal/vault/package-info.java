/** The key vault beside a store: per-fact data keys of sealed content, outside git history. */
package dev.palimpsest.internal.vault;
