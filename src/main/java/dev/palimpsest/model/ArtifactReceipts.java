package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * The receipts of one fact as of a commit, with what is alive there: its receipt's bundles (a
 * merge's, an edge's or a flat summary's; empty for facts without one) and a sentence summary's
 * sentences, each member with its pin and whether it is alive at the commit. {@code live} says the
 * fact's file is in the commit's tree (false: retracted there, and these are its last version's
 * receipts); {@code alive} that it is alive by its receipts under the store's trust policy at the
 * commit (some bundle with every member alive; for a sentence summary, some sentence alive).
 *
 * <p>Immutable and thread-safe; every component is non-null.
 */
public record ArtifactReceipts(FactId id, Kind kind, CommitId at, boolean live, boolean alive, boolean flat,
        List<List<Member>> receipt, List<SentenceReceipt> sentences) {
    /** One member of a bundle: the pin the artifact records, and whether the member is alive at the commit. */
    public record Member(Pin pin, boolean alive) {
        public Member {
            Objects.requireNonNull(pin, "pin");
        }
    }

    /** One sentence of a summary: its text, whether some bundle of its receipt is alive, and its bundles. */
    public record SentenceReceipt(String text, boolean alive, List<List<Member>> bundles) {
        public SentenceReceipt {
            Objects.requireNonNull(text, "text");
            bundles = bundles.stream().map(List::copyOf).toList();
        }
    }

    public ArtifactReceipts {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(at, "at");
        receipt = receipt.stream().map(List::copyOf).toList();
        sentences = List.copyOf(sentences);
    }
}
