package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.mcp.PalimpsestMcpServer;
import dev.palimpsest.mcp.ToolSet;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "mcp", description = "Serve the store to an agent over the Model Context Protocol on standard input and"
        + " output (one JSON-RPC message per line) until standard input closes or the process that started it ends;"
        + " diagnostics go to standard error. Every write is a commit signed by --actor. The judge options name the"
        + " reviewer of the verify tool and the oracles of rederive_audit.")
final class McpCommand extends Context implements Callable<Integer> {
    @Mixin
    Shared.Actor actor;

    @Option(names = "--run", paramLabel = "R",
            description = "The agent run this server writes for: a Palimpsest-Run trailer on every commit, and the run"
                    + " of the claims and files it writes ([A-Za-z0-9][A-Za-z0-9._:-]{0,79}).")
    String run;

    @Option(names = "--tools", paramLabel = "SET", defaultValue = "core",
            description = "The tools listed: core (brief, search, show, history, current, dead_ends, contradictions,"
                    + " claim, assert, revise, supersede, retract) or all (also the provenance reads, produced files,"
                    + " the review queue, erasure, and the receipts tools merge, ingest, retract_source,"
                    + " revoke_relation, receipts, verify and rederive_audit). Default: ${DEFAULT-VALUE}.")
    String tools;

    @picocli.CommandLine.Mixin
    JudgeCommands.JudgeOptions judge;

    @Option(names = "--judge2-url", paramLabel = "URL",
            description = "Base URL of rederive_audit's second oracle (default: $PALIMPSEST_JUDGE2_URL).")
    String judge2Url;

    @Option(names = "--judge2-model", paramLabel = "M",
            description = "Model of rederive_audit's second oracle (default: $PALIMPSEST_JUDGE2_MODEL).")
    String judge2Model;

    @Option(names = "--no-fsync", description = "Acknowledge writes without forcing objects and refs to disk first"
            + " (benchmarks and throwaway stores only: a crash may lose acknowledged commits).")
    boolean noFsync;

    @Override
    public Integer call() throws Exception {
        ActorName who = Parse.actor("--actor", actor.name);
        ToolSet set;
        try {
            set = ToolSet.of(tools);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--tools: " + e.getMessage());
        }
        if (run != null && !Fact.validRun(run)) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "--run", "'" + run
                    + "' does not match [A-Za-z0-9][A-Za-z0-9._:-]{0,79}");
        }
        Store store;
        try {
            StoreOptions options = storeOptions().withFsync(!noFsync);
            store = Store.open(storePath(), home(), run == null ? options : options.inRun(run));
        } catch (NotFoundException e) {
            throw new Main.NoStoreException(e.getMessage());
        }
        boolean close = true;
        try {
            store.begin(who); // the key home must hold the actor's key: refused now, not at the first write
            java.util.List<dev.palimpsest.model.Judge> judges = new java.util.ArrayList<>();
            dev.palimpsest.model.Judge first = judge.judge(store);
            dev.palimpsest.model.Judge second = judge.second(store, judge2Url, judge2Model);
            if (second != null && first == null) {
                throw new Main.UsageException("a second oracle needs a first: pass --judge-url and --judge-model");
            }
            if (first != null) {
                judges.add(first);
            }
            if (second != null) {
                judges.add(second);
            }
            if (store.publicKey(who, store.head()).isEmpty()) {
                throw new RejectedException(Rule.UNKNOWN_ACTOR, "actor " + who, "has no key in this store");
            }
            // the protocol owns standard output: anything else printed there would corrupt it
            OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
            System.setOut(System.err);
            System.err.println("palimpsest mcp: serving " + store.gitDir() + " as " + who
                    + (run == null ? "" : " (run " + run + ")"));
            // a call still running holds the store: closing it under the call could save a half-updated index
            close = PalimpsestMcpServer.serve(store, who, run, set, judges, stdin(), protocol);
        } finally {
            if (close) {
                store.close();
            }
        }
        return Main.OK;
    }
}
