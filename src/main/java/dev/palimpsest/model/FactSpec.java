package dev.palimpsest.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a writer asks the store to assert: a fact's kind and body, and optionally its id (minted as
 * {@code <kind>-<12 hex>} when absent), its confidence, its refs and its grounding (the triple and
 * receipts of an assertion or a derived artifact). Start with {@link #of(Kind, String)} and add
 * what you need:
 *
 * <pre>{@code
 * FactSpec.of(Kind.CLAIM, "ERK regulates apoptosis").confidence(0.7).refs(RefSpec.cites(source))
 * }</pre>
 *
 * <p>The body, the confidence and the refs are checked by the reference gate when the transaction
 * commits, so that every violation is reported at once.
 *
 * <p>Immutable and thread-safe: every setter-like method returns a new spec. Arguments must not be
 * null ({@link NullPointerException}); {@link #id()} and {@link #confidence()} are null while not
 * set, {@link #refs()} is empty and {@link #grounding()} is {@link Grounding#NONE}.
 */
public record FactSpec(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, Grounding grounding,
        String run, boolean sensitive, java.time.Instant retainUntil, boolean plaintext, java.time.Instant validFrom,
        java.time.Instant validUntil) {
    /** A spec valid at every instant. */
    public FactSpec(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, Grounding grounding,
            String run, boolean sensitive, java.time.Instant retainUntil, boolean plaintext) {
        this(id, kind, body, confidence, refs, grounding, run, sensitive, retainUntil, plaintext, null, null);
    }

    /** A spec without an explicit plaintext choice. */
    public FactSpec(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, Grounding grounding,
            String run, boolean sensitive, java.time.Instant retainUntil) {
        this(id, kind, body, confidence, refs, grounding, run, sensitive, retainUntil, false);
    }

    /** A plaintext-by-default spec without a deadline. */
    public FactSpec(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, Grounding grounding,
            String run) {
        this(id, kind, body, confidence, refs, grounding, run, false, null);
    }

    /** A spec without a run. */
    public FactSpec(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, Grounding grounding) {
        this(id, kind, body, confidence, refs, grounding, null);
    }

    public FactSpec {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(body, "body");
        refs = List.copyOf(Objects.requireNonNull(refs, "refs"));
        Objects.requireNonNull(grounding, "grounding");
    }

    /** A spec of a fact of {@code kind} with {@code body}; no id (minted), confidence, refs or grounding. */
    public static FactSpec of(Kind kind, String body) {
        return new FactSpec(null, kind, body, null, List.of(), Grounding.NONE);
    }

    /** The same spec with the fact's id chosen by the writer. */
    public FactSpec id(FactId value) {
        return new FactSpec(Objects.requireNonNull(value, "id"), kind, body, confidence, refs, grounding, run, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec with a confidence (the gate requires it in [0, 1]). */
    public FactSpec confidence(double value) {
        return new FactSpec(id, kind, body, value, refs, grounding, run, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec with these refs instead of the ones given before. */
    public FactSpec refs(List<RefSpec> value) {
        return new FactSpec(id, kind, body, confidence, value, grounding, run, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec with these refs instead of the ones given before. */
    public FactSpec refs(RefSpec... value) {
        return refs(Arrays.asList(value));
    }

    /** The same spec with a grounding: a triple ({@link Grounding#triple}) or receipts. */
    public FactSpec grounding(Grounding value) {
        return new FactSpec(id, kind, body, confidence, refs, value, run, sensitive, retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec with the agent run that learned the fact (also a {@code Palimpsest-Run} trailer). */
    public FactSpec run(String value) {
        return new FactSpec(id, kind, body, confidence, refs, grounding, Objects.requireNonNull(value, "run"), sensitive,
                retainUntil, plaintext, validFrom, validUntil);
    }

    /** The same spec written sealed (encrypted with its own data key, so it can be forgotten). */
    public FactSpec asSensitive() {
        return new FactSpec(id, kind, body, confidence, refs, grounding, run, true, retainUntil, plaintext, validFrom,
                validUntil);
    }

    /** The same spec with a retention deadline (sealed; {@code expire} forgets it once the deadline passed). */
    public FactSpec retainedUntil(java.time.Instant value) {
        return new FactSpec(id, kind, body, confidence, refs, grounding, run, sensitive, Objects.requireNonNull(value, "retainUntil"),
                plaintext, validFrom, validUntil);
    }

    /**
     * The same spec kept in the clear although it cites, quotes or rests on sealed content: by
     * default such a fact is sealed (sensitivity follows provenance). The choice is recorded in the
     * fact ({@code plaintext: true}) so the audit sees it was deliberate; the gate refuses it on a
     * spec that is also sensitive or has a retention deadline.
     */
    public FactSpec asPlaintext() {
        return new FactSpec(id, kind, body, confidence, refs, grounding, run, sensitive, retainUntil, true, validFrom,
                validUntil);
    }

    /**
     * The same spec valid in the world from {@code value} on (its {@code valid_from}; a whole-second
     * instant, checked by the gate with the rules {@code valid-time-malformed} and
     * {@code valid-time-inverted}). Without it the validity has an open start.
     */
    public FactSpec validFrom(java.time.Instant value) {
        return new FactSpec(id, kind, body, confidence, refs, grounding, run, sensitive, retainUntil, plaintext,
                Objects.requireNonNull(value, "validFrom"), validUntil);
    }

    /** The same spec valid in the world until {@code value}, exclusive (its {@code valid_until}); as {@link #validFrom}. */
    public FactSpec validUntil(java.time.Instant value) {
        return new FactSpec(id, kind, body, confidence, refs, grounding, run, sensitive, retainUntil, plaintext,
                validFrom, Objects.requireNonNull(value, "validUntil"));
    }
}
