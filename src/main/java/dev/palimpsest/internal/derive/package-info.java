/** Derivation records and the persisted receipt-members index: which facts a receipt bundle rests on, at any commit. */
package dev.palimpsest.internal.derive;
