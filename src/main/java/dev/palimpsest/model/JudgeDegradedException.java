package dev.palimpsest.model;

/**
 * Thrown when a {@link Judge} answers but its reply is no verdict (a quota banner returned with
 * status 200, prose instead of the JSON asked for): the claim is not accepted (failing closed) and
 * the caller learns that the judge, not the claim, failed. The CLI exits 8 with kind
 * {@code judge-degraded}. Nothing is written when it is thrown.
 *
 * <p>Immutable once thrown and safe to share between threads.
 */
public class JudgeDegradedException extends JudgeUnavailableException {
    private static final long serialVersionUID = 1L;

    public JudgeDegradedException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "judge-degraded";
    }
}
