package dev.palimpsest.internal.claims;

import dev.palimpsest.model.EntityKey;
import java.util.Objects;

/**
 * One version of a claim as the index keeps it: the triple as written, with its normalised keys,
 * the first source it cites, its run (null when none) and confidence (null when none). Immutable.
 */
record ClaimRecord(String id, String subject, String predicate, String object, String source, String run,
        Double confidence, String subjectKey, String predicateKey, String objectKey) {
    ClaimRecord {
        Objects.requireNonNull(id, "id");
    }

    static ClaimRecord of(String id, String subject, String predicate, String object, String source, String run,
            Double confidence) {
        return new ClaimRecord(id, subject, predicate, object, source, run, confidence, EntityKey.of(subject),
                EntityKey.of(predicate), EntityKey.of(object));
    }
}
