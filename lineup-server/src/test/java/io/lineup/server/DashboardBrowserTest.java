package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The web dashboard in a real headless Chromium (Debian's chromium and chromedriver, driven by
 * Selenium): log in, read a seeded queue, respawn a dead job, watch counts change in place (focus,
 * a selection and typed input survive), pause a queue, open an endpoint, a task and a room, also on
 * a phone in the dark; data holding HTML is shown as text and runs nothing; a read-only token is
 * offered no action, a forbidden or missing page says so and stops asking; while the server is away
 * the page backs off and says so until the first answer; an overview of 1,000 queues filters,
 * sorts, folds and stays small (its fill time and longest task are printed). Charts' labels fit,
 * and axe-core finds nothing serious on any page. Screenshots go to {@code
 * target/dashboard-screenshots}.
 *
 * <p>Without chromium and chromedriver the class is skipped with a message, unless {@code
 * LINEUP_REQUIRE_BROWSER=1} (set by {@code .ci/run}), which makes it fail.
 */
// The overview test seeds 1,000 queues, which the server then samples every 5 s: it runs last.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  /** Text that would run a script if it were ever parsed as HTML. */
  static final String HOSTILE = "<img src=x onerror=window.__pwned=1>";

  static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
  static final Duration PATIENCE = Duration.ofSeconds(15);

  static ChromeDriver browser;
  static Api admin;

  static DashboardBrowser chrome;

  @BeforeAll
  static void startBrowser() throws IOException {
    chrome = DashboardBrowser.start("DashboardBrowserTest");
    browser = chrome.driver;
    Files.createDirectories(SCREENSHOTS);
    admin = server.admin();
  }

  @AfterAll
  static void stopBrowser() throws IOException {
    if (chrome != null) {
      chrome.quit();
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
  @Order(1)
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
    assertAccessible("overview");

    // Counts follow the server without a reload, and the row is the same element, updated.
    js("window.__row = document.querySelector(\"tr[data-queue='shop/emails']\")");
    admin.post(queue + "/jobs", "[{\"payload\": 4}, {\"payload\": 5}]");
    waitFor(() -> cell("shop/emails", "ready").equals("5"));
    assertThat(js("return window.__sameDocument")).isEqualTo("yes");
    assertThat(
            js("return window.__row === document.querySelector(\"tr[data-queue='shop/emails']\")"))
        .isEqualTo(true);

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
    // The long payload is cut with an ellipsis, and all of it is a press away.
    WebElement payload =
        browser.findElement(By.cssSelector("tr[data-dead='broken'] td[data-col='payload']"));
    assertThat(payload.getText()).contains("…").contains("show all");
    payload.findElement(By.tagName("summary")).click();
    waitFor(() -> payload.findElement(By.cssSelector("pre.whole")).getText().contains(HOSTILE));
    assertThat(payload.findElement(By.cssSelector("pre.whole")).getText())
        .contains("x".repeat(150));

    // What the user holds survives the refreshes: focus, a selection, a value typed.
    WebElement attempts = waitForElement(By.id("set-max_attempts"));
    attempts.clear();
    attempts.sendKeys("7");
    js("document.querySelector(\"[data-respawn='broken']\").focus()");
    js(
        "const cell = document.querySelector(\"tr[data-dead='broken'] td[data-col='error']\");"
            + " const range = document.createRange(); range.selectNodeContents(cell);"
            + " getSelection().removeAllRanges(); getSelection().addRange(range);");
    assertThat(js("return getSelection().toString()")).isEqualTo(HOSTILE);
    admin.patch(queue, "{\"rate_limit\": 40}");
    waitForPolls(2, "/v1/queues/shop/emails");
    waitFor(() -> browser.findElement(By.id("set-rate_limit")).getAttribute("value").equals("40"));
    assertThat(js("return document.activeElement.dataset.respawn")).isEqualTo("broken");
    assertThat(js("return getSelection().toString()")).isEqualTo(HOSTILE);
    assertThat(browser.findElement(By.id("set-max_attempts")).getAttribute("value")).isEqualTo("7");
    assertThat(js("return window.__sameDocument")).isEqualTo("yes");
    js("getSelection().removeAllRanges()");

    // The charts draw the history the servers keep: a reading every 5 s.
    await().atMost(Duration.ofSeconds(25)).ignoreExceptions().until(() -> readingsCharted() >= 2);
    assertThat(js("return document.querySelectorAll('#depth-chart canvas').length")).isEqualTo(1L);
    assertChartLabelsFit("depth-chart");
    screenshotWholePage("queue");
    assertAccessible("queue");

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
    assertThat(field("position")).isEqualTo("not in line");
    waitFor(
        () -> !browser.findElements(By.cssSelector("#timeline li[data-event='dead']")).isEmpty());
    screenshot("job");
    assertAccessible("job");
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
    // The icon is there (no error on each load), and the page's files came compressed.
    assertThat(js("return fetch('/favicon.ico').then((r) => r.status)")).isEqualTo(200L);
    assertThat(
            (Boolean)
                js(
                    "return fetch('/ui/queue.js', {cache: 'no-store'}).then((r) => r.text())"
                        + ".then(() => { const e = performance.getEntriesByType('resource')"
                        + ".filter((x) => x.name.endsWith('/ui/queue.js')).pop();"
                        + " return e.encodedBodySize > 0 && e.encodedBodySize * 2 < e.decodedBodySize; })"))
        .isTrue();
    assertThat(browser.getCurrentUrl()).doesNotContain(LineupServerExtension.ADMIN_TOKEN);
  }

  @Test
  @Order(2)
  void respawnAllAndPurgeAllEachAskOnceSayingHowManyAndTheOutcomeShowsInView() {
    String queue = "/v1/queues/shop/bulk";
    admin.patch(queue, "{\"max_attempts\": 1}");
    for (int i = 0; i < 3; i++) {
      admin.post(queue + "/jobs", "{\"id\": \"d" + i + "\", \"payload\": " + i + "}");
      failOnce(queue, "d" + i, "no");
    }
    logIn(LineupServerExtension.ADMIN_TOKEN);
    browser.get(server.baseUrl() + "/ui#/queue/shop/bulk");
    waitFor(() -> stat("dead").equals("3"));
    WebElement respawnAll = waitForElement(By.id("respawn-all"));
    respawnAll.click();
    assertThat(respawnAll.getText()).isEqualTo("Press again to respawn 3");
    assertThat(admin.get(queue).json().get("counts").get("dead").asLong()).isEqualTo(3);
    respawnAll.click();
    waitFor(() -> stat("dead").equals("0"));
    assertThat(noticeText()).isEqualTo("Respawned 3 jobs.");
    assertInView(By.id("notice"));

    for (int i = 0; i < 2; i++) {
      JsonNode leased = admin.post(queue + "/leases", "{\"count\": 1}").json().get("jobs").get(0);
      admin.post(
          queue + "/jobs/" + leased.get("id").asText() + "/nack",
          "{\"token\": \"" + leased.get("token").asText() + "\", \"error\": \"again\"}");
    }
    waitFor(() -> stat("dead").equals("2"));
    WebElement purge = waitForElement(By.id("purge"));
    purge.click();
    assertThat(purge.getText()).isEqualTo("Press again to purge 2");
    purge.click();
    waitFor(() -> stat("dead").equals("0"));
    assertThat(noticeText()).isEqualTo("Purged 2 dead letters.");
    assertInView(By.id("notice"));
  }

  @Test
  @Order(3)
  void anEndpointAndARoomShowTheirLimitsAndCountsAlsoOnAPhoneInTheDark() {
    admin.put(
        "/v1/endpoints/shop/images",
        "{\"base_url\": \"http://127.0.0.1:9/api\", \"rate\": 60, \"period_ms\": 60000,"
            + " \"concurrency\": 4}");
    String room =
        RoomFixtures.room(admin, "shop", "checkout", "\"max_active\": 2, \"admit_per_minute\": 30");
    admin.post("/v1/queues/shop/phone/jobs", "{\"payload\": 1}");
    Reply task = admin.post("/v1/endpoints/shop/images/tasks", "{\"path\": \"/x\", \"body\": {}}");
    assertThat(task.status()).as(task.toString()).isIn(200, 201, 202);
    String taskId = task.json().get("id").asText();

    logIn(LineupServerExtension.ADMIN_TOKEN);
    waitForElement(By.cssSelector("tr[data-room='shop/checkout']"));
    screenshot("overview-all");
    click(By.cssSelector("tr[data-endpoint='shop/images'] a"));
    waitFor(() -> field("circuit").startsWith("closed"));
    assertThat(field("in-flight")).matches("[01] of 4");
    assertThat(field("rate-limit")).isEqualTo("60 per 1 min");
    assertThat(field("base-url")).isEqualTo("http://127.0.0.1:9/api");
    screenshot("endpoint");
    assertAccessible("endpoint");

    // The endpoint's queue is Lineup's own: its counts and the circuit, no settings to edit.
    browser.get(server.baseUrl() + "/ui#/queue/shop/dispatch.images");
    waitFor(() -> browser.findElement(By.id("queue-state")).getText().contains("circuit closed"));
    waitForElement(By.cssSelector("#settings tr[data-setting='paused']"));
    assertThat(browser.findElements(By.id("settings-form"))).isEmpty();
    assertThat(browser.findElements(By.id("pause"))).isEmpty();
    assertThat(browser.findElement(By.id("own-queue")).getText()).contains("Lineup uses itself");

    // A task's page reads as sentences: dates, a place in line, no raw field dump.
    browser.get(server.baseUrl() + "/ui#/task/shop/images/" + taskId);
    waitFor(() -> !field("created").isEmpty());
    assertThat(field("created")).doesNotMatch("\\d{13}").matches(".*\\d{4}.*");
    assertThat(field("position")).isIn("0 (next)", "not in line");
    // No value reads -1 (a delivery key, a random UUID, may hold "-1" inside: only whole values).
    assertThat(browser.findElement(By.id("task-fields")).getText())
        .doesNotContainPattern("(?m)^-1$");
    assertThat(field("request")).isEqualTo("POST /x");
    screenshot("task");
    assertAccessible("task");

    browser.get(server.baseUrl() + "/ui#/room/shop/checkout");
    // Two readings of the room first, so its history sees the admissions that come after.
    await()
        .atMost(Duration.ofSeconds(25))
        .ignoreExceptions()
        .until(() -> !field("admitted").equals("–"));
    for (int i = 0; i < 2; i++) {
      String ticket = RoomFixtures.joinId(admin, room);
      RoomFixtures.poll(admin, room, ticket);
    }
    waitFor(() -> field("active").equals("2 of 2"));
    assertThat(field("admit-per-minute")).isEqualTo("30");
    // The chart counts admissions per minute, the unit of the line beside it and of the limit.
    await()
        .atMost(Duration.ofSeconds(25))
        .ignoreExceptions()
        .until(() -> field("admitted").startsWith("2 ") && chartSum("admissions-chart", 1) == 2);
    assertThat(field("admitted")).isEqualTo("2 (limit 30 per minute)");
    assertThat(chartMax("admissions-chart", 3)).isEqualTo(30);
    assertChartLabelsFit("admissions-chart");
    // One minute of readings spans minutes on the time axis, not years.
    assertThat(
            ((Number)
                    js(
                        "const u = document.getElementById('admissions-chart').lineupPlot;"
                            + " return u.scales.x.max - u.scales.x.min"))
                .doubleValue())
        .isLessThanOrEqualTo(15 * 60 + 60);
    screenshot("room");
    assertAccessible("room");

    // A phone-sized window in a dark system theme.
    browser.executeCdpCommand(
        "Emulation.setEmulatedMedia",
        Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
    browser.manage().window().setSize(new Dimension(390, 844));
    assertChartLabelsFit("admissions-chart");
    click(By.linkText("Overview"));
    waitForElement(By.cssSelector("tr[data-room='shop/checkout']"));
    waitForElement(By.cssSelector("tr[data-queue='shop/phone']"));
    assertThat(js("return matchMedia('(prefers-color-scheme: dark)').matches")).isEqualTo(true);
    assertThat(js("return getComputedStyle(document.body).backgroundColor"))
        .isEqualTo("rgb(17, 20, 24)");
    // Nothing wider than the screen; every column of the queues is in reach without scrolling.
    assertThat((Long) js("return document.documentElement.scrollWidth"))
        .isLessThanOrEqualTo((Long) js("return window.innerWidth"));
    for (String column : List.of("dead", "published", "failed", "state")) {
      assertThat(
              (Boolean)
                  js(
                      "const r = document.querySelector(\"tr[data-queue='shop/phone']"
                          + " td[data-col='"
                          + column
                          + "']\").getBoundingClientRect();"
                          + " return r.width > 0 && r.left >= 0 && r.right <= innerWidth;"))
          .as(column)
          .isTrue();
    }
    screenshot("overview-phone-dark");
    assertAccessible("overview on a phone, dark");
    browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
  }

  @Test
  @Order(4)
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

    // Another namespace's queue: the server answers 403, the page says why and stops asking.
    browser.get(server.baseUrl() + "/ui#/queue/shop/emails");
    waitFor(() -> noticeText().startsWith("Not allowed"));
    assertThat(noticeText()).contains("namespace 'watch'");
    assertThat(browser.findElement(By.id("notice")).getAttribute("data-kind"))
        .isEqualTo("forbidden");
    assertStopsAsking();
    screenshot("forbidden");
  }

  @Test
  @Order(5)
  void aQueueThatDoesNotExistSaysSoOffersNoActionAndIsNotAskedForAgain() {
    assertAccessible("log in");
    logIn(LineupServerExtension.ADMIN_TOKEN);
    browser.get(server.baseUrl() + "/ui#/queue/shop/no-such-queue");
    waitForElement(By.id("stopped"));
    assertThat(browser.findElement(By.id("stopped")).getText()).contains("Not found");
    assertThat(browser.findElements(By.cssSelector("main button"))).isEmpty();
    assertStopsAsking();
    assertAccessible("a queue that does not exist");
  }

  @Test
  @Order(6)
  void whileTheServerIsAwayThePageBacksOffAndTheBannerGoesAtTheFirstAnswer() {
    try (TcpProxy proxy = TcpProxy.to("127.0.0.1", URI.create(server.baseUrl()).getPort())) {
      String base = "http://127.0.0.1:" + proxy.port();
      browser.get(base + "/ui");
      logIn(LineupServerExtension.ADMIN_TOKEN);
      waitForElement(By.id("read-at"));
      waitFor(() -> !browser.findElement(By.id("read-at")).getText().isEmpty());

      proxy.cut();
      waitFor(() -> "away".equals(browser.findElement(By.id("banner")).getAttribute("data-kind")));
      assertThat(bannerText()).contains("did not answer").contains("Trying again in 2.0 s");
      // The next try waits twice as long.
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .until(() -> bannerText().contains("Trying again in 4.0 s"));

      proxy.restore();
      String before = browser.findElement(By.id("read-at")).getText();
      // Within the wait the banner said, plus a poll: gone at the first answer.
      await()
          .atMost(Duration.ofSeconds(4 + 2 + 3))
          .ignoreExceptions()
          .until(() -> !browser.findElement(By.id("banner")).isDisplayed());
      assertThat(browser.findElement(By.id("read-at")).getText()).isNotEqualTo(before);
    }
  }

  @Test
  @Order(7)
  void theOverviewOfAThousandQueuesFiltersSortsGroupsAndStaysSmall() throws Exception {
    seedThousandQueues();
    admin.put(
        "/v1/endpoints/scale/slow",
        "{\"base_url\": \"http://127.0.0.1:9/api\", \"concurrency\": 1}");
    admin.post("/v1/endpoints/scale/slow/tasks", "{\"path\": \"/x\"}");
    // The y axis of a queue of 20,000 jobs shows its labels whole.
    for (int batch = 0; batch < 20; batch++) {
      StringBuilder jobs = new StringBuilder("[");
      for (int i = 0; i < 1000; i++) {
        jobs.append(i == 0 ? "" : ",").append("{\"payload\": 1}");
      }
      Reply reply = admin.post("/v1/queues/scale/big/jobs", jobs.append("]").toString());
      assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }

    logIn(LineupServerExtension.ADMIN_TOKEN);
    browser.get(server.baseUrl() + "/ui#/queue/scale/big");
    waitFor(() -> stat("ready").equals("20,000"));
    await().atMost(Duration.ofSeconds(25)).ignoreExceptions().until(() -> readingsCharted() >= 2);
    assertThat(chartLabels("depth-chart")).contains("20,000");
    assertChartLabelsFit("depth-chart");

    // Fill time and the longest task of the overview's first fill, measured in the browser.
    js(
        "window.__longest = 0; new PerformanceObserver((list) => { for (const e of"
            + " list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); })"
            + ".observe({type: 'longtask'}); performance.clearMarks('lineup-overview-filled');"
            + " performance.clearResourceTimings(); window.__t0 = performance.now();"
            + " location.hash = '#/';");
    waitFor(() ->
        !((List<?>) js("return performance.getEntriesByName('lineup-overview-filled')")).isEmpty());
    double fill =
        ((Number)
                js(
                    "return performance.getEntriesByName('lineup-overview-filled')[0].startTime"
                        + " - window.__t0"))
            .doubleValue();
    double answer =
        ((Number)
                js(
                    "return performance.getEntriesByType('resource').filter((e) =>"
                        + " e.name.endsWith('/v1/overview'))[0].duration"))
            .doubleValue();
    double longest = ((Number) js("return window.__longest")).doubleValue();
    long rows = (Long) js("return document.querySelectorAll('#queues-body tr').length");
    System.out.printf(
        "DashboardBrowserTest: overview of %d queues filled in %.0f ms (GET /v1/overview took %.0f"
            + " ms); longest task %.0f ms; %d rows in the page%n",
        THOUSAND, fill, answer, longest, rows);
    assertThat(rows).isLessThanOrEqualTo(100L);
    assertThat(browser.findElement(By.id("pager-text")).getText()).contains("of");
    screenshot("overview-1000");
    assertAccessible("overview of 1,000 queues");

    // The next page holds the next rows, as few.
    String first = firstQueueRow();
    click(By.id("page-next"));
    waitFor(() -> !firstQueueRow().equals(first));
    assertThat(queueRows()).isLessThanOrEqualTo(100L);
    assertThat(browser.findElement(By.id("pager-text")).getText()).contains("rows 101–200 of");

    // Lineup's own queues are hidden until asked for.
    assertThat(browser.findElements(By.cssSelector("tr[data-queue='scale/dispatch.slow']")))
        .isEmpty();
    WebElement filter = browser.findElement(By.id("queue-filter"));
    filter.sendKeys("dispatch.slow");
    waitFor(() -> browser.findElement(By.id("queues-body")).getText().contains("No queue matches"));
    click(By.id("show-internal"));
    waitForElement(By.cssSelector("tr[data-queue='scale/dispatch.slow']"));

    // A filter keeps the matching queues; sorting by a column puts the biggest first.
    filter.clear();
    filter.sendKeys("q-099");
    waitFor(() -> queueRows() > 0 && queueRows() <= 10);
    assertThat(
            (Boolean)
                js(
                    "return Array.from(document.querySelectorAll('#queues-body tr[data-queue]'))"
                        + ".every((r) => r.dataset.queue.startsWith('scale/q-099'))"))
        .isTrue();
    click(By.cssSelector("th[data-sort='ready'] button"));
    waitFor(() ->
        "descending"
            .equals(
                browser
                    .findElement(By.cssSelector("th[data-sort='ready']"))
                    .getAttribute("aria-sort")));
    assertThat(
            browser
                .findElement(By.cssSelector("#queues-body tr[data-queue]"))
                .getAttribute("data-queue"))
        .isEqualTo("scale/q-0995");

    // A namespace folds to its heading.
    click(By.cssSelector("tr[data-namespace='scale'] button.fold"));
    waitFor(() -> queueRows() == 0);
    assertThat(
            browser
                .findElement(By.cssSelector("tr[data-namespace='scale'] button.fold"))
                .getAttribute("aria-expanded"))
        .isEqualTo("false");
  }

  // ---- helpers ----

  /** Queues in the namespace of the overview test: 998 seeded, a big one and an endpoint's. */
  static final int THOUSAND = 1000;

  /** Publishes a job to each of 998 queues (three to scale/q-0995), sixteen calls at a time. */
  void seedThousandQueues() throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
      List<Future<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < THOUSAND - 2; i++) {
        String path = String.format("/v1/queues/scale/q-%04d/jobs", i);
        String body =
            i == 995
                ? "[{\"payload\": 1}, {\"payload\": 2}, {\"payload\": 3}]"
                : "{\"payload\": 1}";
        replies.add(pool.submit(() -> admin.post(path, body)));
      }
      for (Future<Reply> reply : replies) {
        assertThat(reply.get().status()).as(reply.get().toString()).isEqualTo(201);
      }
    }
  }

  String firstQueueRow() {
    return browser
        .findElement(By.cssSelector("#queues-body tr[data-queue]"))
        .getAttribute("data-queue");
  }

  long queueRows() {
    return (Long) js("return document.querySelectorAll('#queues-body tr[data-queue]').length");
  }

  String bannerText() {
    return browser.findElement(By.id("banner")).getText();
  }

  /** Requests to the API the page made since the resource timings were last cleared. */
  long apiRequests(String pathEnd) {
    return (Long)
        js(
            "return performance.getEntriesByType('resource').filter((e) =>"
                + " new URL(e.name).pathname.startsWith('/v1/') && new URL(e.name).pathname"
                + ".endsWith(arguments[0])).length",
            pathEnd);
  }

  /** Waits until the page read this path n more times. */
  void waitForPolls(int n, String pathEnd) {
    js("performance.clearResourceTimings()");
    waitFor(() -> apiRequests(pathEnd) >= n);
  }

  /** The page asks the server nothing for longer than two polls. */
  void assertStopsAsking() {
    js("performance.clearResourceTimings()");
    await()
        .during(Duration.ofMillis(4500))
        .atMost(Duration.ofSeconds(7))
        .until(() -> apiRequests("") == 0);
  }

  /** axe-core on the page as it is: no serious or critical violation. */
  void assertAccessible(String page) {
    chrome.assertAccessible(page);
  }

  /** The element is shown inside the window, where the user looks. */
  void assertInView(By by) {
    WebElement element = browser.findElement(by);
    assertThat(element.isDisplayed()).isTrue();
    assertThat(
            (Boolean)
                js(
                    "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom"
                        + " <= innerHeight && r.left >= 0 && r.right <= innerWidth;",
                    element))
        .isTrue();
  }

  /** The labels of a chart's y axis as drawn. */
  @SuppressWarnings("unchecked")
  List<String> chartLabels(String chart) {
    return (List<String>)
        js("return document.getElementById(arguments[0]).lineupPlot.axes[1]._values", chart);
  }

  long chartSum(String chart, int series) {
    return ((Number)
            js(
                "return document.getElementById(arguments[0]).lineupPlot.data[arguments[1]]"
                    + ".reduce((a, b) => a + (b || 0), 0)",
                chart,
                series))
        .longValue();
  }

  long chartMax(String chart, int series) {
    return ((Number)
            js(
                "return Math.max(...document.getElementById(arguments[0]).lineupPlot"
                    + ".data[arguments[1]])",
                chart,
                series))
        .longValue();
  }

  /**
   * Every y label of a chart (drawn on a canvas) is the formatted value of its tick and fits in the
   * axis's width; time labels do not overlap; the chart is no wider than its box.
   */
  void assertChartLabelsFit(String chart) {
    @SuppressWarnings("unchecked")
    List<String> problems =
        (List<String>)
            js(
                "const box = document.getElementById(arguments[0]); const u = box.lineupPlot;"
                    + " const ctx = document.createElement('canvas').getContext('2d');"
                    + " ctx.font = '12px system-ui, sans-serif'; const out = [];"
                    + " const fmt = new Intl.NumberFormat(undefined, {maximumFractionDigits: 2});"
                    + " const y = u.axes[1]; if (!y._values || y._values.length === 0)"
                    + " out.push('no y labels');"
                    + " (y._values || []).forEach((label, i) => {"
                    + "   const w = ctx.measureText(label).width;"
                    + "   if (w + 15 > y._size) out.push('y label ' + label + ' is ' + w"
                    + "     + ' px in an axis of ' + y._size);"
                    + "   if (label !== fmt.format(y._splits[i])) out.push('y label ' + label"
                    + "     + ' for ' + y._splits[i]); });"
                    + " const x = u.axes[0]; let right = -Infinity;"
                    + " (x._splits || []).forEach((v, i) => {"
                    + "   const label = x._values[i]; if (label === null || label === '') return;"
                    + "   const w = Math.max(...String(label).split('\\n')"
                    + "     .map((line) => ctx.measureText(line).width));"
                    + "   const at = u.valToPos(v, 'x');"
                    + "   if (at - w / 2 < right) out.push('x label ' + label + ' overlaps');"
                    + "   const left = u.bbox.left / devicePixelRatio + at - w / 2;"
                    + "   if (left < 0 || left + w > u.width) out.push('x label ' + label"
                    + "     + ' cut at the edge');"
                    + "   right = at + w / 2; });"
                    + " if (u.width > box.clientWidth) out.push('chart ' + u.width"
                    + "   + ' px in a box of ' + box.clientWidth);"
                    + " return out;",
                chart);
    assertThat(problems).as(chart).isEmpty();
  }

  void seedQueueWithADeadJob(String queue) {
    admin.patch(queue, "{\"max_attempts\": 1}");
    admin.post(queue + "/jobs", "[{\"payload\": 1}, {\"payload\": 2}, {\"payload\": 3}]");
    admin.post(
        queue + "/jobs",
        "{\"id\": \"broken\", \"priority\": 9, \"payload\": {\"padding\": \""
            + "x".repeat(150)
            + "\", \"note\": \""
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

  Object js(String script, Object... arguments) {
    return ((JavascriptExecutor) browser).executeScript(script, arguments);
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
}
