/** The convergent merge of two histories of one store: a pure, symmetric function of the two tips. */
package dev.palimpsest.internal.merge;
