/** Receipts: ingest batches, liveness by set arithmetic at any commit, cleanup cascades, review, entailment. */
package dev.palimpsest.internal.receipts;
