package dev.palimpsest.web;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.NotFoundException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The hub's read-only web view: server-rendered HTML pages over the public API, mounted by the hub
 * behind its token check. {@code /} is the timeline, {@code /facts/{id}} a fact, {@code /entities/{key}}
 * an entity's claims (current, correction chains, dead ends, contradictions), {@code /search?q=&entity=}
 * recall's hits with the channel that found each, {@code /graph/{id}} the derivation graph around a
 * fact as inline SVG, {@code /status} the audit of main (run in the background), the review queue and
 * the search index's state; {@code ?at=} names
 * the commit every page answers at (a commit id, {@code main}, {@code main~N}, or a wall-clock time
 * resolved to the last commit at or before it and redirected to that commit, so a page's URL holds
 * its commit). Every response carries a strict Content-Security-Policy (no inline script or style:
 * the CSS and JS are static files under {@code /static/}), {@code nosniff} and no framing; an unknown
 * fact is a 404 page, a bad {@code at} a 400 page naming what is wrong, any other method than GET
 * or HEAD a 405. The pages hold no business logic: they call {@link Store} and render. Thread-safe.
 */
public final class WebView extends HttpServlet {
    private static final long serialVersionUID = 1L;

    /** The Content-Security-Policy of every response. */
    public static final String CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private static final Pattern HEX = Pattern.compile("[0-9a-f]{4,40}");
    private static final Pattern REVISION = Pattern.compile("main(~[0-9]{1,9})?");
    private static final Map<String, String> STATIC = Map.of("/static/web.css", "text/css; charset=utf-8",
            "/static/web.js", "text/javascript; charset=utf-8");

    private final transient Store store;
    private final transient Supplier<String> indexState;
    private final transient Audits audits;

    /** A view of {@code store}, which stays the caller's to close; the status page knows no index state. */
    public WebView(Store store) {
        this(store, () -> "unknown");
    }

    /**
     * A view of {@code store}, which stays the caller's to close; {@code indexState} tells the status
     * page how the search index stands (the hub's warm-up: {@code warming}, {@code ready}, ...).
     */
    public WebView(Store store, Supplier<String> indexState) {
        this.store = Objects.requireNonNull(store, "store");
        this.indexState = Objects.requireNonNull(indexState, "indexState");
        this.audits = new Audits(store);
    }

    /** Stops the status page's audit, if one runs (the container calls this when it stops). */
    @Override
    public void destroy() {
        audits.close();
        super.destroy();
    }

