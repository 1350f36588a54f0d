package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
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
        @Option(names = "--actor", required = true)
        String actor;

        @Parameters(index = "0", paramLabel = "OLD")
        String old;

        @Option(names = "--body", required = true)
        String body;

        @Option(names = "--id")
        String id;

        @Option(names = "--kind", defaultValue = "claim")
        String kind;

        @Option(names = "--confidence")
        Double confidence;

        @Mixin
        RefOptions refs;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                Transaction tx = store.begin(ActorName.of(actor));
                FactId fid = tx.supersede(FactId.of(old), WriteOutput.spec(kind, body, id, confidence, refs.specs(store)));
                WriteOutput.print(this, fid, tx.commit());
            }
            return Main.OK;
        }
    }

    @Command(name = "merge", description = "Write the merged fact (merged_from refs, pooled evidence) and retract the inputs, in one commit.")
    static final class Merge extends Context implements Callable<Integer> {
        @Option(names = "--actor", required = true)
        String actor;

        @Parameters(index = "0..*", arity = "2..*", paramLabel = "ID")
        List<String> inputs;

        @Option(names = "--body", required = true)
        String body;

        @Option(names = "--id")
        String id;

        @Option(names = "--kind", defaultValue = "claim")
        String kind;

        @Option(names = "--confidence")
        Double confidence;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                Transaction tx = store.begin(ActorName.of(actor));
                FactId fid = tx.merge(inputs.stream().map(FactId::of).toList(),
                        WriteOutput.spec(kind, body, id, confidence, List.of()));
                CommitResult r = tx.commit();
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
