package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KnownEntity;
import dev.palimpsest.api.Recall;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The recall tools brief, search and known_entities, over {@link dev.palimpsest.api.Recall}. Stateless. */
final class RecallTools {
    private static final String ENTITIES = "Entities, e.g. [\"auth-service\"].";

    private RecallTools() {}

    static List<ToolDef> all(Session s) {
        Store store = s.store();
        return List.of(
                ToolDef.prose("brief", "Brief before working", "Start here: what to know before working on entities or"
                        + " a question (facts, contradictions, dead ends), fitted to a token budget.",
                        Schema.input().strings("entity", ENTITIES, 0)
                                .string("query", "Free text.", false)
                                .string("at", ReadTools.AT, false)
                                .string("valid_at", ReadTools.VALID_AT, false)
                                .integer("max_tokens", "Token budget (default: none).", 0)
                                .integer("max_dead_ends", "Most dead ends (default 5).", 0),
                        Schema.output().field("sections", "array").field("omitted", "integer").field("budget", "integer")
                                .field("tokens", "integer"),
                        a -> brief(store, a)),
                ToolDef.read("search", "Search memory", "Rank live facts for free text and/or entities; each hit"
                        + " says why it matched.",
                        Schema.input().string("query", "Free text.", false).strings("entity", ENTITIES, 0)
                                .string("at", ReadTools.AT, false)
                                .integer("limit", "Most hits (default 10).", 1, SearchQuery.MAX_LIMIT)
                                .integer("hops", "Ref hops from the direct hits (default 1).", 0, 2)
                                .string("kind", "Only facts of this kind.", false)
                                .string("actor", "Only versions by this actor.", false)
                                .string("run", "Only facts of this agent run.", false)
                                .string("valid_at", ReadTools.VALID_AT, false),
                        Schema.output().field("hits", "array"),
                        a -> search(store, a)),
                knownEntities(s));
    }

    /** known_entities: not a core tool (an agent lists keys to name entities it did not invent). */
    static ToolDef knownEntities(Session s) {
        Store store = s.store();
        return ToolDef.read("known_entities", "List known entities", "Entity keys that live facts name as subject"
                + " or object, most named first, with counts; pass one as entity to search or brief.",
                Schema.input().string("prefix", "Only keys starting with this.", false)
                        .string("at", ReadTools.AT, false)
                        .integer("limit", "Most keys (default 100).", 1, Recall.MAX_ENTITIES),
                Schema.output().field("entities", "array"),
                a -> {
                    String prefix = a.optText("prefix");
                    var at = a.at(store);
                    int limit = a.count("limit", 100);
                    String p = prefix == null ? "" : prefix;
                    List<KnownEntity> es = at == null ? store.recall().knownEntities(p, limit)
                            : store.recall().knownEntities(p, limit, at);
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (KnownEntity e : es) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("key", e.key());
                        m.put("facts", e.facts());
                        out.add(m);
                    }
                    return Views.listOf("entities", out);
                });
    }

    private static Map<String, Object> brief(Store store, Args a) throws Exception {
        BriefRequest.Builder r = BriefRequest.builder().entities(a.texts("entity")).at(a.at(store))
                .maxTokens(a.count("max_tokens", 0)).maxDeadEnds(a.count("max_dead_ends", BriefRequest.DEFAULT_MAX_DEAD_ENDS));
        Optional.ofNullable(a.optText("query")).ifPresent(r::query);
        Optional.ofNullable(a.optValidTime("valid_at")).ifPresent(r::validAt);
        Brief b = store.recall().brief(r.build());
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> sections = new ArrayList<>();
        for (Brief.Section s : b.sections()) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("name", s.name());
            sm.put("lines", s.lines());
            sections.add(sm);
        }
        m.put("sections", sections);
        m.put("omitted", b.omitted());
        m.put("budget", b.budget());
        m.put("tokens", b.tokens());
        m.put(ToolDef.TEXT, b.text());
        return m;
    }

    private static Map<String, Object> search(Store store, Args a) throws Exception {
        String kind = a.optText("kind");
        Kind k = kind == null ? null : Args.parse("kind", kind, Kind::of);
        String actor = a.optText("actor");
        ActorName who = actor == null ? null : Args.parse("actor", actor, ActorName::of);
        java.time.Instant validAt = a.optValidTime("valid_at");
        SearchQuery q;
        try {
            SearchQuery.Builder b = SearchQuery.builder().entities(a.texts("entity")).at(a.at(store))
                    .limit(a.count("limit", SearchQuery.DEFAULT_LIMIT)).hops(a.count("hops", SearchQuery.DEFAULT_HOPS));
            Optional.ofNullable(a.optText("query")).ifPresent(b::text);
            Optional.ofNullable(k).ifPresent(b::kind);
            Optional.ofNullable(who).ifPresent(b::actor);
            Optional.ofNullable(a.optText("run")).ifPresent(b::run);
            Optional.ofNullable(validAt).ifPresent(b::validAt);
            q = b.build();
        } catch (IllegalArgumentException e) {
            throw Args.invalid("query", e.getMessage());
        }
        List<Map<String, Object>> hits = new ArrayList<>();
        for (SearchHit h : store.recall().search(q)) {
            hits.add(hit(h));
        }
        return Views.listOf("hits", hits);
    }

    static Map<String, Object> hit(SearchHit h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", h.id().value());
        m.put("score", h.score());
        m.put("channel", h.channel().label());
        m.put("hops", h.hops());
        m.put("via", h.via() == null ? null : h.via().value());
        m.put("subject", h.subject());
        m.put("predicate", h.predicate());
        m.put("object", h.object());
        m.put("body", h.body());
        m.put("commit", h.commit().hex());
        m.put("kind", h.kind().value());
        m.put("actor", h.actor().value());
        m.put("run", h.run());
        m.put("source", h.source() == null ? null : h.source().value());
        m.put("source_commit", h.sourceCommit() == null ? null : h.sourceCommit().hex());
        m.put("time", h.time().toString());
        return m;
    }
}
