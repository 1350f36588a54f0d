/** The rule book's checks that the reference gate and the audit share, so both report a broken rule alike. */
package dev.palimpsest.internal.rules;
