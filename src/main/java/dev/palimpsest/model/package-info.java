/** Immutable value types of the store: typed ids, facts, references, versions and read outcomes. */
package dev.palimpsest.model;
