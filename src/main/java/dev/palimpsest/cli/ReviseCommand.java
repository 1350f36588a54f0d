package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "revise", description = "Write a new version of a live fact (new body, added refs, new validity),"
        + " or of a merge, edge or summary with new receipts (--receipt, --sentence-receipts; the body kept unless given).")
final class ReviseCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Parameters(index = "0", paramLabel = "ID", description = "The live fact to revise.")
    String id;

    @Mixin
    Shared.Body body;

    @Mixin
    RefOptions refs;

    @Mixin
    Shared.ValidTime validTime;

    @Mixin
    ReceiptOptions receipts;

    @Override
    public Integer call() throws Exception {
        FactId fid = Parse.fact("ID", id);
        receipts.oneAtMost();
        if (receipts.none()) {
            String text = validTime.given() && body.text == null && body.file == null ? null
                    : TextInput.body(body, stdin(), home());
            java.time.Instant from = validTime.start();
            java.time.Instant until = validTime.end();
            try (Store store = open()) {
                CommitResult r = refs.commit(store.begin(Parse.actor("--actor", actor.name))
                        .revise(fid, java.util.Optional.ofNullable(text), refs.specs(store),
                                java.util.Optional.ofNullable(from), java.util.Optional.ofNullable(until)));
                WriteOutput.print(this, fid, r);
            }
            return Main.OK;
        }
        if (validTime.given()) {
            throw new Main.UsageException("--valid-from and --valid-until go without " + ReceiptOptions.RECEIPT
                    + " and " + ReceiptOptions.SENTENCES + ": change the validity in a revision of its own");
        }
        if (!refs.refs.isEmpty() || !refs.quotes.isEmpty()) {
            throw new Main.UsageException("--ref and --quote go without " + ReceiptOptions.RECEIPT + " and "
                    + ReceiptOptions.SENTENCES + ": a revision with receipts changes the receipts (and the body);"
                    + " add refs in a revision of their own");
        }
        boolean bodyGiven = body.text != null || body.file != null;
        if (bodyGiven && receipts.sentences != null) {
            throw new Main.UsageException("--body goes without " + ReceiptOptions.SENTENCES
                    + ": a sentence summary's body is its sentences");
        }
        String text = bodyGiven ? TextInput.body(body, stdin(), home()) : null;
        try (Store store = open()) {
            Transaction tx = store.begin(Parse.actor("--actor", actor.name));
            Receipt receipt = receipts.receipt(store);
            if (receipt != null) {
                tx = text == null ? tx.revise(fid, receipt) : tx.revise(fid, text, receipt);
            } else {
                tx = tx.revise(fid, receipts.sentences(store, home()));
            }
            WriteOutput.print(this, fid, tx.commit());
        }
        return Main.OK;
    }
}
