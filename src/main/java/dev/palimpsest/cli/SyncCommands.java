package dev.palimpsest.cli;

import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.PushResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.model.Violation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** clone, remote, push, pull and sync: replication of a store through git remotes. */
final class SyncCommands {
    private SyncCommands() {}

    @Command(name = "clone", description = "Make a new store from a remote store: fetch, audit all of it, adopt"
            + " it only when clean (exit 3 otherwise, nothing kept); the remote becomes 'origin'.")
    static final class Clone extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "URL",
                description = "The remote store: a path, file://, git://, ssh:// or https:// URL.")
        String url;

        @Override
        public Integer call() throws Exception {
            Path dir = main().global().store;
            if (dir == null) {
                throw new Main.UsageException("clone needs --store DIR: the folder of the new store");
            }
            PullResult r = Replication.cloneStore(url, dir, storeOptions(), progress(this));
            return render(this, r);
        }
    }

    @Command(name = "remote", description = "The store's remotes.",
            subcommands = {RemoteAdd.class, RemoteList.class, RemoteRemove.class})
    static final class RemoteCmd implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new Main.UsageException("name a subcommand: remote add | list | remove");
        }
    }

    @Command(name = "add", description = "Record a remote under a name.")
    static final class RemoteAdd extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "The remote's name, e.g. origin or hub.")
        String name;

        @Parameters(index = "1", paramLabel = "URL",
                description = "The remote store: a path, file://, git://, ssh:// or https:// URL.")
        String url;

        @Override
        public Integer call() throws Exception {
            Remote r = remote(name, url);
            try (Store store = open()) {
                store.replication().addRemote(r);
            }
            if (json()) {
                printJson(Map.of("name", r.name(), "url", r.url()));
            } else {
                out().println("added remote " + r.name() + " " + Render.safe(r.url()));
            }
            return Main.OK;
        }
    }

    @Command(name = "list", description = "List the remotes: name and URL, one per line.")
    static final class RemoteList extends Context implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                List<Remote> rs = store.replication().remotes();
                if (json()) {
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (Remote r : rs) {
                        out.add(Map.of("name", r.name(), "url", r.url()));
                    }
                    printJson(out);
                } else {
                    for (Remote r : rs) {
                        out().println(r.name() + "\t" + Render.safe(r.url()));
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "remove", description = "Forget a remote (and its quarantine ref).")
    static final class RemoteRemove extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "The remote to forget.")
        String name;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                store.replication().removeRemote(name);
            }
            if (json()) {
                printJson(Map.of("removed", name));
            } else {
                out().println("removed remote " + name);
            }
            return Main.OK;
        }
    }

    @Command(name = "push", description = "Push main to a remote's main; never forces (exit 7: pull first;"
            + " exit 5: the remote's hook refused).")
    static final class Push extends Context implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "REMOTE", description = "The remote (default: origin).")
        String remote = "origin";

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                renderPush(this, store.replication().push(remote, progress(this)));
            }
            return Main.OK;
        }
    }

    @Command(name = "pull", description = "Fetch a remote's main into quarantine, audit every incoming commit and"
            + " adopt it only when clean: fast-forward, or a merge commit signed by --actor (exit 3: refused).")
    static final class Pull extends Context implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "REMOTE", description = "The remote (default: origin).")
        String remote = "origin";

        @ArgGroup(exclusive = false, multiplicity = "1")
        Shared.Actor actor;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                return render(this, store.replication().pullAs(remote, Parse.actor("--actor", actor.name),
                        progress(this)));
            }
        }
    }

    @Command(name = "sync", description = "pull, then push when the pull adopted or had nothing to adopt.")
    static final class Sync extends Context implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "REMOTE", description = "The remote (default: origin).")
        String remote = "origin";

        @ArgGroup(exclusive = false, multiplicity = "1")
        Shared.Actor actor;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                int code = render(this, store.replication().pullAs(remote, Parse.actor("--actor", actor.name),
                        progress(this)));
                if (code != Main.OK) {
                    return code;
                }
                renderPush(this, store.replication().push(remote, progress(this)));
                return Main.OK;
            }
        }
    }

    private static Remote remote(String name, String url) throws RejectedException {
        try {
            return new Remote(name, url);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(List.of(new Violation(Rule.INVALID_ARGUMENT, "remote", e.getMessage())));
        }
    }

    /** Progress on stderr, only when a terminal is attached. */
    static TransferProgress progress(Context c) {
        if (System.console() == null) {
            return TransferProgress.none();
        }
        PrintWriter err = c.spec.commandLine().getErr();
        return (task, done, total) -> {
            err.print("\r" + task + ": " + done + (total > 0 ? "/" + total : "") + (done == total ? "\n" : ""));
            err.flush();
        };
    }

    static int render(Context c, PullResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        String line;
        if (r instanceof PullResult.UpToDate u) {
            m.put("result", "up-to-date");
            line = "up to date at " + u.head().hex();
        } else if (r instanceof PullResult.FastForward f) {
            m.put("result", "fast-forward");
            m.put("from", f.from() == null ? null : f.from().hex());
            m.put("audited", f.audited());
            line = "fast-forward " + (f.from() == null ? "(new)" : f.from().hex().substring(0, 12)) + ".."
                    + f.head().hex().substring(0, 12) + ": " + f.audited() + " commits audited";
        } else if (r instanceof PullResult.Merged g) {
            m.put("result", "merged");
            m.put("ours", g.ours().hex());
            m.put("theirs", g.theirs().hex());
            m.put("audited", g.audited());
            m.put("lost", g.lost().stream().map(FactId::value).toList());
            m.put("settled", g.settled());
            m.put("cascade", g.cascade() == null ? null : g.cascade().hex());
            line = "merged " + g.theirs().hex().substring(0, 12) + " into " + g.ours().hex().substring(0, 12)
                    + " as " + g.head().hex().substring(0, 12) + ": " + g.audited() + " commits audited"
                    + (g.lost().isEmpty() ? "" : "; concurrent revisions lost (review): "
                            + String.join(", ", g.lost().stream().map(FactId::value).toList()))
                    + (g.settled().isEmpty() ? "" : "; settled: " + String.join(", ", g.settled()))
                    + (g.cascade() == null ? "" : "; cascade " + g.cascade().hex().substring(0, 12));
        } else {
            PullResult.Refused x = (PullResult.Refused) r;
            m.put("result", "refused");
            List<Map<String, Object>> vs = new ArrayList<>();
            for (AuditViolation v : x.report().violations()) {
                Map<String, Object> vm = new LinkedHashMap<>();
                vm.put("commit", v.commit().hex());
                vm.put("path", v.path());
                vm.put("rule", v.rule().id());
                vm.put("message", v.message());
                vs.add(vm);
            }
            m.put("violations", vs);
            line = "refused: nothing adopted; " + AuditCommand.summary(x.report());
        }
        m.put("head", r.head().hex());
        if (c.json()) {
            c.printJson(m);
        } else {
            if (r instanceof PullResult.Refused x) {
                for (AuditViolation v : x.report().violations()) {
                    c.out().println(Render.safe(v.toString()));
                }
            }
            c.out().println(line);
        }
        return r instanceof PullResult.Refused ? Main.AUDIT_VIOLATIONS : Main.OK;
    }

    static void renderPush(Context c, PushResult r) {
        CommitId from = r instanceof PushResult.Pushed p ? p.from() : null;
        if (c.json()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("push", r instanceof PushResult.Pushed ? "pushed" : r instanceof PushResult.Merged ? "merged" : "up-to-date");
            m.put("from", from == null ? null : from.hex());
            if (r instanceof PushResult.Merged x) {
                m.put("pushed", x.pushed().hex());
            }
            m.put("head", r.head().hex());
            c.printJson(m);
        } else if (r instanceof PushResult.Merged x) {
            c.out().println("the remote's main had moved on: it audited " + x.pushed().hex().substring(0, 12)
                    + " and merged it into its main at " + r.head().hex().substring(0, 12) + " (pull to bring the merge back)");
        } else if (r instanceof PushResult.Pushed) {
            c.out().println("pushed " + (from == null ? "(new)" : from.hex().substring(0, 12)) + ".."
                    + r.head().hex().substring(0, 12));
        } else {
            c.out().println("remote up to date at " + r.head().hex());
        }
    }
}
