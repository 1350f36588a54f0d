package dev.palimpsest.cli;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "assert", description = "Write a new fact as one signed commit. A merge, edge or summary carries"
        + " receipts: --receipt bundles (a summary's: one flat receipt) or --sentence-receipts (a summary's"
        + " sentences, which are then its body unless --body is given).")
final class AssertCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Mixin
    Shared.Body body;

    @Option(names = "--id", paramLabel = "ID", description = "The fact id (default: minted, <kind>-<12 hex>).")
    String id;

    @Option(names = "--kind", paramLabel = "KIND", defaultValue = "claim",
            description = "claim (default), source, hypothesis, ...")
    String kind;

    @Option(names = "--confidence", paramLabel = "X", description = "In [0, 1].")
    Double confidence;

    @Option(names = "--subsumes", paramLabel = "HYP",
            description = "Cite hypothesis HYP (role subsumes) and retract it in the same commit.")
    String subsumes;

    @Mixin
    RefOptions refs;

    @Mixin
    ReceiptOptions receipts;

    @Mixin
    Shared.Sealing sealing;

    @Mixin
    Shared.ValidTime validTime;

    @Override
    public Integer call() throws Exception {
        receipts.oneAtMost();
        boolean bodyGiven = body.text != null || body.file != null;
        String text = bodyGiven || receipts.sentences == null ? TextInput.body(body, stdin(), home()) : null;
        FactId given = Parse.fact("--id", id);
        FactId hypothesis = Parse.fact("--subsumes", subsumes);
        Kind k = Parse.kind(kind);
        try (Store store = open()) {
            Transaction tx = store.begin(Parse.actor("--actor", actor.name));
            Receipt receipt = receipts.receipt(store);
            List<Sentence> sentences = receipts.sentences(store, home());
            if (text == null) {
                text = ReceiptOptions.joined(sentences);
            }
            FactSpec spec = validTime.apply(sealing.apply(WriteOutput.spec(k, text, given, confidence, refs.specs(store))
                    .grounding(ReceiptOptions.grounding(k, receipt, sentences))));
            FactId fid = hypothesis == null ? tx.assertFact(spec) : tx.subsume(hypothesis, spec);
            CommitResult r = refs.commit(tx, given, fid);
            WriteOutput.print(this, fid, r);
        }
        return Main.OK;
    }
}
