package dev.palimpsest.cli;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Sentence;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --receipt ID[@COMMIT],...} (repeatable: each occurrence one alternative evidence
 * bundle) and {@code --sentence-receipts FILE} options of a write, turned into a receipt or a
 * summary's sentences through the public API ({@code Receipts.receipt}, {@code Receipts.sentences}).
 */
final class ReceiptOptions {
    static final String RECEIPT = "--receipt";
    static final String SENTENCES = "--sentence-receipts";

    @Option(names = RECEIPT, paramLabel = "ID[@COMMIT],...",
            description = "One evidence bundle, sufficient on its own: the members' ids, comma-separated, each pinned"
                    + " at the write or as read at COMMIT. Repeatable: each occurrence is an alternative bundle (at most"
                    + " 8). For a merge, an edge or a flat summary.")
    List<String> bundles = new ArrayList<>();

    @Option(names = SENTENCES, paramLabel = "FILE",
            description = "A summary's sentences with their receipts (YAML or JSON): a list of {text, receipt: [[ID,"
                    + " ...], ...]} as in an ingest batch, or a mapping from each sentence to its bundles.")
    Path sentences;

    /** True when neither option is given. */
    boolean none() {
        return bundles.isEmpty() && sentences == null;
    }

    /** Refuses both options together. */
    void oneAtMost() {
        if (!bundles.isEmpty() && sentences != null) {
            throw new Main.UsageException(RECEIPT + " and " + SENTENCES + " exclude each other: a summary has either"
                    + " sentence receipts or one flat receipt");
        }
    }

    /** The receipt of the {@code --receipt} bundles; null when none is given. */
    Receipt receipt(Store store) throws RejectedException {
        if (bundles.isEmpty()) {
            return null;
        }
        List<List<String>> parsed = new ArrayList<>();
        for (String b : bundles) {
            List<String> members = new ArrayList<>();
            for (String m : TextInput.arg(RECEIPT, b).split(",", -1)) {
                members.add(m.strip());
            }
            parsed.add(members);
        }
        return store.receipts().receipt(RECEIPT, parsed);
    }

    /** The sentences of the {@code --sentence-receipts} file; null when none is given. */
    List<Sentence> sentences(Store store, KeyHome home) throws RejectedException {
        if (sentences == null) {
            return null;
        }
        byte[] bytes = TextInput.bytes(SENTENCES + " " + sentences, sentences, Limits.MAX_INGEST_FILE, home);
        return store.receipts().sentences(SENTENCES, bytes);
    }

    /**
     * The grounding of a new fact of {@code kind}: the receipt (a summary's flat one, recorded
     * {@code flat: true}) or the sentences; {@link Grounding#NONE} when neither is given.
     */
    static Grounding grounding(Kind kind, Receipt receipt, List<Sentence> sentences) {
        if (receipt != null) {
            return new Grounding(null, null, null, receipt, List.of(), Kind.SUMMARY.equals(kind));
        }
        return sentences == null ? Grounding.NONE : new Grounding(null, null, null, null, sentences, false);
    }

    /** The sentences' texts joined by a space: a sentence summary's default body. */
    static String joined(List<Sentence> sentences) {
        return String.join(" ", sentences.stream().map(Sentence::text).toList());
    }
}
