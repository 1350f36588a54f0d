package dev.palimpsest.web;

import dev.palimpsest.api.ClaimsAt;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.ReviewItem;
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
import java.util.ArrayList;
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
                .link(at == null ? "/search" : "/search?at=" + at.hex(), "search", "class", "nav-search")
                .link(at == null ? "/status" : "/status?at=" + at.hex(), "status", "class", "nav-status").close("nav");
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
            if (e.arrival().isPresent()) {
                arrival(b, e.arrival().get());
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

    /**
     * The badge of a commit a pull or an adopted push moved this repository's main to: the remote pulled
     * from (or the pushing actor), fast-forward or merge, and when, local time as the reflog records it.
     */
    private static void arrival(Html b, dev.palimpsest.model.Arrival a) {
        boolean pull = a.via() == dev.palimpsest.model.Arrival.Via.PULL;
        b.element("span", pull ? "pull" : "merge request", "class", pull ? "op op-pull" : "op op-pull op-merge-request",
                "title", "how this commit reached main here (this repository's reflog)");
        b.open("span", "class", "arrival").text(pull ? "from " : "pushed by ")
                .element("span", a.from(), "class", pull ? "remote" : "actor")
                .text(", " + a.mode().value() + ", ")
                .element("time", time(a.at()), "datetime", a.at().toString()).close("span");
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
                if (chain.stream().allMatch(c -> c.status() == ClaimView.Status.LIVE)) {
                    continue; // never corrected: its claims are all under "Current claims"
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

    // ----------------------------------------------------------------------------------- provenance graph

    /** The deepest level of the provenance tree drawn, and the most nodes drawn in one column. */
    static final int GRAPH_DEPTH = 4;
    static final int GRAPH_COLUMN = 40;
    private static final int COL_W = 190;
    private static final int BOX_W = 160;
    private static final int ROW_H = 44;
    private static final int BOX_H = 30;

    /** A box of the drawing: its column and row, the fact, the label under the id, and its status. */
    private record Box(int col, int row, FactId id, String label, String status) {}

    /** An edge from one box to another, labelled with the ref's role. */
    private record Edge(Box from, Box to, String role) {}

    /** The fact id a path names; a 404 page when it is no valid id. */
    private static FactId factId(String rawId) throws PageException {
        try {
            return FactId.of(rawId);
        } catch (IllegalArgumentException e) {
            throw new PageException(404, "no fact has the id '" + rawId + "': " + e.getMessage());
        }
    }

    static String graph(Store store, String rawId, CommitId at) throws PageException {
        FactId id = factId(rawId);
        ProvenanceNode root;
        List<Dependent> citers;
        try {
            root = store.derivations().explain(id, at);
            citers = store.derivations().dependents(id, at, false);
        } catch (NotFoundException e) {
            throw new PageException(404, e.getMessage());
        }
        List<List<Box>> columns = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        List<Box> left = new ArrayList<>();
        columns.add(left);
        int omitted = 0;
        for (Dependent d : citers) {
            if (left.size() >= GRAPH_COLUMN) {
                omitted++;
                continue;
            }
            left.add(new Box(0, left.size(), d.id(), "cites it", d.live() ? "live" : "retracted"));
        }
        Box rootBox = new Box(1, 0, root.id(), root.kind() == null ? "" : root.kind(), root.status().word());
        columns.add(new ArrayList<>(List.of(rootBox)));
        for (Box c : left) {
            edges.add(new Edge(c, rootBox, ""));
        }
        omitted += place(root, rootBox, 2, columns, edges);
        int rows = 1;
        for (List<Box> c : columns) {
            rows = Math.max(rows, c.size());
        }
        int width = columns.size() * COL_W + 20;
        int height = rows * ROW_H + 20;
        Html b = new Html();
        b.element("h1", id.value(), "class", "fact-id");
        b.open("p", "class", "graph-legend").text("Provenance as of ")
                .link("/?at=" + at.hex(), at.abbreviated(), "class", "commit")
                .text(": the facts citing it on the left, what it rests on to the right. ")
                .link(factHref(id, at), "the fact", "class", "to-fact").close("p");
        b.open("div", "class", "graph-wrap")
                .open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "graph", "viewBox",
                        "0 0 " + width + " " + height, "width", String.valueOf(width), "height", String.valueOf(height),
                        "role", "img", "aria-label", "provenance graph of " + id.value());
        for (Edge e : edges) {
            int x1 = x(e.from().col()) + BOX_W;
            int y1 = y(e.from().row()) + BOX_H / 2;
            int x2 = x(e.to().col());
            int y2 = y(e.to().row()) + BOX_H / 2;
            b.empty("line", "class", "edge", "x1", String.valueOf(x1), "y1", String.valueOf(y1), "x2", String.valueOf(x2),
                    "y2", String.valueOf(y2)).close("line");
            if (!e.role().isEmpty()) {
                b.element("text", e.role(), "class", "edge-role", "x", String.valueOf((x1 + x2) / 2),
                        "y", String.valueOf((y1 + y2) / 2 - 3), "text-anchor", "middle");
            }
        }
        for (List<Box> c : columns) {
            for (Box box : c) {
                int x = x(box.col());
                int y = y(box.row());
                b.open("a", "href", "/graph/" + Html.url(box.id().value()) + "?at=" + at.hex(), "class",
                        "node node-" + box.status() + (box == rootBox ? " node-root" : ""))
                        .element("title", box.id().value() + " (" + box.status() + ")")
                        .empty("rect", "x", String.valueOf(x), "y", String.valueOf(y), "width", String.valueOf(BOX_W),
                                "height", String.valueOf(BOX_H), "rx", "4").close("rect")
                        .element("text", clip(box.id().value(), 22), "class", "node-id", "x", String.valueOf(x + 6),
                                "y", String.valueOf(y + 13))
                        .element("text", clip(box.label() + " · " + box.status(), 26), "class", "node-label",
                                "x", String.valueOf(x + 6), "y", String.valueOf(y + 25))
                        .close("a");
            }
        }
        b.close("svg").close("div");
        if (omitted > 0) {
            b.element("p", omitted + " more nodes not drawn (a column holds " + GRAPH_COLUMN + ", the tree is drawn "
                    + GRAPH_DEPTH + " levels deep).", "class", "omitted");
        }
        b.element("h2", "Rests on");
        b.open("ul", "class", "provenance-tree");
        tree(b, root, at, 0);
        b.close("ul");
        if (!citers.isEmpty()) {
            b.element("h2", "Cited by");
            b.open("ul", "class", "dependents");
            for (Dependent d : citers) {
                b.open("li").link("/graph/" + Html.url(d.id().value()) + "?at=" + at.hex(), d.id().value(), "class", "citer")
                        .text(d.live() ? "" : " (not live)").close("li");
            }
            b.close("ul");
        }
        return layout(id.value() + " provenance", "/graph/" + Html.url(id.value()), at, true, b);
    }

    /** Places {@code node}'s children in column {@code col} and deeper; returns how many were left out. */
    private static int place(ProvenanceNode node, Box box, int col, List<List<Box>> columns, List<Edge> edges) {
        if (node.children().isEmpty()) {
            return 0;
        }
        if (col - 1 > GRAPH_DEPTH) {
            return count(node) - 1;
        }
        while (columns.size() <= col) {
            columns.add(new ArrayList<>());
        }
        int omitted = 0;
        for (ProvenanceNode child : node.children()) {
            List<Box> column = columns.get(col);
            if (column.size() >= GRAPH_COLUMN) {
                omitted += count(child);
                continue;
            }
            Box c = new Box(col, column.size(), child.id(), child.kind() == null ? "" : child.kind(),
                    child.status().word() + (child.cycle() ? ", cycle" : ""));
            column.add(c);
            edges.add(new Edge(box, c, child.role() == null ? "" : child.role().value()));
            omitted += place(child, c, col + 1, columns, edges);
        }
        return omitted;
    }

    private static int count(ProvenanceNode n) {
        int c = 1;
        for (ProvenanceNode k : n.children()) {
            c += count(k);
        }
        return c;
    }

    private static void tree(Html b, ProvenanceNode n, CommitId at, int depth) {
        b.open("li", "class", "prov prov-" + n.status().word());
        if (n.role() != null) {
            b.element("span", n.role().value(), "class", "role").text(" ");
        }
        b.link(factHref(n.id(), at), n.id().value(), "class", "prov-id").text(" ")
                .element("span", n.status().word(), "class", "status status-" + n.status().word());
        if (n.forgottenAt() != null) {
            b.text(" at ").link("/?at=" + n.forgottenAt().hex(), n.forgottenAt().abbreviated(), "class", "commit");
        } else if (n.version() != null) {
            b.text(" version ").link(factHref(n.id(), n.version()), n.version().abbreviated(), "class", "commit");
        }
        if (n.actor() != null) {
            b.text(" by ").element("span", n.actor(), "class", "actor");
        }
        if (n.cycle()) {
            b.text(" (cycle: shown above)");
        }
        if (!n.children().isEmpty() && depth < 50) {
            b.open("ul");
            for (ProvenanceNode c : n.children()) {
                tree(b, c, at, depth + 1);
            }
            b.close("ul");
        }
        b.close("li");
    }

    private static int x(int col) {
        return 10 + col * COL_W;
    }

    private static int y(int row) {
        return 10 + row * ROW_H;
    }

    private static String clip(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 2)) ? max - 2 : max - 1;
        return s.substring(0, end) + "…";
    }

    // ----------------------------------------------------------------------------------- status

    /** The most violations and review items listed. */
    static final int LISTED = 100;

    static String status(Store store, CommitId at, Optional<Audits.State> audit, String index) throws PageException {
        Html b = new Html();
        b.element("h1", "Status");
        b.element("h2", "Search index");
        b.open("p").element("span", index, "class", "index-state index-" + (index.startsWith("failed") ? "failed" : index))
                .close("p");
        b.element("h2", "Audit of main");
        if (audit.isEmpty()) {
            b.element("p", "No audit yet.", "class", "audit-state");
        } else {
            Audits.State a = audit.get();
            b.open("p", "class", "audit-state").text("Every commit up to ")
                    .link("/?at=" + a.head().hex(), a.head().abbreviated(), "class", "commit");
            if (a.since().isPresent()) {
                b.text(" (the commits after ").link("/?at=" + a.since().get().hex(), a.since().get().abbreviated(),
                        "class", "commit audit-since").text(" audited this time, the audit up to it carried over)");
            }
            b.text(", started " + time(a.started()) + ": ");
            if (a.failure().isPresent()) {
                b.element("span", "failed: " + a.failure().get(), "class", "audit audit-failed");
            } else if (a.report().isEmpty()) {
                b.element("span", "running" + (a.total() > 0 ? " (" + a.done() + " of " + a.total() + " commits)" : ""),
                        "class", "audit audit-running");
            } else {
                AuditReport r = a.report().get();
                b.element("span", r.clean() ? "clean" : r.violations().size() + " violations in " + r.violatingCommits()
                        + " commits", "class", "audit " + (r.clean() ? "audit-clean" : "audit-violations"))
                        .text(String.format(Locale.ROOT, " (%d commits, %d signatures, %d files, %d refs checked)",
                                r.commits(), r.signatures(), r.files(), r.refs()));
            }
            b.close("p");
            if (a.report().isPresent() && !a.report().get().clean()) {
                b.open("ul", "class", "violations");
                int n = 0;
                for (AuditViolation v : a.report().get().violations()) {
                    if (n++ >= LISTED) {
                        break;
                    }
                    b.open("li").element("code", v.rule().toString(), "class", "rule").text(" at ")
                            .link("/?at=" + v.commit().hex(), v.commit().abbreviated(), "class", "commit");
                    if (v.path() != null) {
                        b.text(" ").element("code", v.path(), "class", "path");
                    }
                    b.text(": ").element("span", v.message(), "class", "message").close("li");
                }
                b.close("ul");
            }
            if (!a.head().equals(store.head()) || a.report().isEmpty()) {
                b.element("p", "Reload the page to see the audit move on.", "class", "hint");
            }
        }
        b.element("h2", "Review queue");
        List<ReviewItem> items;
        try {
            items = store.receipts().review(at);
        } catch (NotFoundException e) {
            throw new PageException(400, "at: " + e.getMessage());
        }
        if (items.isEmpty()) {
            b.open("p", "class", "review-empty").text("Nothing to review as of ")
                    .element("code", at.abbreviated(), "class", "commit").text(".").close("p");
        } else {
            b.open("ul", "class", "review");
            int n = 0;
            for (ReviewItem item : items) {
                if (n++ >= LISTED) {
                    b.element("li", (items.size() - LISTED) + " more not listed.", "class", "omitted");
                    break;
                }
                b.open("li").link(factHref(item.id(), at), item.id().value(), "class", "fact").text(" ")
                        .element("span", item.layer(), "class", "kind").text(" ")
                        .element("span", item.reason().value(), "class", "status")
                        .text(item.details().isEmpty() ? "" : ": " + String.join("; ", item.details())).close("li");
            }
            b.close("ul");
        }
        return layout("Status", "/status", at, true, b);
    }

    // ----------------------------------------------------------------------------------- fact

    static String fact(Store store, String rawId, CommitId at) throws PageException {
        FactId id = factId(rawId);
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
                b.open("p", "class", "fact-links").link("/graph/" + Html.url(id.value()) + "?at=" + at.hex(),
                        "provenance graph", "class", "to-graph").close("p");
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
            receipts(b, store, id, at, r instanceof FactRead.Found f ? f.fact() : ((FactRead.Retracted) r).lastFact());
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

    /**
     * The fact's receipts as of {@code at}: its receipt's alternative bundles and a sentence summary's
     * sentences (each sentence the argument its bundles support), every bundle alive or dead and every
     * member linked at {@code at}, a dead member marked; nothing for a fact without receipts.
     */
    private static void receipts(Html b, Store store, FactId id, CommitId at, Fact f) throws NotFoundException {
        if (f.grounding().receipt() == null && f.grounding().sentences().isEmpty()) {
            return; // no receipts: spare the receipt graph at this commit
        }
        dev.palimpsest.model.ArtifactReceipts r = store.receipts().receiptsOf(id, at);
        b.element("h2", "Receipts");
        b.open("p", "class", "receipts-status").element("span", r.alive() ? "alive" : "dead",
                "class", "receipt-state receipt-" + (r.alive() ? "alive" : "dead"))
                .text(r.alive() ? " by its receipts as of " : " by its receipts (no bundle fully alive) as of ")
                .link("/?at=" + at.hex(), at.abbreviated(), "class", "commit")
                .text(r.flat() ? "; a flat receipt for the whole summary" : "").close("p");
        if (!r.receipt().isEmpty()) {
            bundles(b, r.receipt(), at);
        }
        if (!r.sentences().isEmpty()) {
            b.open("ol", "class", "sentences");
            for (var s : r.sentences()) {
                b.open("li", "class", "sentence sentence-" + (s.alive() ? "alive" : "dead"))
                        .element("q", s.text(), "class", "argument").text(" ")
                        .element("span", s.alive() ? "alive" : "dead", "class", "receipt-state receipt-"
                                + (s.alive() ? "alive" : "dead"));
                bundles(b, s.bundles(), at);
                b.close("li");
            }
            b.close("ol");
        }
    }

    private static void bundles(Html b, List<List<dev.palimpsest.model.ArtifactReceipts.Member>> bundles, CommitId at) {
        b.open("ul", "class", "bundles");
        for (var bundle : bundles) {
            boolean alive = bundle.stream().allMatch(dev.palimpsest.model.ArtifactReceipts.Member::alive);
            b.open("li", "class", "bundle bundle-" + (alive ? "alive" : "dead"))
                    .element("span", alive ? "alive bundle:" : "dead bundle:", "class", "bundle-state");
            for (var m : bundle) {
                b.text(" ").link(factHref(m.pin().id(), at), m.pin().id().value(),
                        "class", "member member-" + (m.alive() ? "alive" : "dead"));
                if (m.pin().commit() != null) {
                    b.text("@").link(factHref(m.pin().id(), m.pin().commit()), m.pin().commit().abbreviated(),
                            "class", "pinned", "title", "the version pinned");
                }
                if (!m.alive()) {
                    b.text(" ").element("span", "(dead)", "class", "member-dead");
                }
            }
            b.close("li");
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
