package dev.palimpsest.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Regenerates the README's screenshots of the web view ({@code docs/images/web-*.png}) from the
 * browser tests' store ({@link WebFixture}), in Debian's headless Chromium: not a test, a tool run by
 * hand from the project folder after {@code mvn test-compile}:
 *
 * <pre>java -cp target/classes:target/test-classes:$(cat cp.txt) dev.palimpsest.web.WebScreenshots docs/images</pre>
 *
 * (where {@code cp.txt} holds the test classpath: {@code mvn dependency:build-classpath
 * -Dmdep.outputFile=cp.txt}).
 */
public final class WebScreenshots {
    private WebScreenshots() {}

    public static void main(String[] args) throws Exception {
        Path out = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "docs/images"));
        Path tmp = Files.createTempDirectory("web-screenshots-");
        try (WebFixture f = new WebFixture(tmp.resolve("store"))) {
            String base = f.hub.url().replace("://", "://viewer:" + f.token + "@");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
            ChromeOptions options = new ChromeOptions();
            options.setBinary(Path.of("/usr/bin/chromium").toFile());
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1100,760", "--hide-scrollbars",
                    "--user-data-dir=" + Files.createDirectories(tmp.resolve("chromium-profile")));
            ChromeDriver driver = new ChromeDriver(service, options);
            try {
                driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
                Map<String, String> pages = new java.util.LinkedHashMap<>();
                pages.put("web-timeline.png", "/");
                pages.put("web-fact.png", "/facts/" + WebFixture.PLAN.value() + "?at=" + f.v1Commit.hex());
                pages.put("web-entity.png", "/entities/" + WebFixture.ENTITY.replace(" ", "%20"));
                pages.put("web-graph.png", "/graph/" + WebFixture.NOTE.value());
                for (Map.Entry<String, String> p : pages.entrySet()) {
                    driver.get(base + p.getValue());
                    Path shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
                    Files.copy(shot, out.resolve(p.getKey()), StandardCopyOption.REPLACE_EXISTING);
                    System.out.println("wrote " + out.resolve(p.getKey()) + " (" + p.getValue() + ")");
                }
            } finally {
                driver.quit();
                service.stop();
            }
        }
    }
}
