package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The models a re-derivation audit asks: none (only entailed edges are decided, symbolically), one
 * oracle, or an oracle and a second one whose agreement with the first is reported; each draw is
 * sampled at {@code temperature} with its draw index, so that draws are independent. Immutable and
 * thread-safe; nothing may be null, at most two judges, temperature in [0, 2].
 */
public record AuditOracles(List<Judge> judges, double temperature) {
    /** The sampling temperature of the paper's draws when none is given. */
    public static final double DEFAULT_TEMPERATURE = 1.0;

    /** No model: merges, summaries and model-authored edges stay ungraded. */
    public static final AuditOracles NONE = new AuditOracles(List.of(), DEFAULT_TEMPERATURE);

    public AuditOracles {
        judges = List.copyOf(Objects.requireNonNull(judges, "judges"));
        if (judges.size() > 2) {
            throw new IllegalArgumentException("an audit asks at most two oracles, got " + judges.size());
        }
        if (!(temperature >= 0.0 && temperature <= 2.0)) {
            throw new IllegalArgumentException("temperature must be in [0, 2], got " + temperature);
        }
    }

    /** One oracle at the default temperature. */
    public static AuditOracles of(Judge judge) {
        return new AuditOracles(List.of(judge), DEFAULT_TEMPERATURE);
    }

    /** An oracle and a second one, at the default temperature. */
    public static AuditOracles of(Judge judge, Judge second) {
        return new AuditOracles(List.of(judge, second), DEFAULT_TEMPERATURE);
    }

    /** The same judges sampled at {@code t}. */
    public AuditOracles withTemperature(double t) {
        return new AuditOracles(judges, t);
    }
}
