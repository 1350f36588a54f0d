package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Weight;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The read-only temporal questions: live, exists, inbound, stale, weight. */
final class PredicateCommands {
    private PredicateCommands() {}

    abstract static class AtCommand extends Context {
        @Parameters(index = "0", paramLabel = "ID", description = "The fact asked about; exit 4 if never written.")
        String id;

        @Mixin
        Shared.At at;

        FactId fact() throws RejectedException {
            return Parse.fact("ID", id);
        }

        /** The commit asked about; exit 4 if it names no commit or the fact was never written before it. */
        CommitId known(Store store, FactId fid) throws NotFoundException, RejectedException {
            CommitId c = at(store, at);
            requireKnown(store, fid, c);
            return c;
        }
    }

    @Command(name = "live", description = "factLiveAtCommit: print true if ID is present, un-retracted, at the commit.")
    static final class Live extends AtCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = known(store, fid);
                boolean live = store.factLiveAtCommit(fid, c);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", fid.value());
                    m.put("at", c.hex());
                    m.put("live", live);
                    printJson(m);
                } else {
                    out().println(live);
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "valid", description = "FactValidAt: print true if ID is live at the commit and was valid in the"
            + " world at --valid-at (succession applied).")
    static final class Valid extends AtCommand implements Callable<Integer> {
        @Option(names = "--valid-at", required = true, paramLabel = "TIME",
                description = "The instant asked about (ISO-8601 instant, or a date meaning its start in UTC).")
        String validAt;

        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            java.time.Instant t = Shared.ValidTime.instant("--valid-at", validAt);
            try (Store store = open()) {
                CommitId c = known(store, fid);
                boolean valid = store.factValidAt(fid, t, c);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", fid.value());
                    m.put("at", c.hex());
                    m.put("valid_at", t.toString());
                    m.put("valid", valid);
                    store.validity(fid, c).ifPresent(v -> {
                        m.put("valid_from", v.start().map(Object::toString).orElse(null));
                        m.put("valid_until", v.end().map(Object::toString).orElse(null));
                    });
                    printJson(m);
                } else {
                    out().println(valid);
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "exists", description = "factExistsAt: print the commit of ID's last navigable version; exit 4 if none.")
    static final class Exists extends AtCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = at(store, at);
                ExistsAt v = store.factExistsAt(fid, c);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", fid.value());
                    m.put("at", c.hex());
                    m.put("commit", v.commit().hex());
                    m.put("blob", v.blob().hex());
                    m.put("live", v.live());
                    printJson(m);
                } else {
                    out().println(v.commit().hex());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "inbound", description = "List the facts whose version live at the commit cites ID.")
    static final class Inbound extends AtCommand implements Callable<Integer> {
        @Option(names = "--all", description = "Also list referrer versions that are no longer live.")
        boolean all;

        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = known(store, fid);
                List<InboundRef> in = store.inbound(fid, c, all);
                if (json()) {
                    printJson(in.stream().map(i -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("referrer", i.referrer().value());
                        m.put("referrer_commit", i.referrerVersion().hex());
                        m.put("role", i.role().value());
                        m.put("pinned_commit", i.pinnedCommit().hex());
                        m.put("pinned_blob", i.pinnedBlob() == null ? null : i.pinnedBlob().hex());
                        m.put("live", i.live());
                        return m;
                    }).toList());
                } else {
                    for (InboundRef i : in) {
                        out().printf("%s %s@%s pins %s%s%n", i.role(), i.referrer(), i.referrerVersion().abbreviated(),
                                i.pinnedCommit().abbreviated(), i.live() ? "" : " (no longer live)");
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "stale", description = "For each ref of ID's version: current, revised, superseded, retracted or"
            + " forgotten (now: the tombstone's commit).")
    static final class Stale extends AtCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                CommitId c = known(store, fid);
                List<RefStatus> refs = store.stale(fid, c);
                if (json()) {
                    printJson(refs.stream().map(r -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("target", r.target().value());
                        m.put("role", r.role().value());
                        m.put("status", r.status().name().toLowerCase(java.util.Locale.ROOT));
                        m.put("pinned_commit", r.pinned().hex());
                        m.put("current_commit", r.current() == null ? null : r.current().hex());
                        m.put("superseded_by", r.by() == null ? null : r.by().value());
                        return m;
                    }).toList());
                } else {
                    for (RefStatus r : refs) {
                        out().printf("%-10s %s %s pinned %s now %s%s%n",
                                r.status().name().toLowerCase(java.util.Locale.ROOT), r.role(), r.target(),
                                r.pinned().abbreviated(), r.current() == null ? "-" : r.current().abbreviated(),
                                r.by() == null ? "" : " by " + r.by());
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "weight", description = "Evidence weight w = S/(S+1) of ID's live lineage at the commit.")
    static final class WeightCmd extends AtCommand implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            FactId fid = fact();
            try (Store store = open()) {
                Weight w = store.weight(fid, known(store, fid));
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", fid.value());
                    m.put("at", w.at().hex());
                    m.put("s", w.s());
                    m.put("w", w.w());
                    m.put("lineage", w.lineage());
                    printJson(m);
                } else {
                    out().printf("%.6f%n", w.w());
                }
            }
            return Main.OK;
        }
    }
}
