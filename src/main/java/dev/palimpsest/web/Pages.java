package dev.palimpsest.web;

import dev.palimpsest.api.ClaimsAt;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.TimelineEntry;
import dev.palimpsest.model.Weight;
import dev.palimpsest.web.WebView.PageException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The pages, each rendered from what the public API answers; escaping is {@link Html}'s. Stateless. */
final class Pages {
    /** Commits per timeline page. */
    static final int PAGE_SIZE = 50;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Pages() {}

    /** The shell of every page: head (viewport, CSS, JS), a header with the as-of form, then {@code body}. */
    private static String layout(String title, String asOfPath, CommitId at, boolean pinned, Html body,
            String... hidden) {
        Html h = new Html();
        h.empty("!DOCTYPE html").open("html", "lang", "en").open("head")
                .empty("meta", "charset", "utf-8")
                .empty("meta", "name", "viewport", "content", "width=device-width, initial-scale=1")
                .element("title", title + " · palimpsest")
                .empty("link", "rel", "stylesheet", "href", "/static/web.css")
                .open("script", "src", "/static/web.js", "defer", "").close("script")
                .close("head").open("body").open("header", "class", "top")
                .open("nav").link(at == null ? "/" : "/?at=" + at.hex(), "timeline", "class", "brand")
                .link(at == null ? "/search" : "/search?at=" + at.hex(), "search", "class", "nav-search").close("nav");
        if (asOfPath != null) {
            h.open("form", "class", "asof", "method", "get", "action", asOfPath)
                    .element("label", "as of", "for", "asof-at")
                    .empty("input", "id", "asof-at", "name", "at", "type", "text", "size", "14",
                            "placeholder", "commit or main~N", "value", pinned && at != null ? at.abbreviated() : "")
                    .element("label", "or time (UTC)", "for", "asof-time")
                    .empty("input", "id", "asof-time", "name", "time", "type", "datetime-local", "step", "1")
                    .element("button", "set", "type", "submit");
            StringBuilder latest = new StringBuilder(asOfPath);
            for (int i = 0; i + 1 < hidden.length; i += 2) {
                if (hidden[i + 1] != null && !hidden[i + 1].isEmpty()) {
                    h.empty("input", "type", "hidden", "name", hidden[i], "value", hidden[i + 1]);
                    latest.append(latest.indexOf("?") < 0 ? '?' : '&').append(hidden[i]).append('=')
                            .append(Html.url(hidden[i + 1]));
                }
            }
            h.link(latest.toString(), "latest", "class", "latest").close("form");
        }
        h.close("header").open("main");
        String html = h.toString() + body + "</main></body></html>";
        return html;
    }

