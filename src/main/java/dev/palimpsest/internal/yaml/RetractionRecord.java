package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactVersion;
import java.util.Objects;

/** The file a retraction writes: the retracted version's pin, the reason and the actor. Immutable. */
public record RetractionRecord(FactVersion version, String reason, ActorName actor) {
    public RetractionRecord {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(actor, "actor");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("retraction of " + version.id() + ": reason must not be empty");
        }
    }
}
