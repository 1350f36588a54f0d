package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RejectedException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Supersession by addition and atomic consolidation. */
final class ConsolidateCommands {
    private ConsolidateCommands() {}

    @Command(name = "supersede", description = "Write a new fact that supersedes OLD; OLD stays live, a dated snapshot.")
    static final class Supersede extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Parameters(index = "0", paramLabel = "OLD", description = "The fact superseded; it stays live.")
        String old;

        @Mixin
        Shared.Body body;

        @Option(names = "--id", paramLabel = "ID", description = "The new fact's id (default: minted).")
        String id;

        @Option(names = "--kind", paramLabel = "KIND", defaultValue = "claim", description = "Default: claim.")
        String kind;

        @Option(names = "--confidence", paramLabel = "X", description = "In [0, 1].")
        Double confidence;

        @Mixin
        RefOptions refs;

        @Mixin
        Shared.ValidTime validTime;

        @Override
        public Integer call() throws Exception {
            FactId superseded = Parse.fact("OLD", old);
            FactId given = Parse.fact("--id", id);
            String text = TextInput.body(body, stdin(), home());
            try (Store store = open()) {
                Transaction tx = store.begin(Parse.actor("--actor", actor.name));
                FactId fid = tx.supersede(superseded, validTime.apply(WriteOutput.spec(Parse.kind(kind), text, given,
                        confidence, refs.specs(store))));
                CommitResult r = refs.commit(tx, given, fid);
                WriteOutput.print(this, fid, r);
            }
            return Main.OK;
        }
    }

    @Command(name = "merge", description = "Write the merged fact (merged_from refs, pooled evidence) and retract the inputs, in one commit.")
    static final class Merge extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Parameters(index = "0..*", arity = "2..*", paramLabel = "ID", description = "The live facts merged (retracted).")
        List<String> inputs;

        @Mixin
        Shared.Body body;

        @Option(names = "--id", paramLabel = "ID", description = "The merged fact's id (default: minted).")
        String id;

        @Option(names = "--kind", paramLabel = "KIND", defaultValue = "claim", description = "Default: claim.")
        String kind;

        @Option(names = "--confidence", paramLabel = "X", description = "In [0, 1].")
        Double confidence;

        @Override
        public Integer call() throws Exception {
            List<FactId> merged = Parse.facts("ID", inputs);
            FactId given = Parse.fact("--id", id);
            String text = TextInput.body(body, stdin(), home());
            try (Store store = open()) {
                Transaction tx = store.begin(Parse.actor("--actor", actor.name));
                FactId fid;
                try {
                    fid = tx.merge(merged, WriteOutput.spec(Parse.kind(kind), text, given, confidence, List.of()));
                } catch (IllegalArgumentException e) { // documented: fewer than two distinct inputs
                    throw new RejectedException(Parse.INVALID_ARGUMENT, "ID", e.getMessage());
                }
                CommitResult r;
                try {
                    r = tx.commit();
                } catch (RejectedException e) {
                    throw Failure.unminted(e, given == null ? fid : null);
                }
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", fid.value());
                    m.put("commit", r.id().hex());
                    m.put("retracted", r.retracted().stream().map(FactId::value).toList());
                    printJson(m);
                } else {
                    out().println(fid + " " + r.id().hex() + " (retracted " + r.retracted() + ")");
                }
            }
            return Main.OK;
        }
    }
}
