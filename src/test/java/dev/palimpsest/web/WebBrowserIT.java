package dev.palimpsest.web;

import static dev.palimpsest.web.WebFixture.HOSTILE;
import static dev.palimpsest.web.WebFixture.NOTE;
import static dev.palimpsest.web.WebFixture.SECRET;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web view in a real browser: Debian's headless Chromium driven by its chromedriver through
 * Selenium WebDriver (never a downloaded browser or driver), logged in with a read-only token as
 * the Basic password in the URL. Navigates the timeline to a fact, moves "as of" back to see the
 * older version, follows a pinned ref, opens an entity with a contradiction from the timeline, searches,
 * walks the provenance graph, sees
 * a forgotten fact as a tombstone without content, sees the pull badge of the pulled tip and follows a
 * receipt's member, and
 * renders a hostile 1 MiB fact as text with nothing run; every page fits a phone-width window.
 * Without chromium and chromedriver it is skipped, except under {@code CI=true}, where that fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    static Path tmp;

    private WebFixture f;
    private WebDriver driver;
    private ChromeDriverService service;
    private String base;

    @BeforeAll
    void startAHubAndABrowser() throws Exception {
        String missing = !Files.isExecutable(CHROMIUM) ? CHROMIUM + " is missing"
                : !Files.isExecutable(CHROMEDRIVER) ? CHROMEDRIVER + " is missing" : null;
        if (missing != null) {
            assertThat("true".equals(System.getenv("CI"))).as("on CI the browser tests must run (.ci/run installs"
                    + " chromium and chromium-driver), but " + missing).isFalse();
            Assumptions.abort("skipped: " + missing + " (apt-get install chromium chromium-driver)");
        }
        f = new WebFixture(tmp.resolve("store"));
        base = f.hub.url().replace("://", "://viewer:" + f.token + "@");
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withLogFile(tmp.resolve("chromedriver.log").toFile()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1200,900",
                "--user-data-dir=" + Files.createDirectories(tmp.resolve("chromium-profile")));
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    void stopTheBrowserAndTheHub() {
        if (driver != null) {
            driver.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (f != null) {
            f.close();
        }
    }

    @BeforeEach
    void aDesktopWindow() {
        driver.manage().window().setSize(new Dimension(1200, 900));
    }

    private void open(String path) {
        driver.get(base + path);
    }

    private Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    private String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    private String path() {
        return (String) js("return location.pathname + location.search");
    }

    @Test
    void theTimelineLeadsToAFactAndTheStylesheetAndScriptLoadUnderThePolicy() {
        open("/");
        assertThat(driver.getTitle()).startsWith("Timeline");
        assertThat(driver.findElements(By.cssSelector("ol.timeline > li.commit"))).hasSizeGreaterThan(5);
        assertThat(driver.findElements(By.cssSelector(".sig-verified"))).isNotEmpty();
        assertThat(js("return getComputedStyle(document.querySelector('header.top')).display")).as("web.css applied")
                .isEqualTo("flex");
        WebElement plan = driver.findElements(By.cssSelector("a.fact")).stream()
                .filter(a -> a.getText().equals("plan")).findFirst().orElseThrow();
        plan.click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/facts/plan?at="));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("plan");
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo(WebFixture.V2);
    }

    @Test
    void movingAsOfBackShowsTheOlderVersionOfARevisedFactAndTheUrlHoldsTheCommit() {
        open("/facts/plan");
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo(WebFixture.V2);
        WebElement at = driver.findElement(By.id("asof-at"));
        at.clear();
        at.sendKeys(f.v1Commit.hex());
        driver.findElement(By.cssSelector("form.asof button[type=submit]")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("at=" + f.v1Commit.hex()));
        assertThat(path()).isEqualTo("/facts/plan?at=" + f.v1Commit.hex());
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo(WebFixture.V1);
        assertThat(text()).doesNotContain(WebFixture.V2);
        // the timeline as of that commit lists nothing newer
        driver.findElement(By.cssSelector("a.brand")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.titleContains("Timeline"));
        assertThat(path()).isEqualTo("/?at=" + f.v1Commit.hex());
        assertThat(driver.findElements(By.cssSelector("ol.timeline > li.commit")).get(0).getAttribute("data-commit"))
                .isEqualTo(f.v1Commit.hex());
    }

    @Test
    void aTimePickedInTheAsOfFormResolvesToTheLastCommitAtOrBeforeIt() {
        open("/facts/plan?at=" + f.v1Commit.hex());
        js("document.getElementById('asof-time').value = '2999-01-01T00:00:00';"
                + "document.getElementById('asof-time').dispatchEvent(new Event('change'))");
        assertThat(driver.findElement(By.id("asof-at")).getAttribute("value")).as("web.js clears the commit field")
                .isEmpty();
        driver.findElement(By.cssSelector("form.asof button[type=submit]")).click();
        String head = f.store.head().hex();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("at=" + head));
        assertThat(path()).isEqualTo("/facts/plan?at=" + head);
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo(WebFixture.V2);
    }

    @Test
    void thePulledTipShowsItsPullBadgeAndAReceiptMemberLeadsToItsFact() {
        open("/");
        WebElement tip = driver.findElements(By.cssSelector("ol.timeline > li.commit")).get(0);
        assertThat(tip.getAttribute("data-commit")).isEqualTo(f.pulledCommit.hex());
        assertThat(tip.findElement(By.cssSelector(".op-pull")).getText()).isEqualTo("pull");
        assertThat(tip.findElement(By.cssSelector(".arrival")).getText()).startsWith("from peer, fast-forward, ");
        assertThat(driver.findElements(By.cssSelector(".op-pull"))).hasSize(1);
        open("/facts/" + WebFixture.MERGED.value());
        assertThat(driver.findElements(By.cssSelector("li.bundle-dead a.member-dead"))).extracting(WebElement::getText)
                .containsExactly("ramp");
        driver.findElement(By.cssSelector("li.bundle-alive a.member")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/facts/lift?at="));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("lift");
    }

    @Test
    void aPinnedRefIsALinkToItsTarget() {
        open("/facts/" + NOTE.value());
        WebElement ref = driver.findElement(By.cssSelector("a.ref-target"));
        assertThat(ref.getText()).isEqualTo("src");
        assertThat(driver.findElement(By.cssSelector(".ref-status")).getText()).isEqualTo("current");
        ref.click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/facts/src?at="));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("src");
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo("the design review minutes");
        assertThat(driver.findElement(By.cssSelector("a.citer")).getText()).isEqualTo("note");
    }

    @Test
    void anEntityWithAContradictionIsOpenedFromTheTimelineAndLinksToItsClaims() {
        open("/");
        driver.findElement(By.id("lookup-entity")).sendKeys(WebFixture.ENTITY);
        driver.findElement(By.id("lookup-entity")).submit();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/entities/"));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("lantern row");
        WebElement contradiction = driver.findElement(By.cssSelector("li.contradiction"));
        assertThat(contradiction.getText()).contains("owner", "Alice Kim", "Bob Ng");
        assertThat(driver.findElement(By.cssSelector("ul.dead-ends")).getText()).contains("UTC", "superseded", "tz-new");
        contradiction.findElements(By.cssSelector("a.object")).stream().filter(a -> a.getText().equals("Bob Ng"))
                .findFirst().orElseThrow().click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/facts/owner-b?at="));
        driver.findElement(By.cssSelector("a.entity")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/entities/lantern%20row"));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("lantern row");
    }

    @Test
    void aSearchShowsItsChannelsAndLeadsToAFact() {
        open("/");
        driver.findElement(By.cssSelector("a.nav-search")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.titleContains("Search"));
        driver.findElement(By.id("search-q")).sendKeys("launch");
        driver.findElement(By.id("search-q")).submit();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("q=launch"));
        assertThat(driver.findElement(By.cssSelector("p.search-summary")).getText()).contains("lexical");
        WebElement hit = driver.findElements(By.cssSelector("ol.hits a.fact")).stream()
                .filter(a -> a.getText().equals("plan")).findFirst().orElseThrow();
        hit.click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/facts/plan?at="));
        assertThat(driver.findElement(By.cssSelector("pre.fact-body")).getText()).isEqualTo(WebFixture.V2);
    }

    @Test
    void theProvenanceGraphIsAnSvgWhoseNodesAreLinks() {
        open("/facts/" + NOTE.value());
        driver.findElement(By.cssSelector("a.to-graph")).click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/graph/note?at="));
        assertThat(driver.findElements(By.cssSelector("svg.graph a.node"))).hasSize(2);
        assertThat(js("return document.querySelector('svg.graph').getBoundingClientRect().width")).isNotEqualTo(0L);
        driver.findElements(By.cssSelector("svg.graph a.node")).stream()
                .filter(a -> String.valueOf(a.getDomAttribute("href")).startsWith("/graph/src?at="))
                .findFirst().orElseThrow().click();
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("/graph/src?at="));
        assertThat(driver.findElement(By.cssSelector("h1")).getText()).isEqualTo("src");
        assertThat(driver.findElement(By.cssSelector("a.citer")).getText()).isEqualTo("note");
    }

    @Test
    void aForgottenFactIsATombstoneWithNoContent() {
        open("/facts/" + SECRET.value());
        assertThat(driver.findElement(By.cssSelector(".tombstone")).getText()).contains("Forgotten at", "erased");
        assertThat(driver.findElements(By.cssSelector("pre.fact-body"))).isEmpty();
        assertThat(driver.getPageSource()).doesNotContain(WebFixture.SECRET_BODY).doesNotContain("4711");
    }

    @Test
    void aHostileFactRendersAsTextAndRunsNothing() {
        open("/facts/" + HOSTILE.value());
        assertThat(js("return window.pwned")).isNull();
        String body = (String) js("return document.querySelector('pre.fact-body').textContent");
        assertThat(body).startsWith("<script>window.pwned=1</script> <img src=x onerror=\"window.pwned=1\"> ")
                .contains("<U+202E>gnp.exe<U+202C>").doesNotContain("\u202E");
        assertThat(body.length()).isGreaterThan(WebFixture.HOSTILE_BYTES - 100);
        assertThat(text()).contains("<script>window.pwned=1</script>");
        assertThat(js("return document.images.length")).isEqualTo(0L);
        assertThat(js("return Array.from(document.scripts).map(s => s.getAttribute('src'))"))
                .isEqualTo(List.of("/static/web.js"));
        assertThat(js("return window.pwned")).as("nothing ran after load either").isNull();
    }

    @Test
    void everyPageFitsAPhoneWidthScreenWithoutHorizontalScrolling() {
        driver.manage().window().setSize(new Dimension(390, 844));
        for (String p : new String[] {"/", "/facts/" + HOSTILE.value(), "/facts/" + NOTE.value(),
                "/facts/" + SECRET.value(), "/facts/plan?at=" + f.v1Commit.hex(), "/facts/nosuch",
                "/entities/lantern%20row", "/search?q=filler%20hostile", "/search?entity=Lantern%20Row",
                "/graph/" + NOTE.value(), "/status", "/facts/" + WebFixture.SUMMARY.value()}) {
            open(p);
            long inner = (Long) js("return window.innerWidth");
            long scroll = (Long) js("return document.scrollingElement.scrollWidth");
            assertThat(inner).as("the window is phone-width").isLessThanOrEqualTo(400);
            assertThat(scroll).as("horizontal scroll on " + p).isLessThanOrEqualTo(inner);
        }
    }

    /** Keeps the temp folder's name from hiding where chromedriver logged, should a test fail. */
    static File driverLog() {
        return tmp.resolve("chromedriver.log").toFile();
    }
}
