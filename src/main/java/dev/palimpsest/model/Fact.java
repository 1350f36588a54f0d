package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The content of one version of a fact, exactly as its YAML file stores it.
 *
 * <p>{@code confidence} is optional (null when absent) and, when present, lies in [0, 1].
 * {@code pooled} is the evidence a merge absorbed from its inputs before retracting them: each
 * source in the inputs' live lineage with its mass (empty for facts that are not merges; masses
 * finite and not negative). A pooled source still stops counting once it is retracted.
 * {@code grounding} holds the triple and receipts of assertions and derived artifacts
 * ({@link Grounding#NONE}, never null, otherwise). Collections are copied (pooled sorted by id).
 * {@code run} names the agent run that learned the fact (claims; null when absent, else matching
 * {@code [A-Za-z0-9][A-Za-z0-9._:-]{0,79}}). {@code seal} is the envelope of a sealed (encrypted)
 * version, null for plaintext; when it is not {@link Seal#open() open} the content fields hold
 * {@link Seal#UNAVAILABLE}. {@code retainUntil} is the retention deadline (null: none), whole seconds.
 * {@code plaintext} records that the writer explicitly chose to keep this fact in the clear although
 * it cites, quotes or rests on sealed content (YAML {@code plaintext: true}); a sealed fact never
 * carries it. {@code validity} is when the fact was true in the world ({@link Validity#ALWAYS} when the
 * file holds neither {@code valid_from} nor {@code valid_until}).
 *
 * <p>Immutable and thread-safe; {@code id}, {@code kind} and a non-blank {@code body} are
 * required; {@code confidence} may be null, null collections mean empty. Text holding a lone UTF-16
 * surrogate (body, quotes, triple, sentences, review) is refused with an {@link InvalidTextException}.
 */
public record Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
        java.util.SortedMap<FactId, Double> pooled, Grounding grounding, String run, Seal seal,
        java.time.Instant retainUntil, boolean plaintext, Validity validity) {
    /** A fact valid at every instant (no {@code valid_from}, no {@code valid_until}). */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
            java.util.SortedMap<FactId, Double> pooled, Grounding grounding, String run, Seal seal,
            java.time.Instant retainUntil, boolean plaintext) {
        this(id, kind, body, confidence, refs, pooled, grounding, run, seal, retainUntil, plaintext, Validity.ALWAYS);
    }

    /** A fact without an explicit plaintext choice. */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
            java.util.SortedMap<FactId, Double> pooled, Grounding grounding, String run, Seal seal,
            java.time.Instant retainUntil) {
        this(id, kind, body, confidence, refs, pooled, grounding, run, seal, retainUntil, false);
    }

    /** A plaintext fact without a retention deadline. */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
            java.util.SortedMap<FactId, Double> pooled, Grounding grounding, String run) {
        this(id, kind, body, confidence, refs, pooled, grounding, run, null, null);
    }

    /** A fact without a run. */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
            java.util.SortedMap<FactId, Double> pooled, Grounding grounding) {
        this(id, kind, body, confidence, refs, pooled, grounding, null);
    }

    /** A fact without pooled evidence. */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs) {
        this(id, kind, body, confidence, refs, null);
    }

    /** A fact without a grounding (no triple, no receipts). */
    public Fact(FactId id, Kind kind, String body, Double confidence, List<Ref> refs,
            java.util.SortedMap<FactId, Double> pooled) {
        this(id, kind, body, confidence, refs, pooled, Grounding.NONE);
    }

    public Fact {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("fact " + id + ": body must not be empty");
        }
        if (confidence != null && !(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("fact " + id + ": confidence " + confidence + " is not in [0, 1]");
        }
        pooled = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(pooled == null ? java.util.Map.of() : pooled));
        for (var e : pooled.entrySet()) {
            if (!(e.getValue() >= 0.0 && e.getValue() < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("fact " + id + ": pooled mass of " + e.getKey() + " is not finite and >= 0");
            }
        }
        refs = List.copyOf(refs == null ? List.of() : refs);
        grounding = grounding == null ? Grounding.NONE : grounding;
        validity = validity == null ? Validity.ALWAYS : validity;
        if (run != null && !validRun(run)) {
            throw new IllegalArgumentException("fact " + id + ": run '" + run
                    + "' does not match [A-Za-z0-9][A-Za-z0-9._:-]{0,79}");
        }
        requireText(id, body, refs, grounding);
        if (plaintext && seal != null) {
            throw new IllegalArgumentException("fact " + id + ": a sealed fact cannot be marked plaintext");
        }
    }

    /** Refuses text no UTF-8 file can hold: a lone surrogate in the body, a quote, the triple, a sentence, a review. */
    private static void requireText(FactId id, String body, List<Ref> refs, Grounding g) {
        String what = "fact " + id + ": ";
        Text.require(what + "subject", g.subject());
        Text.require(what + "predicate", g.predicate());
        Text.require(what + "object", g.object());
        for (Sentence s : g.sentences()) {
            Text.require(what + "sentence", s.text());
        }
        for (Ref r : refs) {
            Text.require(what + "quote of the ref to " + r.id(), r.quote());
        }
        if (g.review() != null) {
            Text.require(what + "review model", g.review().model());
            Text.require(what + "review reason", g.review().reason());
        }
        Text.require(what + "body", body);
    }

    /** True when the content is sealed and its key was absent: the content fields are placeholders. */
    public boolean contentUnavailable() {
        return seal != null && !seal.open();
    }

    /** The same fact with another seal (null: plaintext). Plumbing of the store's sealing, public for it. */
    public Fact withSeal(Seal value) {
        return new Fact(id, kind, body, confidence, refs, pooled, grounding, run, value, retainUntil,
                value == null && plaintext, validity);
    }

    /** The same fact with another retention deadline (null: none). Plumbing of the store's gate, public for it. */
    public Fact withRetainUntil(java.time.Instant value) {
        return new Fact(id, kind, body, confidence, refs, pooled, grounding, run, seal, value, plaintext, validity);
    }

    /** The same fact with other refs. */
    public Fact withRefs(List<Ref> value) {
        return new Fact(id, kind, body, confidence, value, pooled, grounding, run, seal, retainUntil, plaintext, validity);
    }

    /** The same fact with the writer's explicit plaintext choice set or cleared. */
    public Fact withPlaintext(boolean value) {
        return new Fact(id, kind, body, confidence, refs, pooled, grounding, run, seal, retainUntil, value, validity);
    }

    /** The same fact with another validity. */
    public Fact withValidity(Validity value) {
        return new Fact(id, kind, body, confidence, refs, pooled, grounding, run, seal, retainUntil, plaintext,
                java.util.Objects.requireNonNull(value, "validity"));
    }

    /** True when {@code run} is a valid run name: {@code [A-Za-z0-9][A-Za-z0-9._:-]{0,79}}. */
    public static boolean validRun(String run) {
        if (run == null || run.isEmpty() || run.length() > 80) {
            return false;
        }
        for (int i = 0; i < run.length(); i++) {
            char c = run.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && (i == 0 || (c != '.' && c != '_' && c != ':' && c != '-'))) {
                return false;
            }
        }
        return true;
    }
}
