package dev.palimpsest.model;

import java.util.Objects;

/**
 * One sentence of a summary with its own receipt (a sentence-level support label).
 *
 * <p>Immutable and thread-safe; {@code text} must be non-blank and {@code receipt} non-null.
 */
public record Sentence(String text, Receipt receipt) {
    public Sentence {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a summary sentence must not be empty");
        }
        Objects.requireNonNull(receipt, "sentence receipt");
    }
}
