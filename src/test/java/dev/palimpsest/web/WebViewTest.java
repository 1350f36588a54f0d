package dev.palimpsest.web;

import static dev.palimpsest.web.WebFixture.HOSTILE;
import static dev.palimpsest.web.WebFixture.PLAN;
import static dev.palimpsest.web.WebFixture.SECRET;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.CommitId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web view over HTTP without a browser: authentication (a Basic challenge a browser answers),
 * the headers of every response (strict CSP, nosniff, no framing), status pages (404 for an unknown
 * fact, 400 naming a bad {@code at}, 405 for a write), the timeline, a fact at two commits, a
 * tombstone without content and a hostile body escaped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebViewTest {
    @TempDir
    static Path tmp;

    private WebFixture f;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    void startAHub() throws Exception {
        f = new WebFixture(tmp);
    }

    @AfterAll
    void stopTheHub() {
        if (f != null) {
            f.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        String basic = Base64.getEncoder().encodeToString(("viewer:" + f.token).getBytes(StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(URI.create(f.url(path))).header("Authorization", "Basic " + basic)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPageWithoutATokenIs401WithABasicChallengeSoABrowserAsks() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(f.url("/facts/plan"))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic "));
        assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(WebView.CSP);
        assertThat(r.body()).doesNotContain(WebFixture.V2);
    }

    @Test
    void aBearerTokenOpensThePagesToo() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(f.url("/")))
                .header("Authorization", "Bearer " + f.token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    @Test
    void everyResponseCarriesTheStrictPolicyNosniffAndNoFraming() throws Exception {
        for (String path : new String[] {"/", "/facts/plan", "/facts/nosuch", "/?at=zz", "/static/web.css",
                "/static/web.js", "/elsewhere"}) {
            HttpResponse<String> r = get(path);
            assertThat(r.headers().firstValue("Content-Security-Policy")).as(path).hasValue(WebView.CSP);
            assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
            assertThat(r.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
        }
        assertThat(WebView.CSP).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
                "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'").doesNotContain("unsafe");
    }

    @Test
    void pagesHaveAViewportLoadOnlyStaticFilesAndNoInlineScriptOrStyle() throws Exception {
        String html = get("/").body();
        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .contains("<link rel=\"stylesheet\" href=\"/static/web.css\">")
                .contains("<script src=\"/static/web.js\" defer=\"\"></script>")
                .doesNotContain("<style").doesNotContain(" style=").doesNotContain(" onclick=");
        assertThat(html.split("<script", -1)).hasSize(2);
    }

    @Test
    void theStaticFilesAreServedWithTheirTypes() throws Exception {
        HttpResponse<String> css = get("/static/web.css");
        assertThat(css.statusCode()).isEqualTo(200);
        assertThat(css.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/css"));
        assertThat(css.body()).contains("pre.fact-body");
        HttpResponse<String> js = get("/static/web.js");
        assertThat(js.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/javascript"));
        assertThat(get("/static/other.js").statusCode()).isEqualTo(404);
    }

    @Test
    void theTimelineListsCommitsNewestFirstWithActorSignatureAndOperations() throws Exception {
        HttpResponse<String> r = get("/");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        String html = r.body();
        assertThat(html).contains("class=\"sig sig-verified\">verified<", "class=\"actor\">alice<",
                "class=\"op op-assert\">assert<", "class=\"op op-revise\">revise<", "class=\"op op-retract\">retract<",
                "class=\"op op-forget\">forget<")
                .doesNotContain("sig-untrusted").doesNotContain("sig-unsigned");
        assertThat(html.indexOf("/facts/hostile?at=")).as("newest first").isPositive()
                .isLessThan(html.indexOf("/facts/secret?at=")).isLessThan(html.indexOf("/facts/plan?at=" + f.v1Commit.hex()));
        assertThat(html).contains("/facts/plan?at=" + f.v2Commit.hex());
    }

    @Test
    void aCommitAPullMovedMainToCarriesAPullBadgeWithTheRemoteAndNoOtherCommitDoes() throws Exception {
        String html = get("/").body();
        String pulled = "data-commit=\"" + f.pulledCommit.hex() + "\"";
        assertThat(html).contains(pulled);
        String item = html.substring(html.indexOf(pulled), html.indexOf("</li>", html.indexOf("class=\"subject\"",
                html.indexOf(pulled))));
        assertThat(item).contains("<span class=\"op op-pull\" title=\"how this commit reached main here (this "
                + "repository&#39;s reflog)\">pull</span><span class=\"arrival\">from <span class=\"remote\">peer</span>, "
                + "fast-forward, <time datetime=\"");
        assertThat(html.split("class=\"op op-pull", -1)).as("one badge: only the commit main moved to").hasSize(2);
        assertThat(get("/?at=" + f.v2Commit.hex()).body()).doesNotContain("op-pull");
    }

    @Test
    void aSupersessionIsShownAsSupersedeInTheTimeline() throws Exception {
        assertThat(get("/").body()).contains("class=\"op op-supersede\">supersede<");
    }

    @Test
    void theTimelineAsOfAnOlderCommitStartsThere() throws Exception {
        String html = get("/?at=" + f.v1Commit.hex()).body();
        assertThat(html).contains("As of commit", f.v1Commit.abbreviated()).doesNotContain("/facts/hostile?at=")
                .doesNotContain("/facts/plan?at=" + f.v2Commit.hex()).contains("/facts/plan?at=" + f.v1Commit.hex());
    }

    @Test
    void theFactPageShowsTheVersionAtTheAskedCommitAndItsHistory() throws Exception {
        String old = get("/facts/plan?at=" + f.v1Commit.hex()).body();
        assertThat(old).contains(WebFixture.V1).doesNotContain(WebFixture.V2).contains("class=\"change-kind\">revised<",
                "class=\"change-kind\">added<");
        String now = get("/facts/plan").body();
        assertThat(now).contains(WebFixture.V2).doesNotContain(WebFixture.V1).contains("live as of");
    }

    @Test
    void aRefLinksToItsTargetAtTheViewedCommitWithItsStatus() throws Exception {
        String html = get("/facts/note").body();
        assertThat(html).containsPattern("href=\"/facts/src\\?at=[0-9a-f]{40}\" class=\"ref-target\">src<")
                .contains("class=\"ref-status ref-current\">current<");
        assertThat(get("/facts/src").body()).contains("class=\"citer\">note<");
    }

    @Test
    void theFactPageListsEachReceiptBundleWithItsMembersLinkedAtTheViewedCommitAndTheDeadOnesMarked() throws Exception {
        String at = f.store.head().hex();
        String merge = get("/facts/" + WebFixture.MERGED.value() + "?at=" + at).body();
        assertThat(merge).contains("<h2>Receipts</h2>", "class=\"receipt-state receipt-alive\">alive<")
                .contains("<li class=\"bundle bundle-dead\"><span class=\"bundle-state\">dead bundle:</span> "
                        + "<a href=\"/facts/ramp?at=" + at + "\" class=\"member member-dead\">ramp</a>")
                .contains("<li class=\"bundle bundle-alive\"><span class=\"bundle-state\">alive bundle:</span> "
                        + "<a href=\"/facts/lift?at=" + at + "\" class=\"member member-alive\">lift</a>");
        assertThat(merge.indexOf("class=\"member-dead\">(dead)<")).as("only the retracted member is marked dead")
                .isEqualTo(merge.lastIndexOf("class=\"member-dead\">(dead)<")).isPositive();

        String summary = get("/facts/" + WebFixture.SUMMARY.value() + "?at=" + at).body();
        assertThat(summary).contains("<li class=\"sentence sentence-dead\"><q class=\"argument\">"
                + "The &lt;b&gt;ramp&lt;/b&gt; was signed off.</q>")
                .contains("<li class=\"sentence sentence-alive\"><q class=\"argument\">The lift was signed off.</q>")
                .doesNotContain("<b>ramp</b>");
    }

    @Test
    void aFactWithoutReceiptsShowsNoReceiptsSection() throws Exception {
        assertThat(get("/facts/note").body()).doesNotContain("Receipts").doesNotContain("class=\"bundles\"");
    }

    @Test
    void theFactPageOfAReceiptBeforeItsMemberWasRetractedShowsEveryBundleAlive() throws Exception {
        CommitId before = f.receiptsCommit;
        String merge = get("/facts/" + WebFixture.MERGED.value() + "?at=" + before.hex()).body();
        assertThat(merge).contains("<h2>Receipts</h2>").doesNotContain("bundle-dead").doesNotContain("(dead)")
                .contains("<a href=\"/facts/ramp?at=" + before.hex() + "\" class=\"member member-alive\">ramp</a>");
    }

    @Test
    void aRetractedFactShowsTheReasonAndItsLastVersion() throws Exception {
        String html = get("/facts/old").body();
        assertThat(html).contains("retracted at", "contradicted by the minutes", "Last valid version",
                "a claim that turned out wrong");
    }

    @Test
    void aForgottenFactIsATombstoneWithoutContentAtEveryCommit() throws Exception {
        for (String at : new String[] {"", "?at=" + f.store.head().hex(), "?at=" + f.v2Commit.hex()}) {
            HttpResponse<String> r = get("/facts/" + SECRET.value() + at);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("class=\"tombstone\"", "Forgotten at", "content was erased")
                    .doesNotContain(WebFixture.SECRET_BODY).doesNotContain("4711");
        }
    }

    @Test
    void aHostileBodyIsEscapedTextWithBidiOverridesMadeVisible() throws Exception {
        HttpResponse<String> r = get("/facts/" + HOSTILE.value());
        assertThat(r.statusCode()).isEqualTo(200);
        String html = r.body();
        assertThat(html).contains("&lt;script&gt;window.pwned=1&lt;/script&gt;",
                "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;", "&lt;U+202E&gt;gnp.exe&lt;U+202C&gt;",
                "&amp; &#39;quotes&#39;")
                .doesNotContain("<script>window").doesNotContain("<img").doesNotContain("\u202E");
        assertThat(html.length()).isGreaterThan(WebFixture.HOSTILE_BYTES);
    }

    @Test
    void anUnknownOrMalformedFactIdIsA404Page() throws Exception {
        HttpResponse<String> r = get("/facts/nosuch");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("404", "nosuch");
        HttpResponse<String> bad = get("/facts/%3Cb%3E");
        assertThat(bad.statusCode()).isEqualTo(404);
        assertThat(bad.body()).contains("&lt;b&gt;").doesNotContain("<b>");
        assertThat(get("/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void aFactNotYetWrittenAtTheAskedCommitIs404() throws Exception {
        HttpResponse<String> r = get("/facts/hostile?at=" + f.v1Commit.hex());
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).contains("not written as of commit " + f.v1Commit.abbreviated());
    }

    @Test
    void aBadAtIsA400PageNamingWhatIsWrong() throws Exception {
        HttpResponse<String> junk = get("/facts/plan?at=%3Cjunk%3E");
        assertThat(junk.statusCode()).isEqualTo(400);
        assertThat(junk.body()).contains("at: &#39;&lt;junk&gt;&#39; is neither a commit id");
        HttpResponse<String> unknown = get("/?at=deadbeef");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("at: &#39;deadbeef&#39; names no commit of this store");
        HttpResponse<String> early = get("/?at=2001-01-01T00:00:00Z");
        assertThat(early.statusCode()).isEqualTo(400);
        assertThat(early.body()).contains("no commit of this store is dated at or before 2001-01-01T00:00:00Z");
        assertThat(get("/?page=-1").statusCode()).isEqualTo(400);
    }

    @Test
    void aTimeRedirectsToTheCommitAsOfItSoTheUrlHoldsTheCommit() throws Exception {
        HttpResponse<String> r = get("/facts/plan?time=" + Instant.now().plusSeconds(60));
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).hasValueSatisfying(
                v -> assertThat(v).endsWith("/facts/plan?at=" + f.store.head().hex()));
        HttpResponse<String> local = get("/?at=2999-01-01T10:00");
        assertThat(local.statusCode()).isEqualTo(303);
        assertThat(local.headers().firstValue("Location")).hasValueSatisfying(
                v -> assertThat(v).endsWith("/?at=" + f.store.head().hex()));
    }

    @Test
    void theAsOfFormsEmptyFieldsRedirectToTheCanonicalUrl() throws Exception {
        HttpResponse<String> r = get("/facts/plan?at=" + f.v1Commit.hex() + "&time=");
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).hasValueSatisfying(
                v -> assertThat(v).endsWith("/facts/plan?at=" + f.v1Commit.hex()));
        HttpResponse<String> none = get("/?at=&time=");
        assertThat(none.headers().firstValue("Location")).hasValueSatisfying(v -> assertThat(v).endsWith("/"));
    }

    @Test
    void theEntityPageShowsCurrentClaimsContradictionsTheCorrectionChainAndDeadEnds() throws Exception {
        HttpResponse<String> r = get("/entities/lantern%20row");
        assertThat(r.statusCode()).isEqualTo(200);
        String html = r.body();
        assertThat(html).contains("class=\"entity-key\">lantern row<", "Contradictions", "Current claims",
                "Correction chains", "Dead ends");
        String contradictions = html.substring(html.indexOf("class=\"contradictions\""), html.indexOf("Current claims"));
        assertThat(contradictions).contains(">owner<", ">Alice Kim<", ">Bob Ng<").doesNotContain("Europe/Berlin");
        String deadEnds = html.substring(html.indexOf("Dead ends"));
        assertThat(deadEnds).contains(">UTC<", "status-superseded", "/facts/tz-new?at=").doesNotContain("Bob Ng");
        String chains = html.substring(html.indexOf("Correction chains"), html.indexOf("Dead ends"));
        assertThat(chains.indexOf(">UTC<")).as("oldest first").isLessThan(chains.indexOf(">Europe/Berlin<"));
        assertThat(chains).as("owner was never corrected").doesNotContain("Alice Kim");
    }

    @Test
    void anEntityIsFoundByAnySpellingOfItsKeyAndAClaimLinksBackToIt() throws Exception {
        HttpResponse<String> r = get("/entities?key=Lantern%20ROW!&at=main");
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).hasValue("/entities/Lantern%20ROW%21?at=main");
        assertThat(get("/entities/Lantern%20ROW%21").body()).contains("class=\"entity-key\">lantern row<");
        assertThat(get("/facts/owner-a").body()).contains("class=\"entity\">Lantern Row</a> · owner · Alice Kim");
    }

    @Test
    void anEntityWithoutClaimsIsA404AndBeforeItsClaimsToo() throws Exception {
        assertThat(get("/entities/nobody").statusCode()).isEqualTo(404);
        assertThat(get("/entities/%21%21").statusCode()).isEqualTo(404);
        HttpResponse<String> early = get("/entities/lantern%20row?at=" + f.v1Commit.hex());
        assertThat(early.statusCode()).isEqualTo(404);
        assertThat(early.body()).contains("no claim about the entity &#39;lantern row&#39; as of commit");
    }

    @Test
    void searchShowsEachHitWithTheChannelThatFoundItAtTheAskedCommit() throws Exception {
        HttpResponse<String> r = get("/search?q=launch");
        assertThat(r.statusCode()).isEqualTo(200);
        String html = r.body();
        assertThat(html).contains("class=\"search-summary\"", "class=\"channel channel-lexical\">lexical<")
                .containsPattern("href=\"/facts/plan\\?at=[0-9a-f]{40}\" class=\"fact\">plan<")
                .contains(WebFixture.V2).doesNotContain(WebFixture.V1);
        String old = get("/search?q=launch&at=" + f.v1Commit.hex()).body();
        assertThat(old).contains(WebFixture.V1).doesNotContain(WebFixture.V2).doesNotContain(">note<");
    }

    @Test
    void searchByEntityShowsTheEntityChannel() throws Exception {
        String html = get("/search?entity=Lantern%20Row").body();
        assertThat(html).contains("class=\"channel channel-entity\">entity<", "class=\"entity\">Lantern Row</a>",
                ">owner-a<", ">owner-b<", ">tz-new<");
    }

    @Test
    void aHitReachedByAGraphHopNamesTheFactItCameVia() throws Exception {
        String html = get("/search?q=slipped").body();
        assertThat(html).containsPattern("class=\"fact\">src</a><span class=\"channel channel-graph\">graph</span>"
                + "<span class=\"score\">[0-9.]+</span><span class=\"kind\">source</span><span class=\"via\">1 hop via "
                + "<a href=\"/facts/note\\?at=[0-9a-f]{40}\">note</a>");
    }

    @Test
    void aHostileHitIsAnEscapedExcerpt() throws Exception {
        String html = get("/search?q=filler%20hostile").body();
        assertThat(html).contains("&lt;script&gt;window.pwned=1&lt;/script&gt;", "&lt;U+202E&gt;")
                .doesNotContain("<script>window").doesNotContain("<img");
        assertThat(html.length()).as("an excerpt, not the 1 MiB body").isLessThan(100_000);
    }

    @Test
    void anEmptySearchShowsTheFormOnlyAndTheAsOfFormKeepsTheQuery() throws Exception {
        String empty = get("/search").body();
        assertThat(empty).contains("id=\"search-q\"").doesNotContain("class=\"hits\"");
        String html = get("/search?q=launch").body();
        assertThat(html).contains("<input type=\"hidden\" name=\"q\" value=\"launch\">",
                "href=\"/search?q=launch\" class=\"latest\"");
        HttpResponse<String> r = get("/search?q=launch&entity=&at=&time=2999-01-01T00:00");
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).hasValue("/search?q=launch&at=" + f.store.head().hex());
    }

    @Test
    void theProvenanceGraphDrawsWhatAFactRestsOnAndWhatCitesItAsInlineSvg() throws Exception {
        HttpResponse<String> r = get("/graph/note");
        assertThat(r.statusCode()).isEqualTo(200);
        String html = r.body();
        String svg = html.substring(html.indexOf("<svg"), html.indexOf("</svg>"));
        assertThat(svg).contains("aria-label=\"provenance graph of note\"", ">note<", ">src<", "class=\"edge-role\"",
                ">cites<").containsPattern("href=\"/graph/src\\?at=[0-9a-f]{40}\" class=\"node node-live\"")
                .doesNotContain("<script").doesNotContain("style=");
        assertThat(svg.split("<line ", -1)).as("one edge").hasSize(2);
        assertThat(html).contains("class=\"provenance-tree\"");
        String src = get("/graph/src").body();
        assertThat(src).contains("Cited by").containsPattern("href=\"/graph/note\\?at=[0-9a-f]{40}\" class=\"citer\">note<");
        assertThat(get("/facts/note").body()).contains("class=\"to-graph\">provenance graph<");
    }

    @Test
    void theGraphOfAnUnknownFactIsA404AndABadAtA400() throws Exception {
        assertThat(get("/graph/nosuch").statusCode()).isEqualTo(404);
        assertThat(get("/graph/note?at=zz%20z").statusCode()).isEqualTo(400);
    }

    @Test
    void theStatusPageShowsTheIndexTheAuditOfMainRunInTheBackgroundAndTheReviewQueue() throws Exception {
        String first = get("/status").body();
        assertThat(first).contains("Search index", "Audit of main", "Review queue")
                .containsPattern("class=\"index-state index-(warming|ready)\"")
                .as("a superseder's own ref to what it supersedes is no stale ref").contains("Nothing to review as of");
        assertThat(get("/status?at=" + f.v2Commit.hex()).body()).contains("Nothing to review as of");
        long deadline = System.nanoTime() + 60_000_000_000L;
        String html = first;
        while (!html.contains("audit-clean") && System.nanoTime() < deadline) {
            assertThat(html).doesNotContain("audit-failed").doesNotContain("audit-violations");
            Thread.sleep(200);
            html = get("/status").body();
        }
        assertThat(html).contains("class=\"audit audit-clean\">clean<", "Every commit up to",
                f.store.head().abbreviated());
    }

    @Test
    void aWriteIs405() throws Exception {
        String basic = Base64.getEncoder().encodeToString(("viewer:" + f.token).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(f.url("/facts/plan")))
                .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void theAccessLogNeverHoldsTheToken() throws Exception {
        get("/facts/plan?at=main");
        assertThat(f.accessLog()).contains("path=/facts/plan").doesNotContain(f.token).doesNotContain("at=main");
    }
}
