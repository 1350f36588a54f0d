package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.NotFoundException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The read tools: show, history, live, exists, inbound, stale, dependents, explain, log. Stateless. */
final class ReadTools {
    static final String AT = "Commit or time (see instructions).";
    static final String VALID_AT = "A time (see instructions).";
    static final String ID = "Fact id.";

    private ReadTools() {}

    static List<ToolDef> all(Session s) {
        Store store = s.store();
        return List.of(
                ToolDef.read("show", "Show a fact", "Read one fact (kind, body, confidence, refs"
                        + " and quotes) as of a commit. A retracted fact is not-found, with the reason,"
                        + " unless fallback.",
                        Schema.input().string("id", ID, true).string("at", AT, false)
                                .bool("fallback", "If retracted, its last valid version."),
                        Schema.output().field("id", "string").field("kind", "string").field("body", "string")
                                .optionalField("confidence", "number").field("refs", "array").field("commit", "string")
                                .field("blob", "string").field("retracted", "boolean")
                                .optionalField("retracted_at", "string").optionalField("reason", "string"),
                        a -> show(store, a)),
                ToolDef.read("history", "History of a fact", "Every change to a fact on main, newest first: added,"
                        + " revised, retracted or forgotten, with commit, actor and time.",
                        Schema.input().string("id", ID, true),
                        Schema.output().field("history", "array"),
                        a -> history(store, a.fact("id"))),
                ToolDef.read("live", "Is a fact live?", "Whether the fact is present and not retracted at the commit;"
                        + " not-found when it was never written before it.",
                        Schema.input().string("id", ID, true).string("at", AT, false),
                        Schema.output().field("id", "string").field("at", "string").field("live", "boolean"),
                        a -> live(store, a)),
                ToolDef.read("valid", "Was a fact valid then?", "FactValidAt: whether the fact is live at the commit"
                        + " and was valid in the world at valid_at (succession applied), with its validity there.",
                        Schema.input().string("id", ID, true).string("valid_at", "The instant asked about.", true)
                                .string("at", AT, false),
                        Schema.output().field("id", "string").field("at", "string").field("valid", "boolean")
                                .optionalField("valid_from", "string").optionalField("valid_until", "string"),
                        a -> valid(store, a)),
                ToolDef.read("exists", "Last navigable version", "The commit and blob of the fact's last version at"
                        + " or before the commit, stepping over retractions, and whether it is live there.",
                        Schema.input().string("id", ID, true).string("at", AT, false),
                        Schema.output().field("id", "string").field("at", "string").field("commit", "string")
                                .field("blob", "string").field("live", "boolean"),
                        a -> exists(store, a)),
                ToolDef.read("inbound", "Who cites a fact", "The facts whose live version cites this one at the"
                        + " commit, with the version each pinned.",
                        Schema.input().string("id", ID, true).string("at", AT, false)
                                .bool("all", "Also referrer versions no longer live."),
                        Schema.output().field("inbound", "array"),
                        a -> inbound(store, a)),
                ToolDef.read("stale", "Are a fact's refs stale?", "How each ref of the fact stands at the commit:"
                        + " current, revised, superseded (and by what), retracted or forgotten (current_commit: the tombstone's). Check before relying on a"
                        + " fact's evidence.",
                        Schema.input().string("id", ID, true).string("at", AT, false),
                        Schema.output().field("refs", "array"),
                        a -> stale(store, a)),
                ToolDef.read("dependents", "What derives from a fact", "Every fact that cites this one (any version"
                        + " before the commit, retracted too), with depth and liveness: what retracting it puts in"
                        + " doubt.",
                        Schema.input().string("id", ID, true).string("at", AT, false)
                                .bool("transitive", "Also what reaches it through other dependents."),
                        Schema.output().field("dependents", "array"),
                        a -> dependents(store, a)),
                ToolDef.read("explain", "Provenance tree", "The provenance tree of a fact down to its sources, each"
                        + " node with its pinned version, status at the commit (forgotten ones with forgotten_at), actor and run.",
                        Schema.input().string("id", ID, true).string("at", AT, false),
                        Schema.output().field("id", "string").field("role", "string|null").field("kind", "string")
                                .field("version", "string").field("status", "string").field("children", "array"),
                        a -> explain(store, a)),
                ToolDef.read("log", "Recent commits", "The store's commits on main, newest first: actor, time,"
                        + " subject and trailers.",
                        Schema.input().integer("limit", "Most commits (0: all; default 20).", 0),
                        Schema.output().field("commits", "array"),
                        a -> Views.listOf("commits", store.log(a.count("limit", 20)).stream().map(Views::log).toList())));
    }

    static Map<String, Object> show(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        FactRead read = store.read(id, at);
        if (read instanceof FactRead.Found f) {
            Map<String, Object> m = Views.fact(f.fact(), f.version());
            m.put("retracted", false);
            return m;
        }
        FactRead.Retracted r = (FactRead.Retracted) read;
        if (!a.flag("fallback")) {
            throw new NotFoundException(id + " was retracted at " + r.retractedAt().hex() + " (reason: " + r.reason()
                    + "); fallback: true shows its last valid version");
        }
        Map<String, Object> m = Views.fact(r.lastFact(), r.lastVersion());
        m.put("retracted", true);
        m.put("retracted_at", r.retractedAt().hex());
        m.put("reason", r.reason());
        return m;
    }

    private static Map<String, Object> history(Store store, FactId id) throws NotFoundException {
        List<HistoryEntry> h = store.history(id);
        if (h.isEmpty()) {
            throw new NotFoundException(id + " was never written on main");
        }
        return Views.listOf("history", h.stream().map(Views::history).toList());
    }

    private static Map<String, Object> live(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        store.factExistsAt(id, at);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.value());
        m.put("at", at.hex());
        m.put("live", store.factLiveAtCommit(id, at));
        return m;
    }

    private static Map<String, Object> valid(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        java.time.Instant t = a.optValidTime("valid_at");
        if (t == null) {
            throw Args.invalid("valid_at", "is required");
        }
        CommitId at = a.at(store);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.value());
        m.put("at", at.hex());
        m.put("valid", store.factValidAt(id, t, at));
        store.validity(id, at).ifPresent(v -> {
            v.start().ifPresent(x -> m.put("valid_from", x.toString()));
            v.end().ifPresent(x -> m.put("valid_until", x.toString()));
        });
        return m;
    }

    private static Map<String, Object> exists(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        ExistsAt v = store.factExistsAt(id, at);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.value());
        m.put("at", at.hex());
        m.put("commit", v.commit().hex());
        m.put("blob", v.blob().hex());
        m.put("live", v.live());
        return m;
    }

    private static Map<String, Object> inbound(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        store.factExistsAt(id, at);
        return Views.listOf("inbound", store.inbound(id, at, a.flag("all")).stream().map(Views::inbound).toList());
    }

    private static Map<String, Object> stale(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        store.factExistsAt(id, at);
        return Views.listOf("refs", store.stale(id, at).stream().map(Views::stale).toList());
    }

    private static Map<String, Object> dependents(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        return Views.listOf("dependents", store.derivations().dependents(id, at, a.flag("transitive")).stream()
                .map(Views::dependent).toList());
    }

    private static Map<String, Object> explain(Store store, Args a) throws Exception {
        FactId id = a.fact("id");
        CommitId at = a.at(store);
        return Views.provenance(store.derivations().explain(id, at));
    }
}
