package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ProvenanceNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** What derives from what: dependents and explain. */
final class DeriveCommands {
    private DeriveCommands() {}

    @Command(name = "dependents", description = "List the facts whose refs reach ID (any version written before the"
            + " commit, retracted ones too), with depth, first hop and liveness.")
    static final class Dependents extends PredicateCommands.AtCommand implements Callable<Integer> {
        @Option(names = "--transitive", description = "Also what reaches ID through other dependents (default: direct only).")
        boolean transitive;

        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = known(store, fid);
                List<Dependent> ds = store.derivations().dependents(fid, c, transitive);
                if (json()) {
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (Dependent d : ds) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("id", d.id().value());
                        m.put("depth", d.depth());
                        m.put("via", d.via().value());
                        m.put("live", d.live());
                        out.add(m);
                    }
                    printJson(out);
                } else {
                    for (Dependent d : ds) {
                        out().println(d.depth() + " " + d.id() + " via " + d.via() + (d.live() ? "" : " (not live)"));
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "explain", description = "Show ID's provenance tree down to its sources: each node's pinned"
            + " version, status at the commit (live, revised, superseded, retracted, forgotten at the tombstone's"
            + " commit), actor and run.")
    static final class Explain extends PredicateCommands.AtCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = known(store, fid);
                ProvenanceNode root = store.derivations().explain(fid, c);
                if (json()) {
                    printJson(json(root));
                } else {
                    print(root, 0);
                }
            }
            return Main.OK;
        }

        private void print(ProvenanceNode n, int depth) {
            out().println("  ".repeat(depth) + (n.role() == null ? "" : n.role() + " -> ") + n.id() + " @"
                    + n.version().hex().substring(0, 12) + " " + n.status().word()
                    + (n.forgottenAt() == null ? "" : " at " + n.forgottenAt().hex()) + " by " + n.actor()
                    + (n.run() == null ? "" : " run " + n.run()) + (n.cycle() ? " (cycle)" : ""));
            for (ProvenanceNode ch : n.children()) {
                print(ch, depth + 1);
            }
        }

        static Map<String, Object> json(ProvenanceNode n) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", n.id().value());
            m.put("role", n.role() == null ? null : n.role().value());
            m.put("kind", n.kind());
            m.put("version", n.version().hex());
            m.put("blob", n.blob() == null ? null : n.blob().hex());
            m.put("status", n.status().word());
            m.put("forgotten_at", n.forgottenAt() == null ? null : n.forgottenAt().hex());
            m.put("actor", n.actor());
            m.put("run", n.run());
            m.put("cycle", n.cycle());
            List<Object> ch = new ArrayList<>();
            for (ProvenanceNode c : n.children()) {
                ch.add(json(c));
            }
            m.put("children", ch);
            return m;
        }
    }
}
