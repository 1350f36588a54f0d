package dev.palimpsest.demo;

import dev.palimpsest.model.Layer;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.api.Store;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.LayerCounts;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.ReceiptReport;
import dev.palimpsest.model.ReviewItem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Figure 1 story of "Keep Your Receipts": ingests {@code examples/receipts-corpus.yaml} into
 * {@code DIR/receipts.git}, entails edges, retracts the two retracted abstracts, and narrates
 * what died, what was kept and why. Not thread-safe.
 */
final class ReceiptsDemo {
    private static final List<FactId> RETRACTED = List.of(FactId.of("pmid-39973430"), FactId.of("pmid-40057077"));
    private final PrintWriter out;

    ReceiptsDemo(PrintWriter out) {
        this.out = out;
    }

    void run(Path dir, KeyHome home, ActorName actor) throws IOException, PalimpsestException {
        byte[] corpus;
        try (InputStream in = Demo.class.getResourceAsStream("/examples/receipts-corpus.yaml")) {
            if (in == null) {
                throw new IOException("the receipts corpus examples/receipts-corpus.yaml is missing from the jar");
            }
            corpus = in.readAllBytes();
        }
        Path gitDir = dir.resolve("receipts.git");
        out.println();
        out.println("Receipts (Figure 1 of \"Keep Your Receipts\") in " + gitDir);
        try (Store store = Store.initializer(gitDir).home(home).actor(actor).create()) {
            IngestResult ing = store.receipts().ingest(actor, corpus, false);
            out.println("1. ingest: " + ing.kinds() + " and the axioms, one commit " + ing.commit().id().abbreviated()
                    + "; every artifact carries its receipt (alternative bundles of evidence)");
            EntailResult ent = store.receipts().entail(actor);
            Entailer.Triple upstream = new Entailer.Triple("MAPK/ERK pathway", "upstream_of", "apoptosis");
            FactId edge = EntailSync.edgeId(upstream);
            out.println("2. entail: " + ent.edges() + " entailed edges, commit " + ent.commit().id().abbreviated()
                    + "; e.g. " + edge + " \"MAPK/ERK pathway upstream_of apoptosis\" rests on "
                    + bundles(store, edge, store.head()));
            ReceiptReport before = store.receipts().report(store.head());
            CommitId beforeCommit = store.head();
            CleanupPlan plan = store.receipts().planRetractSource(RETRACTED, "retracted by the journal");
            CommitResult landed = store.receipts().apply(actor, plan);
            out.println("3. retract-source " + RETRACTED + ": planned by set arithmetic over the receipts (no model"
                    + " calls), landed as one signed commit " + landed.id().abbreviated());
            out.println("   died:");
            out.println("     the abstracts and their assertions " + plan.roots());
            for (CleanupPlan.Removal r : plan.removals()) {
                out.println("     " + r.layer() + " " + r.id() + " \"" + body(store, r.id(), beforeCommit) + "\": " + r.why());
            }
            out.println("   kept:");
            out.println("     merge m1 \"" + body(store, FactId.of("m1"), beforeCommit) + "\": bundle [a1] lost a1, but bundle"
                    + " [a5] cites pmid-38800001, a paper that still stands");
            for (CleanupPlan.Revision r : plan.revisions()) {
                out.println("     summary " + r.id() + " (sentence receipts): dropped only sentence " + r.dropped()
                        + " \"AIM2 suppresses oral carcinoma.\", kept \"" + body(store, r.id(), landed.id()) + "\"");
            }
            out.println("   why the flat summary went: its one receipt [[a2], [a5]] still has a live bundle [a5], so"
                    + " trusting it would keep serving the dead AIM2 sentence; the layered policy (distrust, the"
                    + " default) removes every touched flat summary");
            out.println("4. receipts per layer, before -> after:");
            ReceiptReport after = store.receipts().report(landed.id());
            for (Layer layer : Layer.values()) {
                out.println("     " + layer + ": " + counts(before.layers().get(layer)) + " -> "
                        + counts(after.layers().get(layer)));
            }
            List<ReviewItem> review = store.receipts().review(landed.id());
            out.println("5. review queue: " + review.stream().map(i -> i.reason() + " " + i.id() + " (" + String.join(", ",
                    i.details()) + ")").collect(Collectors.joining("; ")));
            EntailResult again = store.receipts().entail(actor);
            out.println("6. entail again (incremental): " + again.added() + " added, " + again.retracted()
                    + " retracted: nothing the cascade removed is still derivable");
        }
    }

    private static String counts(LayerCounts c) {
        return c.alive() + " alive, " + c.dead() + " dead, " + c.touched() + " touched";
    }

    private static String body(Store store, FactId id, CommitId at) throws PalimpsestException {
        FactRead r = store.read(id, at);
        return r instanceof FactRead.Found f ? f.fact().body() : "?";
    }

    private static String bundles(Store store, FactId id, CommitId at) throws PalimpsestException {
        FactRead r = store.read(id, at);
        if (!(r instanceof FactRead.Found f)) {
            return "?";
        }
        Fact fact = f.fact();
        return fact.grounding().receipt().bundles().stream()
                .map(b -> b.stream().map(Pin::id).map(FactId::value).collect(Collectors.joining(", ", "[", "]")))
                .collect(Collectors.joining(" or "));
    }
}
