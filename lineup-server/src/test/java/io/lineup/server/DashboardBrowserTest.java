package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The web dashboard in a real headless Chromium (Debian's chromium and chromedriver, driven by
 * Selenium): log in, read a seeded queue, respawn a dead job, watch counts change without a reload,
 * pause a queue, open an endpoint and a room; data holding HTML is shown as text and runs nothing;
 * a read-only token is offered no action and a forbidden call says so. Screenshots go to {@code
 * target/dashboard-screenshots}.
 *
 * <p>Without chromium and chromedriver the class is skipped with a message, unless {@code
 * LINEUP_REQUIRE_BROWSER=1} (set by {@code .ci/run}), which makes it fail.
 */
class DashboardBrowserTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  /** Text that would run a script if it were ever parsed as HTML. */
  static final String HOSTILE = "<img src=x onerror=window.__pwned=1>";

  static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
  static final Duration PATIENCE = Duration.ofSeconds(15);

  static ChromeDriver browser;
  static Path profile;
  static Api admin;

  @BeforeAll
  static void startBrowser() throws IOException {
    Optional<Path> chromium = firstExisting("/usr/bin/chromium", "/usr/bin/chromium-browser");
    Optional<Path> driver =
        firstExisting("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    if (chromium.isEmpty() || driver.isEmpty()) {
      String why =
          "DashboardBrowserTest skipped: chromium and chromedriver are not installed"
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
    profile = Files.createTempDirectory("lineup-chromium-");
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
    browser = new ChromeDriver(service, options);
    Files.createDirectories(SCREENSHOTS);
    admin = server.admin();
  }

  @AfterAll
  static void stopBrowser() throws IOException {
    if (browser != null) {
      browser.quit();
    }
    if (profile != null) {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @BeforeEach
  void startLoggedOut() {
    browser.manage().window().setSize(new Dimension(1280, 900));
    browser.get(server.baseUrl() + "/ui");
    js("sessionStorage.clear()");
    browser.navigate().refresh();
    waitFor(() -> !browser.findElements(By.id("login")).isEmpty());
  }

  @Test
  void anOperatorRespawnsADeadJobWatchesTheCountsChangeAndPausesTheQueue() {
    String queue = "/v1/queues/shop/emails";
    seedQueueWithADeadJob(queue);
    // A schedule whose first tick is far away: the page shows it and pauses it, no job comes.
    Reply scheduled =
        admin.put(
            queue + "/schedules/nightly",
            "{\"cron\": \"0 0 2 * * *\", \"zone\": \"Europe/Paris\","
                + " \"start_at\": 4070908800000, \"job\": {\"payload\": 1}}");
    assertThat(scheduled.status()).as(scheduled.toString()).isEqualTo(201);

    logIn(LineupServerExtension.ADMIN_TOKEN);
    waitForElement(By.cssSelector("tr[data-queue='shop/emails']"));
    waitFor(() -> cell("shop/emails", "ready").equals("3"));
    assertThat(cell("shop/emails", "dead")).isEqualTo("1");
    assertThat(cell("shop/emails", "state")).isEqualTo("open");
    js("window.__sameDocument = 'yes'");
    screenshot("overview");

    // Counts follow the server without a reload: publish through the API, watch the row.
    admin.post(queue + "/jobs", "[{\"payload\": 4}, {\"payload\": 5}]");
    waitFor(() -> cell("shop/emails", "ready").equals("5"));
    assertThat(js("return window.__sameDocument")).isEqualTo("yes");

    click(By.cssSelector("tr[data-queue='shop/emails'] a"));
    waitFor(() -> stat("dead").equals("1"));
    waitFor(() -> scheduleCell("nightly", "state").equals("active"));
    assertThat(scheduleCell("nightly", "when")).isEqualTo("0 0 2 * * *");
    waitFor(() ->
        browser
                .findElements(By.cssSelector("tr[data-schedule='nightly'] td[data-col='next'] li"))
                .size()
            == 5);
    // The ticks (epoch ms in the API) are shown as dates: the first is in 2099, from start_at.
    assertThat(
            browser
                .findElement(By.cssSelector("tr[data-schedule='nightly'] td[data-col='next'] li"))
                .getText())
        .contains("2099");
    waitFor(() ->
        browser
            .findElement(By.cssSelector("tr[data-dead='broken'] td[data-col='error']"))
            .getText()
            .equals(HOSTILE));
    // The charts draw the history the servers keep: a reading every 5 s.
    await().atMost(Duration.ofSeconds(25)).ignoreExceptions().until(() -> readingsCharted() >= 2);
    assertThat(js("return document.querySelectorAll('#depth-chart canvas').length")).isEqualTo(1L);
    screenshotWholePage("queue");

    click(By.cssSelector("button[data-schedule-action='nightly']"));
    waitFor(() -> scheduleCell("nightly", "state").equals("paused"));
    assertThat(admin.get(queue + "/schedules/nightly").json().get("state").asText())
        .isEqualTo("paused");

    // Open the dead job: fields, payload as text, its timeline; respawn it from there.
    click(By.cssSelector("tr[data-dead='broken'] a"));
    waitFor(() -> browser.findElement(By.id("job-state")).getText().equals("dead"));
    assertThat(browser.findElement(By.id("payload")).getText()).contains(HOSTILE);
    assertThat(browser.findElement(By.cssSelector("[data-field='error'] dd")).getText())
        .isEqualTo(HOSTILE);
    waitFor(
        () -> !browser.findElements(By.cssSelector("#timeline li[data-event='dead']")).isEmpty());
    screenshot("job");
    click(By.id("respawn-job"));
    waitFor(() -> browser.findElement(By.id("job-state")).getText().equals("ready"));
    assertThat(noticeText()).contains("Respawned broken");
    assertThat(admin.get(queue + "/jobs/broken").json().get("state").asText()).isEqualTo("READY");

    // Back on the queue the counts moved; pause it.
    click(By.linkText("shop/emails"));
    waitFor(() -> stat("dead").equals("0") && stat("ready").equals("6"));
    click(By.id("pause"));
    waitFor(() -> browser.findElement(By.id("queue-state")).getText().equals("paused"));
    assertThat(admin.get(queue).json().get("settings").get("paused").asBoolean()).isTrue();
    assertThat(browser.findElement(By.id("pause")).getText()).isEqualTo("Resume");

    assertNothingRan();
    assertThat(js("return document.querySelectorAll('main img').length")).isEqualTo(0L);
    assertThat(browser.getCurrentUrl()).doesNotContain(LineupServerExtension.ADMIN_TOKEN);
  }

  @Test
  void anEndpointAndARoomShowTheirLimitsAndCountsAlsoOnAPhoneInTheDark() {
    admin.put(
        "/v1/endpoints/shop/images",
        "{\"base_url\": \"http://127.0.0.1:9/api\", \"rate\": 60, \"period_ms\": 60000,"
            + " \"concurrency\": 4}");
    admin.put("/v1/rooms/shop/checkout", "{\"max_active\": 2, \"admit_per_minute\": 30}");

    logIn(LineupServerExtension.ADMIN_TOKEN);
    waitForElement(By.cssSelector("tr[data-room='shop/checkout']"));
    screenshot("overview-all");
    click(By.cssSelector("tr[data-endpoint='shop/images'] a"));
    waitFor(() -> field("circuit").startsWith("closed"));
    assertThat(field("in-flight")).isEqualTo("0 of 4");
    assertThat(field("rate-limit")).isEqualTo("60 per 1 min");
    assertThat(field("base-url")).isEqualTo("http://127.0.0.1:9/api");
    screenshot("endpoint");

    click(By.linkText("Overview"));
    click(By.cssSelector("tr[data-room='shop/checkout'] a"));
    waitFor(() -> field("active").equals("0 of 2"));
    assertThat(field("waiting")).isEqualTo("0");
    assertThat(field("admit-per-minute")).isEqualTo("30");
    screenshot("room");

    // A phone-sized window in a dark system theme.
    browser.executeCdpCommand(
        "Emulation.setEmulatedMedia",
        Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
    browser.manage().window().setSize(new Dimension(390, 844));
    click(By.linkText("Overview"));
    waitForElement(By.cssSelector("tr[data-room='shop/checkout']"));
    assertThat(js("return matchMedia('(prefers-color-scheme: dark)').matches")).isEqualTo(true);
    assertThat(js("return getComputedStyle(document.body).backgroundColor"))
        .isEqualTo("rgb(17, 20, 24)");
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    assertThat((Long) js("return document.documentElement.scrollWidth"))
        .isLessThanOrEqualTo((Long) js("return window.innerWidth"));
    screenshot("overview-phone-dark");
    browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
  }

  @Test
  void aReadOnlyTokenIsOfferedNoActionAndAForbiddenCallSaysSoClearly() {
    String queue = "/v1/queues/watch/orders";
    admin.post(queue + "/jobs", "{\"payload\": 1}");
    admin.patch(queue, "{\"max_attempts\": 1}");
    admin.post(queue + "/jobs", "{\"payload\": 2, \"id\": \"lost\", \"priority\": 5}");
    failOnce(queue, "lost", "gone");
    String reader = RoomFixtures.token(admin, "watch", "[\"read\"]", 0);

    logIn(reader);
    click(By.cssSelector("tr[data-queue='watch/orders'] a"));
    waitForElement(By.cssSelector("tr[data-dead='lost']"));
    waitFor(() -> stat("ready").equals("1"));
    assertThat(browser.findElements(By.id("pause"))).isEmpty();
    assertThat(browser.findElements(By.id("purge"))).isEmpty();
    assertThat(browser.findElements(By.id("respawn-all"))).isEmpty();
    assertThat(browser.findElements(By.cssSelector("[data-respawn]"))).isEmpty();
    assertThat(browser.findElements(By.id("settings-form"))).isEmpty();
    click(By.cssSelector("tr[data-dead='lost'] a"));
    waitFor(() -> browser.findElement(By.id("job-state")).getText().equals("dead"));
    assertThat(browser.findElements(By.id("respawn-job"))).isEmpty();
    assertThat(browser.findElements(By.id("cancel"))).isEmpty();

    // Another namespace's queue: the server answers 403, the page says why.
    browser.get(server.baseUrl() + "/ui#/queue/shop/emails");
    waitFor(() -> noticeText().startsWith("Not allowed"));
    assertThat(noticeText()).contains("namespace 'watch'");
    assertThat(browser.findElement(By.id("notice")).getAttribute("data-kind"))
        .isEqualTo("forbidden");
    screenshot("forbidden");
  }

  // ---- helpers ----

  void seedQueueWithADeadJob(String queue) {
    admin.patch(queue, "{\"max_attempts\": 1}");
    admin.post(queue + "/jobs", "[{\"payload\": 1}, {\"payload\": 2}, {\"payload\": 3}]");
    admin.post(
        queue + "/jobs",
        "{\"id\": \"broken\", \"priority\": 9, \"payload\": {\"note\": \""
            + HOSTILE.replace("\"", "\\\"")
            + "\"}}");
    failOnce(queue, "broken", HOSTILE);
  }

  /** Leases the job (the first in line) and nacks it with this error; out of attempts, it dies. */
  void failOnce(String queue, String id, String error) {
    JsonNode leased = admin.post(queue + "/leases", "{\"count\": 1}").json().get("jobs").get(0);
    assertThat(leased.get("id").asText()).isEqualTo(id);
    Reply nack =
        admin.post(
            queue + "/jobs/" + id + "/nack",
            "{\"token\": \""
                + leased.get("token").asText()
                + "\", \"error\": \""
                + error.replace("\"", "\\\"")
                + "\"}");
    assertThat(nack.json().get("state").asText()).as(nack.toString()).isEqualTo("DEAD");
  }

  void logIn(String token) {
    WebElement input = waitForElement(By.id("token"));
    input.sendKeys(token);
    browser.findElement(By.id("login-button")).click();
    waitForElement(By.id("who-text"));
    assertThat(js("return sessionStorage.getItem('lineup.token')")).isEqualTo(token);
  }

  /** A cell of a schedule's row on the queue page. */
  String scheduleCell(String schedule, String column) {
    return browser
        .findElement(
            By.cssSelector("tr[data-schedule='" + schedule + "'] td[data-col='" + column + "']"))
        .getText();
  }

  String cell(String queue, String column) {
    return browser
        .findElement(By.cssSelector("tr[data-queue='" + queue + "'] td[data-col='" + column + "']"))
        .getText();
  }

  String stat(String name) {
    return browser.findElement(By.cssSelector("[data-stat='" + name + "'] .stat-value")).getText();
  }

  String field(String name) {
    return browser.findElement(By.cssSelector("[data-field='" + name + "'] dd")).getText();
  }

  /** The readings the queue page says its charts hold ("..., 3 in the last 15 min."). */
  long readingsCharted() {
    String text = browser.findElement(By.id("eta-check")).getText();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(", (\\d+) in the last").matcher(text);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  String noticeText() {
    return browser.findElement(By.id("notice")).getText();
  }

  void assertNothingRan() {
    assertThat(js("return typeof window.__pwned")).isEqualTo("undefined");
  }

  Object js(String script) {
    return ((JavascriptExecutor) browser).executeScript(script);
  }

  /** Clicks the element once it is there; the page redraws tables, so it is found afresh. */
  void click(By by) {
    waitFor(() -> {
      browser.findElement(by).click();
      return true;
    });
  }

  WebElement waitForElement(By by) {
    waitFor(() -> !browser.findElements(by).isEmpty());
    return browser.findElement(by);
  }

  static void waitFor(Callable<Boolean> condition) {
    await().atMost(PATIENCE).ignoreExceptions().until(condition);
  }

  /**
   * A screenshot of the whole page at the window's width (the window grows for it, then shrinks).
   */
  void screenshotWholePage(String name) {
    Dimension before = browser.manage().window().getSize();
    long height = (Long) js("return document.documentElement.scrollHeight");
    browser.manage().window().setSize(new Dimension(before.getWidth(), (int) height + 140));
    try {
      screenshot(name);
    } finally {
      browser.manage().window().setSize(before);
    }
  }

  void screenshot(String name) {
    try {
      Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Optional<Path> firstExisting(String... paths) {
    return Stream.of(paths).map(Path::of).filter(Files::isExecutable).findFirst();
  }
}
