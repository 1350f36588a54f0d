package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.AgentPermission;
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
        + " for flat summary receipts; and what agent keys may do (agents-may). Stored in palimpsest.yaml, one signed"
        + " commit per change.",
        subcommands = {PolicyCommand.Show.class, PolicyCommand.Set.class, PolicyCommand.LabelFree.class,
            PolicyCommand.AgentsMay.class})
final class PolicyCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("policy needs a subcommand: show, set, label-free or agents-may");
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
                TrustPolicy p = store.receipts().trust(at(store, at));
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

    /** {@code policy agents-may}: what agent keys may do beyond the default, changed only by a human key. */
    @Command(name = "agents-may", description = "Show or change what agent keys may do beyond the default (agents_may:"
            + " override-human, retract-snapshot). Only a human key may change it (rule agents-may-human-only); each"
            + " change is one commit signed by --actor.",
            subcommands = {AgentsMay.ShowGrants.class, AgentsMay.SetGrants.class, AgentsMay.AddGrants.class,
                AgentsMay.RemoveGrants.class})
    static final class AgentsMay implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new Main.UsageException("policy agents-may needs a subcommand: show, set, add or remove");
        }

        static java.util.Set<AgentPermission> parse(List<String> values) {
            java.util.Set<AgentPermission> out = java.util.EnumSet.noneOf(AgentPermission.class);
            for (String v : values) {
                for (String p : v.split(",")) {
                    if (p.isBlank() || p.strip().equals("none")) {
                        continue;
                    }
                    try {
                        out.add(AgentPermission.parse(p.strip()));
                    } catch (IllegalArgumentException e) {
                        throw new Main.UsageException(e.getMessage());
                    }
                }
            }
            return out;
        }

        static List<String> names(java.util.Set<AgentPermission> grants) {
            return grants.stream().sorted().map(AgentPermission::value).toList();
        }

        static void print(Context c, java.util.Set<AgentPermission> grants, Optional<CommitResult> landed,
                boolean change) {
            if (c.json()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("agents_may", names(grants));
                if (change) {
                    m.put("commit", landed.map(r -> (Object) r.id().hex()).orElse(null));
                }
                c.printJson(m);
            } else {
                c.out().println("agents may: " + (grants.isEmpty() ? "nothing beyond the default"
                        : String.join(", ", names(grants))) + (!change ? ""
                        : landed.map(r -> " (commit " + r.id().abbreviated() + ")").orElse(" (unchanged)")));
            }
        }

        /** Changes the grants at main's tip with {@code change}, signed by {@code actor}. */
        abstract static class Change extends Context implements Callable<Integer> {
            @Mixin
            Shared.Actor actor;

            abstract java.util.Set<AgentPermission> next(java.util.Set<AgentPermission> now);

            @Override
            public Integer call() throws Exception {
                try (Store store = open()) {
                    java.util.Set<AgentPermission> next = next(store.governance().agentsMay(store.head()));
                    Optional<CommitResult> landed = store.governance().setAgentsMay(Parse.actor("--actor", actor.name),
                            next);
                    print(this, next, landed, true);
                }
                return Main.OK;
            }
        }

        @Command(name = "show", description = "What agent keys may do at a commit.")
        static final class ShowGrants extends Context implements Callable<Integer> {
            @Mixin
            Shared.At at;

            @Override
            public Integer call() throws Exception {
                try (Store store = open()) {
                    print(this, store.governance().agentsMay(at(store, at.revision)), Optional.empty(), false);
                }
                return Main.OK;
            }
        }

        @Command(name = "set", description = "Grant agent keys exactly these (none: nothing beyond the default).")
        static final class SetGrants extends Change {
            @Parameters(index = "0..*", arity = "1..*", paramLabel = "PERMISSION",
                    description = "override-human, retract-snapshot, or none.")
            List<String> grants;

            @Override
            java.util.Set<AgentPermission> next(java.util.Set<AgentPermission> now) {
                return parse(grants);
            }
        }

        @Command(name = "add", description = "Grant agent keys these too.")
        static final class AddGrants extends Change {
            @Parameters(index = "0..*", arity = "1..*", paramLabel = "PERMISSION",
                    description = "override-human or retract-snapshot.")
            List<String> grants;

            @Override
            java.util.Set<AgentPermission> next(java.util.Set<AgentPermission> now) {
                java.util.Set<AgentPermission> out = java.util.EnumSet.noneOf(AgentPermission.class);
                out.addAll(now);
                out.addAll(parse(grants));
                return out;
            }
        }

        @Command(name = "remove", description = "Withdraw these from agent keys.")
        static final class RemoveGrants extends Change {
            @Parameters(index = "0..*", arity = "1..*", paramLabel = "PERMISSION",
                    description = "override-human or retract-snapshot.")
            List<String> grants;

            @Override
            java.util.Set<AgentPermission> next(java.util.Set<AgentPermission> now) {
                java.util.Set<AgentPermission> out = java.util.EnumSet.noneOf(AgentPermission.class);
                out.addAll(now);
                out.removeAll(parse(grants));
                return out;
            }
        }
    }
}
