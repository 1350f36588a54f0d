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

/** The recall tools brief, search and known_entities, over {@link dev.palimpsest.api.Recall}. Stateless. */
final class RecallTools {
    private static final String ENTITIES = "Entities known to be relevant (matched by their normalised key), e.g."
            + " [\"auth-service\"].";

    private RecallTools() {}

    static List<ToolDef> all(Session s) {
        Store store = s.store();
        return List.of(
                ToolDef.read("brief", "Brief before working", "What to put in your context before working on"
                        + " entities or a question: the known facts with provenance, the contradictions, and the dead"
                        + " ends not to re-derive, at a commit, fitted to a token budget (whole entries dropped from"
                        + " the tail, counted in omitted). Start here; text is ready to paste into a prompt.",
                        Schema.input().strings("entity", ENTITIES, 0)
                                .string("query", "Free text the brief is about.", false)
                                .string("at", ReadTools.AT, false)
                                .integer("max_tokens", "Fit the brief to this many cl100k_base tokens (default 0: no"
                                        + " budget).", 0)
                                .integer("max_dead_ends", "Show at most this many dead ends, newest correction first"
                                        + " (default 5).", 0),
                        Schema.output().field("sections", "array").field("omitted", "integer").field("budget", "integer")
                                .field("tokens", "integer").field("text", "string"),
                        a -> brief(store, a)),
                ToolDef.read("search", "Search memory", "Rank the facts live at a commit for free text and/or named"
                        + " entities (BM25, spelling, entity and graph channels); each hit says why it was returned"
                        + " (channel, score, hops, via) and carries its body, claim triple, source and commit.",
                        Schema.input().string("query", "Free text.", false).strings("entity", ENTITIES, 0)
                                .string("at", ReadTools.AT, false)
                                .integer("limit", "At most this many hits (1 to 1000, default 10).", 1,
                                        SearchQuery.MAX_LIMIT)
                                .integer("hops", "Graph hops from the direct hits (0, 1 or 2; default 1).", 0, 2)
                                .string("kind", "Only facts of this kind.", false)
                                .string("actor", "Only versions written by this actor.", false)
                                .string("run", "Only facts learned by this agent run.", false),
                        Schema.output().field("hits", "array"),
                        a -> search(store, a)),
                knownEntities(s));
    }

    /** known_entities: not a core tool (an agent lists keys to name entities it did not invent). */
    static ToolDef knownEntities(Session s) {
        Store store = s.store();
        return ToolDef.read("known_entities", "List known entities", "The normalised entity keys that facts live at"
                + " a commit name as subject or object, with how many facts name each, most named first; pass one"
                + " as entity to search or brief.",
                Schema.input().string("prefix", "Only keys starting with this (normalised like a key).", false)
                        .string("at", ReadTools.AT, false)
                        .integer("limit", "At most this many keys (1 to 1000, default 100).", 1, Recall.MAX_ENTITIES),
                Schema.output().field("entities", "array"),
                a -> {
                    String prefix = a.optText("prefix");
                    var at = a.at(store);
                    int limit = a.count("limit", 100);
                    String p = prefix == null ? "" : prefix;
                    List<KnownEntity> es = at == null ? store.recall().knownEntities(p, limit)
                            : store.recall().knownEntities(p, at, limit);
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
        Brief b = store.recall().brief(new BriefRequest(a.texts("entity"), a.optText("query"), a.at(store),
                a.count("max_tokens", 0), a.count("max_dead_ends", BriefRequest.DEFAULT_MAX_DEAD_ENDS)));
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
        m.put("text", b.text());
        return m;
    }

    private static Map<String, Object> search(Store store, Args a) throws Exception {
        String kind = a.optText("kind");
        Kind k = kind == null ? null : Args.parse("kind", kind, Kind::of);
        String actor = a.optText("actor");
        ActorName who = actor == null ? null : Args.parse("actor", actor, ActorName::of);
        SearchQuery q;
        try {
            q = new SearchQuery(a.optText("query"), a.texts("entity"), a.at(store), a.count("limit", 10),
                    a.count("hops", 1), k, null, null, who, a.optText("run"));
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
