package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.Policy;
import dev.palimpsest.model.TrustPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code policy}: show or set which receipts cleanup trusts, per layer. */
@Command(name = "policy", description = "Show or set which receipts cleanup trusts: per layer (merge, edge, summary) and"
        + " for flat summary receipts; stored in palimpsest.yaml, one signed commit per change.",
        subcommands = {PolicyCommand.Show.class, PolicyCommand.Set.class, PolicyCommand.LabelFree.class})
final class PolicyCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("policy needs a subcommand: show, set or label-free");
    }

    /** The policy as JSON: {@code {"flat", "layers": {merge, edge, summary}, "label_free"}}. */
    static Map<String, Object> view(TrustPolicy p) {
        return dev.palimpsest.wire.JudgeWire.policy(p);
    }

    /** The policy on one line: {@code merge trust, edge trust, summary distrust; flat summaries distrust}. */
    static String line(TrustPolicy p) {
        List<String> parts = new ArrayList<>();
        for (Layer l : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
            parts.add(l.value() + " " + (p.distrusts(l) ? "distrust" : "trust"));
        }
        return String.join(", ", parts) + "; flat summaries " + p.flat().value() + (p.labelFree() ? " (label-free)" : "");
    }

    private static void printChange(Context c, TrustPolicy p, Optional<CommitResult> landed) {
        if (c.json()) {
            Map<String, Object> m = view(p);
            m.put("commit", landed.map(r -> (Object) r.id().hex()).orElse(null));
            c.printJson(m);
        } else {
            c.out().println(line(p) + landed.map(r -> " (commit " + r.id().abbreviated() + ")").orElse(" (unchanged)"));
        }
    }

    @Command(name = "show", description = "The trust policy at a commit.")
    static final class Show extends Context implements Callable<Integer> {
        @Mixin
        Shared.At at;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                TrustPolicy p = store.receipts().trust(at(store, at.revision));
                if (json()) {
                    printJson(view(p));
                } else {
                    out().println(line(p));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "set", description = "Trust or distrust one layer's receipts (merge, edge, summary), or set how flat"
            + " summary receipts are treated (flat). A distrusted layer loses every artifact whose receipt is touched.")
    static final class Set extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "LAYER", description = "merge, edge, summary or flat.")
        String layer;

        @Parameters(index = "1", paramLabel = "trust|distrust", description = "Believe the receipts, or ignore them.")
        String value;

        @Mixin
        Shared.Actor actor;

        @Override
        public Integer call() throws Exception {
            if (!value.equals("trust") && !value.equals("distrust")) {
                throw new Main.UsageException("policy set takes trust or distrust, got '" + value + "'");
            }
            boolean trust = value.equals("trust");
            try (Store store = open()) {
                TrustPolicy now = store.receipts().trust(store.head());
                TrustPolicy next;
                if (layer.equals("flat")) {
                    next = now.withFlat(trust ? Policy.TRUST : Policy.DISTRUST);
                } else if (layer.equals("merge") || layer.equals("edge") || layer.equals("summary")) {
                    next = now.with(Layer.parse(layer), trust);
                } else {
                    throw new Main.UsageException("policy set takes merge, edge, summary or flat, got '" + layer + "'");
                }
                printChange(this, next, store.receipts().setTrust(Parse.actor("--actor", actor.name), next));
            }
            return Main.OK;
        }
    }

    @Command(name = "label-free", description = "Distrust every layer's receipts (§6.4's label-free policy): any artifact"
            + " whose provenance a withdrawal touches is removed.")
    static final class LabelFree extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                printChange(this, TrustPolicy.LABEL_FREE,
                        store.receipts().setTrust(Parse.actor("--actor", actor.name), TrustPolicy.LABEL_FREE));
            }
            return Main.OK;
        }
    }
}
