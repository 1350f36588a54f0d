package dev.palimpsest.api;

import dev.palimpsest.internal.judge.Reviewer;
import dev.palimpsest.internal.judge.Vendors;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.LabelledClaim;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Verdict;
import dev.palimpsest.model.VerifierStats;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Verifies claims against their sources, failing closed: the quote anchor runs first (a quote under
 * 12 characters, or one not in the source with whitespace collapsed, is rejected and the reviewer is
 * never called); then the reviewer gets one message with the claim, the evidence verbatim and 240
 * characters of source either side, and only a JSON boolean {@code true} for {@code supported}
 * accepts. Verifiers are scored by four counters, never one accuracy. Thread-safe when the judge is;
 * arguments must not be null.
 */
public final class Verification {
    private final Store store;

    Verification(Store store) {
        this.store = store;
    }

    /** The verdict on {@code claim} citing {@code quote} from the text {@code source}. */
    public static Verdict verify(Judge reviewer, String claim, String quote, String source) {
        Objects.requireNonNull(reviewer, "reviewer");
        return Reviewer.verify(reviewer, Objects.requireNonNull(claim, "claim"), Objects.requireNonNull(quote, "quote"),
                Objects.requireNonNull(source, "source"));
    }

    /**
     * The verdict on {@code claim} citing {@code quote} from the body of fact {@code source} at the
     * tip of main.
     *
     * @throws NotFoundException the source is not live at the tip of main
     */
    public Verdict verify(Judge reviewer, FactId source, String quote, String claim) throws NotFoundException {
        Objects.requireNonNull(reviewer, "reviewer");
        Objects.requireNonNull(quote, "quote");
        Objects.requireNonNull(claim, "claim");
        return verify(reviewer, claim, quote, body(source, store.head()));
    }

    /**
     * The verdict on {@code claim} citing {@code quote} from the body of fact {@code source} at
     * {@code at}.
     *
     * @throws NotFoundException the commit is not in the store, or the source is not live at it
     */
    public Verdict verify(Judge reviewer, FactId source, CommitId at, String quote, String claim)
            throws NotFoundException {
        return verify(reviewer, claim, quote, body(source, at));
    }

    /** The body of fact {@code source} at {@code at}. */
    String body(FactId source, CommitId at) throws NotFoundException {
        FactRead r = store.read(Objects.requireNonNull(source, "source"), Objects.requireNonNull(at, "at"));
        if (r instanceof FactRead.Found f) {
            return f.fact().body();
        }
        throw new NotFoundException("source " + source + " is not live at " + at.hex());
    }

    /**
     * The four counters of {@code reviewer} against {@code labels}; a source named by id is read at
     * main's tip.
     *
     * @throws NotFoundException a source named by id is not live at main's tip
     */
    public VerifierStats evaluate(Judge reviewer, List<LabelledClaim> labels) throws NotFoundException {
        VerifierStats s = new VerifierStats(0, 0, 0, 0);
        CommitId head = null;
        for (LabelledClaim l : labels) {
            String text = l.sourceText();
            if (text == null) {
                head = head == null ? store.head() : head;
                text = body(l.source(), head);
            }
            s = s.plus(verify(reviewer, l.claim(), l.quote(), text).accepted(), l.supported());
        }
        return s;
    }

    /**
     * The labelled claims of a labels file: a YAML or JSON list of {@code claim}, {@code quote},
     * {@code source} (a fact id) or {@code source_text}, and {@code supported} (boolean).
     *
     * @throws RejectedException the file is not such a list; every bad entry is listed
     */
    public static List<LabelledClaim> parseLabels(byte[] file) throws RejectedException {
        return dev.palimpsest.internal.judge.LabelsFile.parse(Objects.requireNonNull(file, "file"));
    }

    /**
     * Checks that {@code reviewer} is not the model that wrote the claim ({@code author}, a model id
     * such as {@code openrouter/anthropic/claude-haiku-4.5}): the same model by any route is refused;
     * a reviewer of the same vendor gives a warning (correlated agreement follows training lineage).
     *
     * @throws RejectedException rule {@code reviewer-is-author}: the two name the same model
     */
    public static Optional<String> checkPair(String author, String reviewer) throws RejectedException {
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(reviewer, "reviewer");
        if (Vendors.sameModel(author, reviewer)) {
            throw new RejectedException(Rule.REVIEWER_IS_AUTHOR, "--author-model",
                    "reviewer '" + reviewer + "' is the author's model '" + author + "'; use a different model");
        }
        if (Vendors.sameVendor(author, reviewer)) {
            return Optional.of("reviewer '" + reviewer + "' and author '" + author + "' share the vendor "
                    + Vendors.vendor(author) + ": their errors may be correlated");
        }
        return Optional.empty();
    }
}
