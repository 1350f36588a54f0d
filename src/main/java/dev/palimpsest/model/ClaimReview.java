package dev.palimpsest.model;

import java.util.Objects;

/**
 * The reviewer's verdict recorded with a claim ({@code review:} in its YAML): the reviewer
 * {@code model}, {@code modelAccepted} (null: the reviewer was never asked; false: asked and not
 * convinced, or its reply was malformed; true: it accepted) and its {@code reason} (null when none).
 * Immutable and thread-safe; the model is non-blank text without line breaks.
 */
public record ClaimReview(String model, Boolean modelAccepted, String reason) {
    public ClaimReview {
        Objects.requireNonNull(model, "model");
        if (model.isBlank() || model.length() > 200 || model.chars().anyMatch(c -> c < 0x20)) {
            throw new IllegalArgumentException("review model must be non-blank printable text of at most 200 characters");
        }
        if (reason != null && reason.isBlank()) {
            reason = null;
        }
    }

    /** The verdict {@code v} by reviewer {@code model}. */
    public static ClaimReview of(String model, Verdict v) {
        return new ClaimReview(model, v.modelAccepted(), v.reason());
    }
}
