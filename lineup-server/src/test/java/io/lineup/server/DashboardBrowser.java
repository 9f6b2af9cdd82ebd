package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The headless Chromium the dashboard's browser tests share: Debian's chromium and chromedriver, a
 * fresh profile per class, 1280 × 900. Without them a test class is skipped with a message, unless
 * {@code LINEUP_REQUIRE_BROWSER=1}, which makes it fail.
 */
final class DashboardBrowser {
  /** Most axe-core runs over one page (axeRun). */
  private static final int AXE_RUNS = 3;

  /** Longest one axe-core run may take, in seconds; axe's own default is 30. */
  private static final int AXE_TIMEOUT_SECONDS = 120;

  final ChromeDriver driver;
  private final Path profile;

  private DashboardBrowser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /**
   * Starts the browser for a test class (named in the skip message).
   *
   * @throws IOException when the profile folder cannot be made
   */
  static DashboardBrowser start(String testClass) throws IOException {
    Optional<Path> chromium = firstExisting("/usr/bin/chromium", "/usr/bin/chromium-browser");
    Optional<Path> driver =
        firstExisting("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    if (chromium.isEmpty() || driver.isEmpty()) {
      String why =
          testClass
              + " skipped: chromium and chromedriver are not installed"
              + " (apt-get install chromium chromium-driver); LINEUP_REQUIRE_BROWSER=1 makes this a"
              + " failure";
      if ("1".equals(System.getenv("LINEUP_REQUIRE_BROWSER"))) {
        throw new AssertionError(why.replace("skipped", "cannot run"));
      }
      System.err.println(why);
      Assumptions.abort(why);
    }
    // Selenium then uses this driver and never downloads one.
    System.setProperty("webdriver.chrome.driver", driver.get().toString());
    Path profile = Files.createTempDirectory("lineup-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(driver.get().toFile()).build();
    return new DashboardBrowser(new ChromeDriver(service, options), profile);
  }

  /**
   * Quits the browser and removes its profile.
   *
   * @throws IOException when the profile cannot be walked
   */
  void quit() throws IOException {
    driver.quit();
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** axe-core on the page as it is: no serious or critical violation. */
  void assertAccessible(String page) {
    Results results = axeRun(page);
    // axe ran and checked something: a page with no rule passed would mean it did not.
    assertThat(results.getPasses()).as(page).isNotEmpty();
    List<Rule> bad =
        results.getViolations().stream()
            .filter(
                rule -> "serious".equals(rule.getImpact()) || "critical".equals(rule.getImpact()))
            .toList();
    assertThat(bad)
        .as(() ->
            page
                + ": "
                + bad.stream()
                    .map(rule ->
                        rule.getId()
                            + " ("
                            + rule.getImpact()
                            + ") at "
                            + rule.getNodes().stream()
                                .map(node -> String.valueOf(node.getTarget()))
                                .toList())
                    .toList())
        .isEmpty();
  }

  /**
   * axe-core's run over the page. A run that a loaded machine cut short (its script past axe's
   * timeout) comes back as an error with no rule checked, which says nothing of the page: such a
   * run is made again, up to {@value #AXE_RUNS} runs of up to {@value #AXE_TIMEOUT_SECONDS} s each.
   *
   * @throws AssertionError when no run finished
   */
  private Results axeRun(String page) {
    Results results = null;
    for (int run = 1; run <= AXE_RUNS; run++) {
      results = new AxeBuilder().setTimeout(AXE_TIMEOUT_SECONDS).analyze(driver);
      if (!results.isErrored()) {
        return results;
      }
    }
    throw new AssertionError(
        page + ": axe-core did not finish in " + AXE_RUNS + " runs: " + results.getErrorMessage());
  }

  static Optional<Path> firstExisting(String... paths) {
    return Stream.of(paths).map(Path::of).filter(Files::isExecutable).findFirst();
  }
}
