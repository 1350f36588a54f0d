package dev.palimpsest.model;

import java.util.Objects;

/**
 * A claim with known ground truth, to score a verifier: the {@code claim}, the {@code quote} it
 * cites, its source as a fact id of the store ({@code source}) or as text ({@code sourceText}) —
 * exactly one of the two — and whether the source really {@code supported} it. Immutable and
 * thread-safe.
 */
public record LabelledClaim(String claim, String quote, FactId source, String sourceText, boolean supported) {
    public LabelledClaim {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(quote, "quote");
        if ((source == null) == (sourceText == null)) {
            throw new IllegalArgumentException("a labelled claim names exactly one of source and source text");
        }
    }
}
