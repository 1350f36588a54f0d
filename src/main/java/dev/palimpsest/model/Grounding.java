package dev.palimpsest.model;

import java.util.List;

/**
 * What a layered fact rests on, beyond its refs: the typed triple of an assertion or edge
 * ({@code subject}, {@code predicate}, {@code object}: all three or none), the receipt of a derived
 * artifact, the per-sentence receipts of a summary, and whether a summary's receipt is one flat
 * receipt for the whole text, and (claims only) the reviewer's verdict recorded when the claim was
 * written with verification ({@code review}, null when none). {@link #NONE} for plain facts.
 *
 * <p>Immutable; rejects inconsistent combinations with an {@link IllegalArgumentException}: a
 * predicate is non-blank text of at most {@link Limits#MAX_PREDICATE} characters (claims say {@code times out after};
 * assertions and edges use tokens such as {@code part_of}), sentences exclude a whole-fact receipt, and
 * {@code flat} needs a receipt.
 *
 * <p>Immutable and thread-safe; triple parts and {@code receipt} may be null as described, {@code
 * sentences} null means empty.
 */
public record Grounding(String subject, String predicate, String object, Receipt receipt, List<Sentence> sentences,
        boolean flat, ClaimReview review) {
    public static final Grounding NONE = new Grounding(null, null, null, null, List.of(), false);

    /** A grounding without a recorded review. */
    public Grounding(String subject, String predicate, String object, Receipt receipt, List<Sentence> sentences,
            boolean flat) {
        this(subject, predicate, object, receipt, sentences, flat, null);
    }

    public Grounding {
        sentences = List.copyOf(sentences == null ? List.of() : sentences);
        int parts = (subject == null ? 0 : 1) + (predicate == null ? 0 : 1) + (object == null ? 0 : 1);
        if (parts != 0 && parts != 3) {
            throw new IllegalArgumentException("a triple needs subject, predicate and object together");
        }
        if (parts == 3) {
            if (subject.isBlank() || object.isBlank()) {
                throw new IllegalArgumentException("a triple's subject and object must not be blank");
            }
            if (predicate.isBlank() || predicate.length() > Limits.MAX_PREDICATE) {
                throw new IllegalArgumentException("a triple's predicate must be non-blank text of at most "
                        + Limits.MAX_PREDICATE + " characters");
            }
        }
        if (receipt != null && !sentences.isEmpty()) {
            throw new IllegalArgumentException("a summary has either sentence receipts or one flat receipt, not both");
        }
        if (flat && receipt == null) {
            throw new IllegalArgumentException("flat: true needs a receipt");
        }
    }

    /** A triple without receipts (an assertion's content). */
    public static Grounding triple(String subject, String predicate, String object) {
        return new Grounding(subject, predicate, object, null, List.of(), false);
    }

    public boolean hasTriple() {
        return predicate != null;
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    /** The same grounding with another receipt and sentences (pins resolved by the gate). */
    public Grounding withReceipts(Receipt r, List<Sentence> s) {
        return new Grounding(subject, predicate, object, r, s, flat, review);
    }

    /**
     * The same grounding with the reviewer's verdict recorded (null: none). Plumbing of verified claims
     * and the gate, public for them.
     */
    public Grounding withReview(ClaimReview value) {
        return new Grounding(subject, predicate, object, receipt, sentences, flat, value);
    }
}
