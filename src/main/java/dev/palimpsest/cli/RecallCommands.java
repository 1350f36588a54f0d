package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KnownEntity;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.api.Recall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Recall: search (ranked hits, JSON) and brief (the prompt-ready context, text or JSON). */
final class RecallCommands {
    private RecallCommands() {}

    private static List<String> entities(List<String> given) throws RejectedException {
        List<String> out = new ArrayList<>();
        for (String e : given) {
            String v = TextInput.arg("--entity", e);
            if (v.isBlank()) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--entity", "must not be blank");
            }
            out.add(v);
        }
        return out;
    }

    @Command(name = "search", description = "Rank the facts live at the commit for a query and/or named entities;"
            + " prints a JSON list of hits, each with why it was returned (channel, score, hops, via).")
    static final class Search extends Context implements Callable<Integer> {
        @Option(names = "--query", paramLabel = "TEXT", description = "Free text (BM25 and the spelling channel).")
        String query;

        @Option(names = "--entity", paramLabel = "E",
                description = "An entity known to be relevant: the facts naming it (subject, object or text) rank above text hits, ordered by relevance to --query. Repeatable.")
        List<String> entities = new ArrayList<>();

        @Mixin
        Shared.At at;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "10",
                description = "At most N hits (1 to 1000, default 10).")
        int limit;

        @Option(names = "--hops", paramLabel = "0|1|2", defaultValue = "1",
                description = "Graph hops from the direct hits (refs and claim entities, both directions; default 1).")
        int hops;

        @Option(names = "--kind", paramLabel = "K", description = "Only facts of this kind.")
        String kind;

        @Option(names = "--actor", paramLabel = "A", description = "Only versions written by this actor.")
        String actor;

        @Option(names = "--run", paramLabel = "R", description = "Only facts learned by this agent run.")
        String run;

        @Mixin
        Shared.ValidAt validAt;

        @Override
        public Integer call() throws Exception {
            if (limit < 1 || limit > SearchQuery.MAX_LIMIT) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--limit",
                        "must be in [1, " + SearchQuery.MAX_LIMIT + "], got " + limit);
            }
            if (hops < 0 || hops > 2) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--hops", "must be 0, 1 or 2, got " + hops);
            }
            String q = query == null ? null : TextInput.arg("--query", query);
            List<String> es = entities(entities);
            if ((q == null || q.isBlank()) && es.isEmpty()) {
                throw new Main.UsageException("search needs --query TEXT or --entity E: there is nothing to rank by");
            }
            Kind k = kind == null ? null : Parse.kind(kind);
            ActorName a = actor == null ? null : Parse.actor("--actor", actor);
            String r = run == null ? null : TextInput.arg("--run", run);
            Optional<java.time.Instant> valid = validAt.instant();
            try (Store store = open()) {
                CommitId c = at(store, at);
                SearchQuery.Builder sq = SearchQuery.builder().entities(es).at(c).limit(limit).hops(hops);
                Optional.ofNullable(q).ifPresent(sq::text);
                Optional.ofNullable(k).ifPresent(sq::kind);
                Optional.ofNullable(a).ifPresent(sq::actor);
                Optional.ofNullable(r).ifPresent(sq::run);
                valid.ifPresent(sq::validAt);
                List<SearchHit> hits = store.recall().search(sq.build());
                printJson(hits.stream().map(RecallCommands::hit).toList());
            }
            return Main.OK;
        }
    }

    @Command(name = "known-entities", description = "List the normalised entity keys that facts live at the commit"
            + " name as subject or object, with how many facts name each, most named first (text: key and count a"
            + " line; with --json: a list of {key, facts}).")
    static final class KnownEntities extends Context implements Callable<Integer> {
        @Option(names = "--prefix", paramLabel = "P", defaultValue = "",
                description = "Only keys starting with the key of P (default: every key).")
        String prefix;

        @Mixin
        Shared.At at;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
                description = "At most N keys (1 to 1000, default 100).")
        int limit;

        @Override
        public Integer call() throws Exception {
            if (limit < 1 || limit > Recall.MAX_ENTITIES) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--limit",
                        "must be in [1, " + Recall.MAX_ENTITIES + "], got " + limit);
            }
            String p = TextInput.arg("--prefix", prefix);
            try (Store store = open()) {
                CommitId c = at(store, at);
                List<KnownEntity> es = c == null ? store.recall().knownEntities(p, limit)
                        : store.recall().knownEntities(p, limit, c);
                if (json()) {
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (KnownEntity e : es) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("key", e.key());
                        m.put("facts", e.facts());
                        out.add(m);
                    }
                    printJson(out);
                } else {
                    for (KnownEntity e : es) {
                        out().println(Render.safe(e.key()) + "\t" + e.facts());
                    }
                    out().flush();
                }
            }
            return Main.OK;
        }
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

    @Command(name = "brief", description = "Render what an agent puts in its prompt before it works: known facts with"
            + " provenance, contradictions, and dead ends not to re-derive, at the commit, fitted to a token budget"
            + " (text; with --json: sections and omitted).")
    static final class BriefCmd extends Context implements Callable<Integer> {
        @Option(names = "--entity", paramLabel = "E", description = "An entity the brief is about. Repeatable.")
        List<String> entities = new ArrayList<>();

        @Option(names = "--query", paramLabel = "TEXT", description = "Free text the brief is about.")
        String query;

        @Mixin
        Shared.At at;

        @Option(names = "--max-tokens", paramLabel = "N", defaultValue = "0",
                description = "Fit the brief to N cl100k_base tokens by dropping whole entries from the tail"
                        + " (default 0: no budget).")
        int maxTokens;

        @Option(names = "--max-dead-ends", paramLabel = "K", defaultValue = "5",
                description = "Show at most K dead ends, newest correction first, or most relevant to --query"
                        + " (default 5); the rest are counted.")
        int maxDeadEnds;

        @Mixin
        Shared.ValidAt validAt;

        @Override
        public Integer call() throws Exception {
            if (maxTokens < 0) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--max-tokens", "must not be negative, got "
                        + maxTokens);
            }
            if (maxDeadEnds < 0) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--max-dead-ends", "must not be negative, got "
                        + maxDeadEnds);
            }
            String q = query == null ? null : TextInput.arg("--query", query);
            List<String> es = entities(entities);
            Optional<java.time.Instant> valid = validAt.instant();
            try (Store store = open()) {
                CommitId c = at(store, at);
                BriefRequest.Builder br = BriefRequest.builder().entities(es).at(c).maxTokens(maxTokens)
                        .maxDeadEnds(maxDeadEnds);
                Optional.ofNullable(q).ifPresent(br::query);
                valid.ifPresent(br::validAt);
                Brief b = store.recall().brief(br.build());
                if (json()) {
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
                    printJson(m);
                } else {
                    out().print(Render.safe(b.text()));
                    out().flush();
                }
            }
            return Main.OK;
        }
    }
}