    /** A page that cannot be answered: its status and what is wrong. */
    static final class PageException extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        PageException(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** A redirect to {@code location} (a path with its query, built from escaped parts). */
    static final class Redirect extends Exception {
        private static final long serialVersionUID = 1L;
        final String location;

        Redirect(String location) {
            super(location, null, false, false);
            this.location = location;
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        headers(res);
        String method = req.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            res.setHeader("Allow", "GET, HEAD");
            page(res, 405, Pages.error(405, "this view is read-only: " + method + " is not allowed"));
            return;
        }
        String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        String type = STATIC.get(path);
        if (type != null) {
            serveStatic(res, path, type);
            return;
        }
        try {
            page(res, 200, route(req, path));
        } catch (PageException e) {
            page(res, e.status, Pages.error(e.status, e.getMessage()));
        } catch (Redirect r) {
            res.setStatus(303);
            res.setHeader("Location", r.location);
        }
    }

    /**
     * The redirect of a form that opens a page by name ({@code param}) to its canonical URL under
     * {@code base}, keeping {@code at}; a 400 page when the name is missing.
     */
    private static Redirect opened(HttpServletRequest req, String param, String base, String what) throws PageException {
        String name = req.getParameter(param);
        if (name == null || name.isBlank()) {
            throw new PageException(400, param + ": name " + what + " to show");
        }
        String at = req.getParameter("at");
        return new Redirect(base + Html.url(name.trim()) + (at == null || at.isBlank() ? "" : "?at=" + Html.url(at.trim())));
    }

    private String route(HttpServletRequest req, String path) throws PageException, Redirect {
        if (path.equals("/")) {
            CommitId at = at(req, "/");
            return Pages.timeline(store, at, req.getParameter("at") != null, page(req.getParameter("page")));
        }
        if (path.equals("/facts") || path.equals("/facts/")) {
            throw opened(req, "id", "/facts/", "the fact");
        }
        if (path.equals("/status")) {
            CommitId at = at(req, "/status");
            return Pages.status(store, at, audits.current(), indexState.get());
        }
        if (path.equals("/search")) {
            CommitId at = at(req, searchPath(req));
            return Pages.search(store, req.getParameter("q"), req.getParameter("entity"), at);
        }
        if (path.equals("/entities") || path.equals("/entities/")) {
            throw opened(req, "key", "/entities/", "the entity");
        }
        if (path.startsWith("/entities/")) {
            String key = path.substring("/entities/".length());
            CommitId at = at(req, "/entities/" + Html.url(key));
            return Pages.entity(store, key, at);
        }
        if (path.startsWith("/graph/")) {
            String id = path.substring("/graph/".length());
            CommitId at = at(req, "/graph/" + Html.url(id));
            return Pages.graph(store, id, at);
        }
        if (path.startsWith("/facts/")) {
            String id = path.substring("/facts/".length());
            CommitId at = at(req, "/facts/" + Html.url(id));
            return Pages.fact(store, id, at);
        }
        throw new PageException(404, "no page at " + path);
    }

    /** {@code /search} with the request's words and entity, for the redirects of {@link #at}. */
    private static String searchPath(HttpServletRequest req) {
        StringBuilder p = new StringBuilder();
        for (String name : new String[] {"q", "entity"}) {
            String v = req.getParameter(name);
            if (v != null && !v.isBlank()) {
                p.append(p.length() == 0 ? "?" : "&").append(name).append('=').append(Html.url(v.strip()));
            }
        }
        return "/search" + p;
    }

    /**
     * The commit a page answers at: {@code time} (or an {@code at} that is a time) resolved to the
     * last commit at or before it and redirected to, {@code at} as a commit or {@code main~N}, or
     * the tip of main.
     */
    private CommitId at(HttpServletRequest req, String path) throws PageException, Redirect {
        String time = req.getParameter("time");
        String at = req.getParameter("at");
        if (time != null && !time.isBlank()) {
            throw new Redirect(path + (path.contains("?") ? "&" : "?") + "at=" + asOf(time.trim(), "time").hex());
        }
        if (time != null || (at != null && at.isBlank())) { // the as-of form's empty fields: the canonical URL
            String page = req.getParameter("page");
            String query = (at == null || at.isBlank() ? "" : "&at=" + Html.url(at.trim()))
                    + (page == null || page.isBlank() ? "" : "&page=" + Html.url(page.trim()));
            throw new Redirect(path + (query.isEmpty() ? "" : (path.contains("?") ? "&" : "?") + query.substring(1)));
        }
        if (at == null || at.isBlank()) {
            return store.head();
        }
        String a = at.trim();
        if (a.length() > 64) {
            throw new PageException(400, "at: too long (" + a.length() + " characters); give a commit id, main~N or a time");
        }
        if (HEX.matcher(a).matches() || REVISION.matcher(a).matches()) {
            try {
                return store.resolve(a);
            } catch (NotFoundException e) {
                throw new PageException(400, "at: '" + a + "' names no commit of this store");
            }
        }
        if (parseTime(a).isPresent()) {
            throw new Redirect(path + (path.contains("?") ? "&" : "?") + "at=" + asOf(a, "at").hex());
        }
        throw new PageException(400, "at: '" + a + "' is neither a commit id, main, main~N nor a time "
                + "(2026-12-04T09:30:00Z, or 2026-12-04T09:30 in UTC)");
    }

    private CommitId asOf(String value, String name) throws PageException {
        Instant t = parseTime(value).orElseThrow(() -> new PageException(400, name + ": '" + value
                + "' is not a time (2026-12-04T09:30:00Z, or 2026-12-04T09:30 in UTC)"));
        return store.commitAsOf(t).orElseThrow(() -> new PageException(400, name
                + ": no commit of this store is dated at or before " + t));
    }

    private static Optional<Instant> parseTime(String value) {
        try {
            return Optional.of(Instant.parse(value));
        } catch (DateTimeParseException e) {
            try {
                return Optional.of(LocalDateTime.parse(value).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException e2) {
                return Optional.empty();
            }
        }
    }

    private static int page(String value) throws PageException {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int p = Integer.parseInt(value.trim());
            if (p < 0 || p > 1_000_000) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new PageException(400, "page: '" + value + "' is not a page number (0, 1, 2, ...)");
        }
    }

    static void headers(HttpServletResponse res) {
        res.setHeader("Content-Security-Policy", CSP);
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("X-Frame-Options", "DENY");
        res.setHeader("Referrer-Policy", "no-referrer");
    }

    private static void page(HttpServletResponse res, int status, String html) throws IOException {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setHeader("Cache-Control", "no-store");
        res.setContentType("text/html; charset=utf-8");
        res.setContentLength(body.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(body);
        }
    }

    private static void serveStatic(HttpServletResponse res, String path, String type) throws IOException {
        try (InputStream in = WebView.class.getResourceAsStream(path.substring("/static/".length()))) {
            if (in == null) {
                page(res, 404, Pages.error(404, "no file at " + path));
                return;
            }
            byte[] body = in.readAllBytes();
            res.setStatus(200);
            res.setHeader("Cache-Control", "private, max-age=300");
            res.setContentType(type);
            res.setContentLength(body.length);
            try (OutputStream out = res.getOutputStream()) {
                out.write(body);
            }
        }
    }
}
