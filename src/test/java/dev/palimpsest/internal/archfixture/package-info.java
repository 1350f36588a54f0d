/** Planted layering violations that the architecture test must catch; never shipped. */
package dev.palimpsest.internal.archfixture;
