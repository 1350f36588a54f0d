package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The content of one version of a fact, exactly as its YAML file stores it.
 *
 * <p>{@code confidence} is optional (null when absent) and, when present, lies in [0, 1].
 * Immutable; lists are copied.
 */
public record Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs) {
    public Fact {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("fact " + id + ": body must not be empty");
        }
        if (confidence != null && !(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("fact " + id + ": confidence " + confidence + " is not in [0, 1]");
        }
        refs = List.copyOf(refs == null ? List.of() : refs);
    }
}