    static String error(int status, String message) {
        Html b = new Html();
        b.element("h1", status + " " + reason(status)).element("p", message, "class", "error-message");
        return layout(status + " " + reason(status), null, null, false, b);
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad request";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            default -> "Error";
        };
    }

    private static String time(Instant t) {
        return TIME.format(t);
    }

    private static String factHref(FactId id, CommitId at) {
        return "/facts/" + Html.url(id.value()) + "?at=" + at.hex();
    }

    private static String entityHref(String key, CommitId at) {
        return "/entities/" + Html.url(key) + "?at=" + at.hex();
    }

    // ----------------------------------------------------------------------------------- timeline

    static String timeline(Store store, CommitId at, boolean pinned, int page) throws PageException {
        List<TimelineEntry> entries;
        try {
            entries = store.timeline(at, page * PAGE_SIZE, PAGE_SIZE + 1);
        } catch (NotFoundException e) {
            throw new PageException(400, "at: " + e.getMessage());
        }
        boolean more = entries.size() > PAGE_SIZE;
        if (more) {
            entries = entries.subList(0, PAGE_SIZE);
        }
        Html b = new Html();
        b.element("h1", "Timeline");
        b.open("p", "class", "asof-banner").text(pinned ? "As of commit " : "Latest: commit ")
                .element("code", at.abbreviated(), "class", "commit")
                .text(pinned ? ", with every commit up to it, newest first." : ", newest first.").close("p");
        b.open("form", "class", "lookup", "method", "get", "action", "/facts")
                .element("label", "fact id", "for", "lookup-id")
                .empty("input", "id", "lookup-id", "name", "id", "type", "text", "size", "20")
                .empty("input", "type", "hidden", "name", "at", "value", at.hex())
                .element("button", "show", "type", "submit").close("form");
        b.open("form", "class", "lookup", "method", "get", "action", "/entities")
                .element("label", "entity", "for", "lookup-entity")
                .empty("input", "id", "lookup-entity", "name", "key", "type", "text", "size", "20")
                .empty("input", "type", "hidden", "name", "at", "value", at.hex())
                .element("button", "show", "type", "submit").close("form");
        b.open("ol", "class", "timeline", "start", String.valueOf(page * PAGE_SIZE + 1));
        for (TimelineEntry e : entries) {
            CommitId c = e.commit().commit();
            b.open("li", "class", "commit" + (c.equals(at) ? " current" : ""), "data-commit", c.hex());
            b.open("div", "class", "line")
                    .link("/?at=" + c.hex(), c.abbreviated(), "class", "commit", "title", "view the store as of this commit")
                    .element("time", time(e.commit().time()), "datetime", e.commit().time().toString())
                    .element("span", e.commit().actor(), "class", "actor")
                    .element("span", e.signature().value(), "class", "sig sig-" + e.signature().value());
            if (e.isMerge()) {
                b.element("span", "merge", "class", "op op-merge");
            }
            for (var op : e.operations().entrySet()) {
                b.element("span", op.getKey() + (op.getValue() > 1 ? " ×" + op.getValue() : ""),
                        "class", "op op-" + op.getKey());
            }
            b.close("div");
            b.element("div", e.commit().subject(), "class", "subject");
            if (!e.facts().isEmpty()) {
                b.open("ul", "class", "facts");
                for (FactId f : e.facts()) {
                    b.open("li").link(factHref(f, c), f.value(), "class", "fact").close("li");
                }
                b.close("ul");
            }
            b.close("li");
        }
        b.close("ol");
        b.open("nav", "class", "pager");
        if (page > 0) {
            b.link("/?at=" + at.hex() + "&page=" + (page - 1), "newer", "rel", "prev");
        }
        if (more) {
            b.link("/?at=" + at.hex() + "&page=" + (page + 1), "older", "rel", "next");
        }
        b.close("nav");
        return layout("Timeline", "/", at, pinned, b);
    }

    // ----------------------------------------------------------------------------------- entity

    static String entity(Store store, String rawKey, CommitId at) throws PageException {
        String key = EntityKey.of(rawKey);
        if (key.isEmpty()) {
            throw new PageException(404, "'" + rawKey + "' holds no word character: it names no entity");
        }
        String path = "/entities/" + Html.url(key);
        try {
            ClaimsAt claims = store.claims().at(at);
            List<ClaimView> current = claims.current(key);
            DeadEnds dead = claims.deadEnds(key, 50);
            List<Contradiction> contradictions = claims.contradictions(key);
            if (current.isEmpty() && dead.kept().isEmpty()) {
                throw new PageException(404, "no claim about the entity '" + key + "' as of commit " + at.abbreviated());
            }
            Html b = new Html();
            b.element("h1", key, "class", "entity-key");
            if (!contradictions.isEmpty()) {
                b.element("h2", "Contradictions");
                b.open("ul", "class", "contradictions");
                for (Contradiction c : contradictions) {
                    b.open("li", "class", "contradiction").element("span", c.predicate(), "class", "predicate")
                            .text(": ");
                    boolean first = true;
                    for (ClaimView v : c.claims()) {
                        b.text(first ? "" : " vs ");
                        first = false;
                        b.link(factHref(v.id(), at), v.object(), "class", "object");
                    }
                    b.close("li");
                }
                b.close("ul");
            }
            b.element("h2", "Current claims");
            if (current.isEmpty()) {
                b.element("p", "None live as of this commit.");
            } else {
                claimList(b, current, at, "current");
            }
            LinkedHashSet<String> predicates = new LinkedHashSet<>();
            current.forEach(c -> predicates.add(c.predicate()));
            dead.kept().forEach(c -> predicates.add(c.predicate()));
            boolean heading = false;
            for (String p : predicates) {
                List<ClaimView> chain = claims.chain(key, p);
                if (chain.size() < 2) {
                    continue;
                }
                if (!heading) {
                    b.element("h2", "Correction chains");
                    heading = true;
                }
                b.open("div", "class", "chain").element("h3", p, "class", "predicate");
                claimList(b, chain, at, "chain");
                b.close("div");
            }
            if (!dead.kept().isEmpty()) {
                b.element("h2", "Dead ends");
                claimList(b, dead.kept(), at, "dead-ends");
                if (dead.omitted() > 0) {
                    b.element("p", dead.omitted() + " more not shown.", "class", "omitted");
                }
            }
            return layout(key, path, at, true, b);
        } catch (NotFoundException e) {
            throw new PageException(400, "at: " + e.getMessage());
        }
    }

    private static void claimList(Html b, List<ClaimView> claims, CommitId at, String cls) {
        b.open("ul", "class", "claims " + cls);
        for (ClaimView c : claims) {
            b.open("li", "class", "claim claim-" + c.status().label())
                    .element("span", c.predicate(), "class", "predicate").text(" = ")
                    .link(factHref(c.id(), at), c.object(), "class", "object").text(" ")
                    .element("span", c.status().label(), "class", "status status-" + c.status().label());
            if (c.supersededBy() != null) {
                b.text(" by ").link(factHref(c.supersededBy(), at), c.supersededBy().value(), "class", "successor");
            }
            b.text(" · source ").link(factHref(c.source(), at), c.source().value(), "class", "source")
                    .text(" · ").element("span", c.actor().value(), "class", "actor").text(" at ")
                    .link("/?at=" + c.commit().hex(), c.commit().abbreviated(), "class", "commit");
            b.close("li");
        }
        b.close("ul");
    }

    // ----------------------------------------------------------------------------------- search

    /** Hits per search page. */
    static final int HITS = 25;
    /** The characters of a hit's body shown. */
    static final int EXCERPT = 300;

    static String search(Store store, String query, String entity, CommitId at) throws PageException {
        String q = query == null ? "" : query.strip();
        String e = entity == null ? "" : entity.strip();
        Html b = new Html();
        b.element("h1", "Search");
        b.open("form", "class", "search", "method", "get", "action", "/search", "role", "search")
                .element("label", "words", "for", "search-q")
                .empty("input", "id", "search-q", "name", "q", "type", "search", "size", "24", "value", q)
                .element("label", "entity", "for", "search-entity")
                .empty("input", "id", "search-entity", "name", "entity", "type", "text", "size", "16", "value", e)
                .empty("input", "type", "hidden", "name", "at", "value", at.hex())
                .element("button", "search", "type", "submit").close("form");
        if (!q.isEmpty() || !e.isEmpty()) {
            List<SearchHit> hits;
            try {
                SearchQuery.Builder sq = q.isEmpty() ? SearchQuery.builder() : SearchQuery.builder(q);
                if (!e.isEmpty()) {
                    sq.entity(e);
                }
                hits = store.recall().search(sq.at(at).limit(HITS).build());
            } catch (IllegalArgumentException ex) {
                throw new PageException(400, "q: " + ex.getMessage());
            } catch (NotFoundException ex) {
                throw new PageException(400, "at: " + ex.getMessage());
            }
            TreeMap<String, Integer> channels = new TreeMap<>();
            hits.forEach(h -> channels.merge(h.channel().label(), 1, Integer::sum));
            b.open("p", "class", "search-summary").text(hits.size() + (hits.size() == 1 ? " hit" : " hits")
                    + " as of ").element("code", at.abbreviated(), "class", "commit");
            if (!channels.isEmpty()) {
                b.text(", by channel:");
                channels.forEach((c, n) -> b.text(" ").element("span", c + " " + n, "class", "channel channel-" + c));
            }
            b.close("p");
            b.open("ol", "class", "hits");
            for (SearchHit h : hits) {
                b.open("li", "class", "hit").open("div", "class", "line")
                        .link(factHref(h.id(), at), h.id().value(), "class", "fact")
                        .element("span", h.channel().label(), "class", "channel channel-" + h.channel().label())
                        .element("span", String.format(Locale.ROOT, "%.3f", h.score()), "class", "score")
                        .element("span", h.kind().value(), "class", "kind");
                if (h.via() != null) {
                    b.open("span", "class", "via").text(h.hops() + (h.hops() == 1 ? " hop" : " hops") + " via ")
                            .link(factHref(h.via(), at), h.via().value()).close("span");
                }
                b.close("div");
                if (h.hasTriple()) {
                    String key = h.subject() == null ? "" : EntityKey.of(h.subject());
                    b.open("div", "class", "triple");
                    if (key.isEmpty()) {
                        b.text(String.valueOf(h.subject()));
                    } else {
                        b.link(entityHref(key, at), h.subject(), "class", "entity");
                    }
                    b.text(" · " + h.predicate() + " · " + h.object()).close("div");
                }
                b.element("div", excerpt(h.body()), "class", "excerpt");
                b.open("div", "class", "provenance").element("span", h.actor().value(), "class", "actor").text(" ")
                        .element("time", time(h.time()), "datetime", h.time().toString()).text(" ")
                        .link("/?at=" + h.commit().hex(), h.commit().abbreviated(), "class", "commit");
                if (h.source() != null) {
                    b.text(" · source ").link(factHref(h.source(), at), h.source().value(), "class", "source");
                }
                b.close("div").close("li");
            }
            b.close("ol");
        }
        return layout("Search", "/search", at, true, b, "q", q, "entity", e);
    }

    /** The first {@link #EXCERPT} characters of {@code body} (never half a surrogate pair), with an ellipsis when cut. */
    static String excerpt(String body) {
        if (body.length() <= EXCERPT) {
            return body;
        }
        int end = Character.isHighSurrogate(body.charAt(EXCERPT - 1)) ? EXCERPT - 1 : EXCERPT;
        return body.substring(0, end) + "…";
    }

    // ----------------------------------------------------------------------------------- fact

    static String fact(Store store, String rawId, CommitId at) throws PageException {
        FactId id;
        try {
            id = FactId.of(rawId);
        } catch (IllegalArgumentException e) {
            throw new PageException(404, "no fact has the id '" + rawId + "': " + e.getMessage());
        }
        String path = "/facts/" + Html.url(id.value());
        try {
            Optional<FactRead> read = store.find(id, at);
            if (read.isEmpty()) {
                return absent(store, id, at, path);
            }
            Html b = new Html();
            b.element("h1", id.value(), "class", "fact-id");
            FactRead r = read.get();
            if (r instanceof FactRead.Found f) {
                b.open("p", "class", "status status-live").text("live as of ")
                        .link("/?at=" + at.hex(), at.abbreviated(), "class", "commit").close("p");
                version(b, f.version(), f.fact(), at);
            } else if (r instanceof FactRead.Retracted x) {
                b.open("p", "class", "status status-retracted").text("retracted at ")
                        .link("/?at=" + x.retractedAt().hex(), x.retractedAt().abbreviated(), "class", "commit")
                        .text(": ").element("span", x.reason(), "class", "reason").close("p");
                b.element("h2", "Last valid version");
                version(b, x.lastVersion(), x.lastFact(), at);
            }
            refs(b, store, id, at, r instanceof FactRead.Found f ? f.fact() : ((FactRead.Retracted) r).lastFact());
            inbound(b, store, id, at);
            weight(b, store.weight(id, at));
            history(b, store.history(id), id, versionOf(r));
            return layout(id.value(), path, at, true, b);
        } catch (NotFoundException e) {
            throw new PageException(404, e.getMessage());
        }
    }

    private static CommitId versionOf(FactRead r) {
        return r instanceof FactRead.Found f ? f.version().commit() : ((FactRead.Retracted) r).retractedAt();
    }

    /** A fact not readable at {@code at}: a tombstone when main forgot it, else 404. */
    private static String absent(Store store, FactId id, CommitId at, String path) throws PageException {
        List<HistoryEntry> history;
        try {
            history = store.history(id);
        } catch (NotFoundException e) {
            throw new PageException(404, "no fact " + id + " was ever written on main");
        }
        Optional<HistoryEntry> forget = history.stream().filter(h -> h.change() == HistoryEntry.Change.FORGOTTEN)
                .findFirst();
        if (forget.isEmpty()) {
            throw new PageException(404, "fact " + id + " was not written as of commit " + at.abbreviated());
        }
        HistoryEntry f = forget.get();
        Html b = new Html();
        b.element("h1", id.value(), "class", "fact-id");
        b.open("div", "class", "tombstone").element("p", "Forgotten", "class", "status status-forgotten")
                .open("p").text("Forgotten at ")
                .link("/?at=" + f.commit().hex(), f.commit().abbreviated(), "class", "commit")
                .text(" by ").element("span", f.actor().value(), "class", "actor")
                .text(" on ").element("time", time(f.time()), "datetime", f.time().toString())
                .text(". Its content was erased and is not shown.").close("p").close("div");
        history(b, history, id, null);
        return layout(id.value(), path, at, true, b);
    }

    private static void version(Html b, FactVersion v, Fact f, CommitId at) {
        b.open("dl", "class", "meta")
                .element("dt", "kind").element("dd", f.kind().value())
                .element("dt", "version").open("dd").text("written at ")
                .link("/?at=" + v.commit().hex(), v.commit().abbreviated(), "class", "commit").close("dd");
        if (f.confidence() != null) {
            b.element("dt", "confidence").element("dd", f.confidence());
        }
        if (!f.validity().always()) {
            b.element("dt", "valid").element("dd", (f.validity().from().equals(Instant.MIN) ? "…" : f.validity().from())
                    + " – " + (f.validity().until().equals(Instant.MAX) ? "…" : f.validity().until()));
        }
        if (f.run() != null) {
            b.element("dt", "run").element("dd", f.run());
        }
        if (f.grounding().hasTriple()) {
            String key = EntityKey.of(f.grounding().subject());
            b.element("dt", "triple").open("dd");
            if (key.isEmpty()) {
                b.text(f.grounding().subject());
            } else {
                b.link(entityHref(key, at), f.grounding().subject(), "class", "entity");
            }
            b.text(" · " + f.grounding().predicate() + " · " + f.grounding().object()).close("dd");
        }
        b.close("dl");
        if (f.contentUnavailable()) {
            b.element("p", "This version is sealed and its key is not here: its content is unavailable.",
                    "class", "status status-sealed");
        } else {
            b.element("pre", f.body(), "class", "fact-body");
        }
    }

    private static void refs(Html b, Store store, FactId id, CommitId at, Fact f) throws NotFoundException {
        if (f.refs().isEmpty()) {
            return;
        }
        Map<FactId, RefStatus> status = new HashMap<>();
        for (RefStatus s : store.stale(id, at)) {
            status.put(s.target(), s);
        }
        b.element("h2", "Refs");
        b.open("ul", "class", "refs");
        for (Ref r : f.refs()) {
            RefStatus s = status.get(r.id());
            b.open("li", "class", "ref").element("span", r.role().value(), "class", "role").text(" ")
                    .link(factHref(r.id(), at), r.id().value(), "class", "ref-target");
            if (r.commit() != null) {
                b.text(" pinned at ").link(factHref(r.id(), r.commit()), r.commit().abbreviated(), "class", "pinned");
            } else {
                b.text(" pinned in the same transaction");
            }
            if (s != null) {
                String st = s.status().name().toLowerCase(Locale.ROOT);
                b.text(" ").element("span", s.status() == RefStatus.Status.CURRENT ? "current" : "stale: " + st,
                        "class", "ref-status ref-" + st);
                if (s.by() != null) {
                    b.text(" by ").link(factHref(s.by(), at), s.by().value());
                }
            }
            if (r.quote() != null) {
                b.element("blockquote", r.quote(), "class", "quote");
            }
            b.close("li");
        }
        b.close("ul");
    }

    private static void inbound(Html b, Store store, FactId id, CommitId at) throws NotFoundException {
        List<InboundRef> in = store.inbound(id, at);
        if (in.isEmpty()) {
            return;
        }
        b.element("h2", "Cited by");
        b.open("ul", "class", "inbound");
        for (InboundRef r : in) {
            b.open("li").element("span", r.role().value(), "class", "role").text(" from ")
                    .link(factHref(r.referrer(), at), r.referrer().value(), "class", "citer")
                    .text(r.live() ? "" : " (not live)").close("li");
        }
        b.close("ul");
    }

    private static void weight(Html b, Weight w) {
        b.element("h2", "Weight");
        b.element("p", String.format(Locale.ROOT, "weight %.3f (evidence mass %.3f, live lineage of %d)", w.w(), w.s(),
                w.lineage()), "class", "weight");
    }

    private static void history(Html b, List<HistoryEntry> history, FactId id, CommitId shown) {
        b.element("h2", "History on main");
        b.open("ol", "class", "history");
        for (HistoryEntry h : history) {
            boolean content = h.change() == HistoryEntry.Change.ADDED || h.change() == HistoryEntry.Change.REVISED;
            b.open("li", "class", "change change-" + h.change().value()
                    + (h.commit().equals(shown) ? " shown" : ""));
            b.element("span", h.change().value(), "class", "change-kind").text(" ");
            if (content && shown != null) {
                b.link(factHref(id, h.commit()), h.commit().abbreviated(), "class", "commit", "title",
                        "this version");
            } else {
                b.link("/?at=" + h.commit().hex(), h.commit().abbreviated(), "class", "commit");
            }
            b.text(" by ").element("span", h.actor().value(), "class", "actor").text(" ")
                    .element("time", time(h.time()), "datetime", h.time().toString());
            b.close("li");
        }
        b.close("ol");
    }
}
