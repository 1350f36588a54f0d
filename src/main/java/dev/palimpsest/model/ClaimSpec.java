package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * What an agent claims about an entity: {@code subject}, {@code predicate}, {@code object} and at
 * least one source (each cited with ref role {@code source}, pinned by the gate; an optional quote
 * anchors it), optionally the agent {@code run} that learned it, a {@code confidence}, the
 * claim's {@code id} (minted when absent) and a {@code body} (default: the three parts joined by
 * spaces). Start with {@link #of} and add what you need. The gate checks everything when the
 * transaction commits.
 *
 * <p>Immutable and thread-safe; setter-like methods return a new spec.
 */
public record ClaimSpec(FactId id, String subject, String predicate, String object, List<RefSpec> sources,
        String run, Double confidence, String body, boolean sensitive, java.time.Instant retainUntil,
        boolean plaintext, java.time.Instant validFrom, java.time.Instant validUntil) {
    /** A claim valid at every instant. */
    public ClaimSpec(FactId id, String subject, String predicate, String object, List<RefSpec> sources,
            String run, Double confidence, String body, boolean sensitive, java.time.Instant retainUntil,
            boolean plaintext) {
        this(id, subject, predicate, object, sources, run, confidence, body, sensitive, retainUntil, plaintext, null, null);
    }

    /** A claim without an explicit plaintext choice. */
    public ClaimSpec(FactId id, String subject, String predicate, String object, List<RefSpec> sources,
            String run, Double confidence, String body, boolean sensitive, java.time.Instant retainUntil) {
        this(id, subject, predicate, object, sources, run, confidence, body, sensitive, retainUntil, false);
    }

    /** A claim sealed only when the store seals everything or a source is sealed, without a deadline. */
    public ClaimSpec(FactId id, String subject, String predicate, String object, List<RefSpec> sources,
            String run, Double confidence, String body) {
        this(id, subject, predicate, object, sources, run, confidence, body, false, null);
    }

    /**
     * The same claim written sealed ({@code sensitive}) and/or with a retention deadline (null: none).
     *
     * @deprecated a null deadline meant none; use {@link #asSensitive()} and {@link #retainedUntil}, each
     *     only when it applies.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public ClaimSpec sealing(boolean isSensitive, java.time.Instant deadline) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, isSensitive, deadline, plaintext, validFrom, validUntil);
    }

    /** The same claim written sealed (encrypted with its own data key, so it can be forgotten). */
    public ClaimSpec asSensitive() {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, true, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same claim with a retention deadline (sealed; {@code expire} forgets it once the deadline passed). */
    public ClaimSpec retainedUntil(java.time.Instant deadline) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, sensitive,
                Objects.requireNonNull(deadline, "deadline"), plaintext, validFrom, validUntil);
    }

    /** The same claim kept in the clear although a source is sealed ({@link FactSpec#asPlaintext()}). */
    public ClaimSpec asPlaintext() {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, sensitive, retainUntil, true, validFrom, validUntil);
    }

    /** The same claim valid in the world from {@code value} on ({@link FactSpec#validFrom}). */
    public ClaimSpec validFrom(java.time.Instant value) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, sensitive, retainUntil,
                plaintext, Objects.requireNonNull(value, "validFrom"), validUntil);
    }

    /** The same claim valid in the world until {@code value}, exclusive ({@link FactSpec#validUntil}). */
    public ClaimSpec validUntil(java.time.Instant value) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence, body, sensitive, retainUntil,
                plaintext, validFrom, Objects.requireNonNull(value, "validUntil"));
    }

    public ClaimSpec {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        Objects.requireNonNull(object, "object");
        sources = List.copyOf(Objects.requireNonNull(sources, "sources"));
    }

    /** A claim citing {@code source} (role {@code source}, pinned at the commit the write lands on). */
    public static ClaimSpec of(String subject, String predicate, String object, FactId source) {
        return new ClaimSpec(null, subject, predicate, object, List.of(RefSpec.of(source, RefRole.SOURCE)), null,
                null, null);
    }

    public ClaimSpec id(FactId value) {
        return new ClaimSpec(Objects.requireNonNull(value, "id"), subject, predicate, object, sources, run,
                confidence, body, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec citing these sources instead (each should have role {@code source}). */
    public ClaimSpec sources(List<RefSpec> value) {
        return new ClaimSpec(id, subject, predicate, object, value, run, confidence, body, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    public ClaimSpec run(String value) {
        return new ClaimSpec(id, subject, predicate, object, sources, Objects.requireNonNull(value, "run"),
                confidence, body, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    public ClaimSpec confidence(double value) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, value, body, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    public ClaimSpec body(String value) {
        return new ClaimSpec(id, subject, predicate, object, sources, run, confidence,
                Objects.requireNonNull(value, "body"), sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The fact this claim is written as (kind {@code entity-claim}). */
    public FactSpec toFactSpec() {
        String text = body != null ? body : subject + " " + predicate + " " + object;
        FactSpec f = FactSpec.of(Kind.ENTITY_CLAIM, text).refs(sources)
                .grounding(Grounding.triple(subject, predicate, object));
        if (id != null) {
            f = f.id(id);
        }
        if (confidence != null) {
            f = f.confidence(confidence);
        }
        f = run == null ? f : f.run(run);
        f = sensitive ? f.asSensitive() : f;
        f = plaintext ? f.asPlaintext() : f;
        f = validFrom == null ? f : f.validFrom(validFrom);
        f = validUntil == null ? f : f.validUntil(validUntil);
        return retainUntil == null ? f : f.retainedUntil(retainUntil);
    }
}
