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
    /** The reason of a verdict whose reviewer reply was not exactly one JSON object with {@code supported}. */
    public static final String UNPARSEABLE = "reviewer reply unparseable — failing closed";
    /** The reason of a verdict whose reviewer reply had a {@code supported} that was not a JSON boolean. */
    public static final String NOT_BOOLEAN = "reviewer 'supported' was not a JSON boolean — failing closed";

    public Verdict {
        if (accepted && (!anchorOk || !Boolean.TRUE.equals(modelAccepted))) {
            throw new IllegalArgumentException("accepted needs an anchored quote and a reviewer that accepted");
        }
        if (!anchorOk && modelAccepted != null) {
            throw new IllegalArgumentException("a quote that is not anchored is never shown to the reviewer");
        }
    }

    /**
     * True when the reviewer was asked and its reply was no verdict at all ({@link #UNPARSEABLE},
     * {@link #NOT_BOOLEAN}): the claim is not accepted (failing closed), and the judge, not the claim,
     * is what needs attention (a quota banner, a model that ignores the format).
     */
    public boolean judgeDegraded() {
        return anchorOk && Boolean.FALSE.equals(modelAccepted) && (UNPARSEABLE.equals(reason) || NOT_BOOLEAN.equals(reason));
    }
}
