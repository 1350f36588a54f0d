package dev.palimpsest.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when a write is refused because its input is invalid or breaks a rule of the reference
 * gate; lists every violation found, and guarantees nothing was written.
 *
 * <p>Immutable once thrown and safe to share between threads; {@link #violations()} is never empty.
 */
public class RejectedException extends PalimpsestException {
    private static final long serialVersionUID = 1L;
    private final transient List<Violation> violations;

    public RejectedException(List<Violation> violations) {
        super(describe(violations));
        this.violations = List.copyOf(violations);
    }

    /** A rejection for one broken {@code rule}. */
    public RejectedException(Rule rule, String subject, String message) {
        this(List.of(new Violation(rule, subject, message)));
    }

    /** Every violation found, in the order they were checked; never empty. */
    public List<Violation> violations() {
        return violations;
    }

    private static String describe(List<Violation> vs) {
        if (vs.size() == 1) {
            return "rejected: " + vs.get(0);
        }
        return "rejected with " + vs.size() + " violations:\n"
                + vs.stream().map(v -> "  - " + v).collect(Collectors.joining("\n"));
    }
}
