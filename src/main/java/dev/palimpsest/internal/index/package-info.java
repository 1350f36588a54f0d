/** The predicate index: per-fact version events over the commit graph, persisted, derivable from git. */
package dev.palimpsest.internal.index;
