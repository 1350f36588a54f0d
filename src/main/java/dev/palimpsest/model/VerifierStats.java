package dev.palimpsest.model;

/**
 * How a verifier did against labelled claims, as four counters and never one score: the two error
 * kinds have different costs (a false accept ships a wrong claim, a false reject burns retries), and
 * a verifier that rejects everything has no false accepts. {@code trueAccepts == 0} with supported
 * labels present is the tell of a rejects-all verifier. Immutable and thread-safe; counts are not
 * negative.
 */
public record VerifierStats(int trueAccepts, int trueRejects, int falseAccepts, int falseRejects) {
    public VerifierStats {
        if (trueAccepts < 0 || trueRejects < 0 || falseAccepts < 0 || falseRejects < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }

    /** The stats with one more verdict: {@code accepted} by the verifier, {@code supported} by the label. */
    public VerifierStats plus(boolean accepted, boolean supported) {
        return new VerifierStats(trueAccepts + (accepted && supported ? 1 : 0),
                trueRejects + (!accepted && !supported ? 1 : 0),
                falseAccepts + (accepted && !supported ? 1 : 0),
                falseRejects + (!accepted && supported ? 1 : 0));
    }
}
