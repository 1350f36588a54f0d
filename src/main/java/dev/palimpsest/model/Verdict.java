package dev.palimpsest.model;

/**
 * The reviewer's verdict on one claim: {@code accepted} only when the quote is anchored in the
 * source ({@code anchorOk}) and the reviewer answered a JSON boolean {@code true}.
 * {@code modelAccepted} is three-valued: null when the reviewer was never asked (the anchor failed,
 * the call was free), false when asked and not convinced (or its reply was malformed: failing
 * closed), true when it accepted. {@code reason} says why (null when the reviewer accepted without
 * giving one). Immutable and thread-safe.
 */
public record Verdict(boolean accepted, boolean anchorOk, Boolean modelAccepted, String reason) {
    public Verdict {
        if (accepted && (!anchorOk || !Boolean.TRUE.equals(modelAccepted))) {
            throw new IllegalArgumentException("accepted needs an anchored quote and a reviewer that accepted");
        }
        if (!anchorOk && modelAccepted != null) {
            throw new IllegalArgumentException("a quote that is not anchored is never shown to the reviewer");
        }
    }
}
