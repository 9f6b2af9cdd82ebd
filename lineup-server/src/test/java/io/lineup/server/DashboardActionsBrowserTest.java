package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
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
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard's job lists, actions and controls in a real headless Chromium, on a server holding
 * over 10,000 jobs in every state and 1,000 queues: each state's list pages by cursor and stays on
 * its page while it refreshes, a filter narrows it, each row action (run now, cancel, delete,
 * respawn) and a bulk action by selection do what they say, a bulk action on all matching jobs asks
 * once with the count and asks again with the new count when it changed (409 count_mismatch); the
 * jobs running now with their consumer and the consumers of the last minute; the history's three
 * ranges; an endpoint's pause, resume (refused while its breaker is open), circuit reset and tasks
 * by status; a room's suspend, resume, tickets and a revoked pass; a read token is offered none of
 * these actions. axe-core finds nothing serious on each view; the overview's fill time and longest
 * task at this size are printed. Screenshots go to {@code target/dashboard-screenshots}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardActionsBrowserTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
  static final Duration PATIENCE = Duration.ofSeconds(20);
  static final String QUEUE = "/v1/queues/bulk/orders";

  /** Jobs of the seeded queue per state. */
  static final int READY = 4300;

  static final int DELAYED = 3000;
  static final int LEASED = 200;
  static final int EXPIRED_DEAD = 1000;
  static final int FAILED_DEAD = 20;
  static final int FINISHED = 1500;

  /** Queues of the scale namespace, a job each. */
  static final int QUEUES = 1000;

  static DashboardBrowser chrome;
  static ChromeDriver browser;
  static Api admin;

  @BeforeAll
  static void startBrowserAndSeed() throws Exception {
    chrome = DashboardBrowser.start("DashboardActionsBrowserTest");
    browser = chrome.driver;
    Files.createDirectories(SCREENSHOTS);
    admin = server.admin();
    seed();
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
  void eachStatePagesByCursorStaysOnItsPageAndAFilterNarrowsIt() {
    logIn(LineupServerExtension.ADMIN_TOKEN);
    measureOverview();

    open("#/queue/bulk/orders");
    waitFor(() -> tab("jobs-state-ready").equals("Ready (4,300)"));
    waitFor(() -> jobRows().size() == 20);
    List<String> first = jobRows();
    click(By.id("jobs-next"));
    waitFor(() -> !jobRows().equals(first) && jobRows().size() == 20);
    List<String> second = jobRows();
    assertThat(second).doesNotContainAnyElementsOf(first);
    assertThat(text(By.id("jobs-page"))).startsWith("Page 2");
    // Refreshes read the same page: the list does not jump back to the first.
    waitForPolls(2, "/jobs");
    assertThat(jobRows()).isEqualTo(second);
    assertThat(text(By.id("jobs-page"))).startsWith("Page 2");
    click(By.id("jobs-previous"));
    waitFor(() -> jobRows().equals(first));

    // 50 a page, and the order reversed: the last in line first.
    new Select(browser.findElement(By.id("jobs-size"))).selectByValue("50");
    waitFor(() -> jobRows().size() == 50);
    click(By.id("jobs-order"));
    waitFor(() -> jobRows().size() == 50 && !jobRows().get(0).equals(first.get(0)));
    assertThat(browser.findElement(By.id("jobs-order")).getAttribute("aria-pressed"))
        .isEqualTo("true");
    click(By.id("jobs-order"));
    new Select(browser.findElement(By.id("jobs-size"))).selectByValue("20");

    // Every state has its list, with the time that orders it.
    for (String[] state :
        new String[][] {
          {"delayed", "d-"}, {"leased", "l-"}, {"dead", "x-"}, {"finished", "f-"}, {"ready", "r-"}
        }) {
      click(By.id("jobs-state-" + state[0]));
      waitFor(() ->
          jobRows().size() == 20
              && jobRows().stream().allMatch(id -> id.startsWith(state[1]) || id.startsWith("e-")));
      assertThat(browser.findElement(By.id("jobs-state-" + state[0])).getAttribute("aria-pressed"))
          .isEqualTo("true");
    }
    screenshotWholePage("queue-jobs-whole");
    // The top of the page, down to the jobs list: the picture in the docs.
    browser.manage().window().setSize(new Dimension(1280, 1500));
    js("window.scrollTo(0, 0)");
    screenshot("queue-jobs");
    browser.manage().window().setSize(new Dimension(1280, 900));
    chrome.assertAccessible("queue page with its jobs");

    // A filter on the error text: the dead jobs whose last error holds it, and only those.
    click(By.id("jobs-state-dead"));
    waitFor(() -> jobRows().stream().allMatch(id -> id.startsWith("x-") || id.startsWith("e-")));
    browser.findElement(By.id("jobs-error")).sendKeys("upstream timeout");
    click(By.id("jobs-apply"));
    // A page examines at most 1,000 jobs for a filter: the 1,000 that expired first hold none,
    // and the page says so and offers the next.
    waitFor(() -> text(By.id("jobs-note")).contains("examined 1,000 jobs"));
    assertThat(jobRows()).isEmpty();
    assertThat(text(By.id("jobs-body"))).isEqualTo("No job on this page matches.");
    click(By.id("jobs-next"));
    waitFor(() -> jobRows().size() == FAILED_DEAD);
    assertThat(jobRows()).allMatch(id -> id.startsWith("e-"));
    assertThat(
            browser.findElements(By.cssSelector("#jobs-body td[data-col='error']")).stream()
                .allMatch(cell -> cell.getText().contains("upstream timeout")))
        .isTrue();
    assertThat(text(By.id("jobs-note"))).contains("examined");
    // What was typed stays through refreshes.
    waitForPolls(2, "/jobs");
    assertThat(browser.findElement(By.id("jobs-error")).getAttribute("value"))
        .isEqualTo("upstream timeout");
    screenshot("queue-jobs-filtered");
  }

  @Test
  @Order(2)
  void eachRowActionAndABulkActionWithOneConfirmationDoWhatTheySay() {
    logIn(LineupServerExtension.ADMIN_TOKEN);
    open("#/queue/bulk/orders");

    // Run now: a delayed job joins the ready line.
    click(By.id("jobs-state-delayed"));
    waitFor(() -> jobRows().size() == 20 && jobRows().get(0).startsWith("d-"));
    String delayed = jobRows().get(0);
    click(rowAction(delayed, "run_now"));
    waitFor(() -> notice().equals("Moved to the ready line 1 of 1 job."));
    assertThat(state(delayed)).isEqualTo("READY");

    // Cancel and delete ask once in the row, then act.
    click(By.id("jobs-state-ready"));
    waitFor(() -> jobRows().size() == 20 && jobRows().get(0).startsWith("r-"));
    String cancelled = jobRows().get(0);
    String deleted = jobRows().get(1);
    click(rowAction(cancelled, "cancel"));
    waitFor(() -> text(rowAction(cancelled, "cancel")).equals("Press again to cancel"));
    assertThat(state(cancelled)).isEqualTo("READY");
    click(rowAction(cancelled, "cancel"));
    waitFor(() -> notice().equals("Cancelled 1 of 1 job."));
    assertThat(state(cancelled)).isEqualTo("CANCELLED");
    click(rowAction(deleted, "delete"));
    click(rowAction(deleted, "delete"));
    waitFor(() -> notice().equals("Deleted 1 of 1 job."));
    assertThat(admin.get(QUEUE + "/jobs/" + deleted).status()).isEqualTo(404);
    waitFor(() -> !jobRows().contains(cancelled) && !jobRows().contains(deleted));

    // Respawn a dead job.
    click(By.id("jobs-state-dead"));
    waitFor(() -> jobRows().size() == 20 && jobRows().get(0).startsWith("x-"));
    String dead = jobRows().get(0);
    click(rowAction(dead, "respawn"));
    waitFor(() -> notice().equals("Respawned 1 of 1 job."));
    assertThat(state(dead)).isEqualTo("READY");

    // Three selected, deleted in one go after one confirmation that says how many.
    waitFor(() -> !jobRows().contains(dead));
    List<String> three = jobRows().subList(0, 3);
    for (String id : three) {
      click(By.cssSelector("input[data-select='" + id + "']"));
    }
    waitFor(() -> text(By.id("jobs-selected")).equals("3 selected"));
    // The selection survives refreshes.
    waitForPolls(2, "/jobs");
    assertThat(text(By.id("jobs-selected"))).isEqualTo("3 selected");
    click(By.id("bulk-delete"));
    waitFor(() -> text(By.id("bulk-delete")).equals("Press again to delete 3 selected"));
    click(By.id("bulk-delete"));
    waitFor(() -> notice().equals("Deleted 3 of 3 jobs."));
    for (String id : three) {
      assertThat(admin.get(QUEUE + "/jobs/" + id).status()).isEqualTo(404);
    }

    // All matching a filter: one confirmation with the count; when the count changed meanwhile,
    // nothing is done and the new count is asked again.
    // The r-00 jobs are last in line: reversed, the first page holds them (a page examines at
    // most 1,000 jobs for a filter).
    click(By.id("jobs-state-ready"));
    click(By.id("jobs-order"));
    browser.findElement(By.id("jobs-id-prefix")).sendKeys("r-00");
    click(By.id("jobs-apply"));
    waitFor(
        () -> jobRows().size() == 20 && jobRows().stream().allMatch(id -> id.startsWith("r-00")));
    click(By.id("all-cancel"));
    waitFor(() ->
        text(By.id("all-cancel")).equals("Press again to cancel all 100 matching the filter"));
    admin.post(QUEUE + "/jobs", "{\"id\": \"r-00-late\", \"payload\": 1}");
    click(By.id("all-cancel"));
    waitFor(() -> notice().startsWith("Nothing done: 101 jobs match now, not 100."));
    assertThat(text(By.id("all-cancel")))
        .isEqualTo("Press again to cancel all 101 matching the filter");
    assertThat(state("r-0007")).isEqualTo("READY");
    click(By.id("all-cancel"));
    waitFor(() -> notice().equals("Cancelled 101 of 101 jobs."));
    assertThat(admin.get(QUEUE + "/jobs?state=ready&id_prefix=r-00").json().get("jobs").size())
        .isZero();
    assertThat(state("r-00-late")).isEqualTo("CANCELLED");
    waitFor(() -> text(By.id("jobs-body")).contains("No job on this page matches."));
  }

  @Test
  @Order(3)
  void runningNowShowsEachLeaseWithItsConsumerAndTheHistoryOffersThreeRanges() {
    // Leases of the last minute, so the consumer is still listed.
    leaseAs("worker-9", 30);
    logIn(LineupServerExtension.ADMIN_TOKEN);
    open("#/queue/bulk/orders");
    waitFor(() -> runningRows() == 20);
    WebElement row = browser.findElement(By.cssSelector("#running-body tr[data-running]"));
    assertThat(row.findElement(By.cssSelector("td[data-col='consumer']")).getText())
        .isIn("worker-7", "worker-9");
    assertThat(row.findElement(By.cssSelector("td[data-col='attempt']")).getText())
        .matches("1 of \\d+");
    assertThat(row.findElement(By.cssSelector("td[data-col='deadline']")).getText())
        .startsWith("in ");
    click(By.id("running-next"));
    waitFor(() -> text(By.id("running-page")).startsWith("Page 2"));
    waitFor(() -> runningRows() == 20);
    WebElement consumer =
        waitForElement(By.cssSelector("#consumers-body tr[data-consumer='worker-9']"));
    assertThat(consumer.findElement(By.cssSelector("td[data-col='leased']")).getText())
        .isEqualTo("30");
    chrome.assertAccessible("running now and consumers");
    screenshot("queue-running");

    for (String[] range :
        new String[][] {
          {"1h", "Last hour", "1 min"},
          {"24h", "Last 24 hours", "1 min"},
          {"15m", "Last 15", "1.0 s"}
        }) {
      click(By.id("range-" + range[0]));
      waitFor(() ->
          text(By.id("history-title")).startsWith(range[1])
              && text(By.id("eta-check")).startsWith("One reading every " + range[2]));
      assertThat(browser.findElement(By.id("range-" + range[0])).getAttribute("aria-pressed"))
          .isEqualTo("true");
    }
  }

  @Test
  @Order(4)
  void anEndpointPausesResumesIsRefusedWhileItsBreakerHoldsAndListsItsTasksByStatus() {
    Reply put =
        admin.put(
            "/v1/endpoints/bulk/flaky",
            "{\"base_url\": \"http://127.0.0.1:9/api\", \"concurrency\": 1, \"max_attempts\": 1,"
                + " \"circuit_breaker\": {\"failures\": 1, \"cooldown_ms\": 600000}}");
    assertThat(put.status()).as(put.toString()).isIn(200, 201);
    logIn(LineupServerExtension.ADMIN_TOKEN);
    open("#/endpoint/bulk/flaky");
    click(By.id("endpoint-pause"));
    waitFor(() -> notice().startsWith("Paused: the endpoint is now paused"));
    waitFor(() -> !browser.findElements(By.id("endpoint-resume")).isEmpty());
    assertThat(admin.get("/v1/endpoints/bulk/flaky").json().get("paused").asBoolean()).isTrue();
    click(By.id("endpoint-resume"));
    waitFor(() -> notice().startsWith("Resumed: the endpoint is now not paused"));

    // The first task fails (nothing listens), the breaker opens and holds the rest in line.
    for (int i = 0; i < 30; i++) {
      admin.post("/v1/endpoints/bulk/flaky/tasks", "{\"path\": \"/t\"}");
    }
    waitFor(() -> text(By.id("endpoint-state")).contains("circuit open"));
    click(By.id("endpoint-resume"));
    waitFor(() -> notice().startsWith("Not resumed: the circuit breaker holds the endpoint"));

    // Tasks by status, paged; each opens its task page.
    waitFor(() -> taskRows() == 20);
    click(By.id("tasks-next"));
    waitFor(() -> text(By.id("tasks-page")).startsWith("Page 2") && taskRows() >= 5);
    click(By.id("task-status-failed"));
    waitFor(() -> taskRows() >= 1);
    chrome.assertAccessible("endpoint with its tasks");
    screenshotWholePage("endpoint-controls");
    click(By.cssSelector("#tasks-body tr[data-task] a"));
    waitFor(() -> browser.findElement(By.id("task-state")).getText().equals("failed"));

    open("#/endpoint/bulk/flaky");
    click(By.id("circuit-reset"));
    waitFor(() -> notice().startsWith("Circuit reset: the endpoint is now not paused"));
  }

  @Test
  @Order(5)
  void anEndpointShowsTheTaskItIsSendingNowLinkedToItsPage() {
    try (TestTarget target = TestTarget.start().latency(30_000)) {
      Reply put =
          admin.put(
              "/v1/endpoints/bulk/slow",
              "{\"base_url\": \""
                  + target.url()
                  + "/api\", \"concurrency\": 1, \"attempt_timeout_ms\": 60000}");
      assertThat(put.status()).as(put.toString()).isIn(200, 201);
      String id =
          admin
              .post("/v1/endpoints/bulk/slow/tasks", "{\"path\": \"/render\"}")
              .json()
              .get("id")
              .asText();
      logIn(LineupServerExtension.ADMIN_TOKEN);
      open("#/endpoint/bulk/slow");
      WebElement row =
          waitForElement(By.cssSelector("#running-tasks-body tr[data-task='" + id + "']"));
      assertThat(row.getText()).contains("running").contains("running for");
      click(By.cssSelector("#running-tasks-body tr[data-task='" + id + "'] a"));
      waitFor(() -> browser.findElement(By.id("task-state")).getText().equals("running"));
      // Cancelled, so the endpoint holds nothing when the target stops.
      admin.delete("/v1/endpoints/bulk/slow/tasks/" + id);
    }
  }

  @Test
  @Order(6)
  void aRoomSuspendsResumesListsItsTicketsAndRevokesAPass() {
    Reply put =
        admin.put(
            "/v1/rooms/bulk/sale",
            "{\"max_active\": 1, \"pass_ttl_ms\": 600000, \"grace_ms\": 3600000}");
    assertThat(put.status()).as(put.toString()).isIn(200, 201);
    JsonNode admitted = admin.post("/v1/rooms/bulk/sale/tickets", "{}").json();
    assertThat(admitted.get("status").asText()).isEqualTo("admitted");
    String passId = admitted.get("pass_id").asText();
    for (int i = 0; i < 25; i++) {
      admin.post("/v1/rooms/bulk/sale/tickets", "{}");
    }
    logIn(LineupServerExtension.ADMIN_TOKEN);
    open("#/room/bulk/sale");
    waitFor(() -> ticketRows() == 20);
    click(By.id("tickets-next"));
    waitFor(() -> text(By.id("tickets-page")).startsWith("Page 2") && ticketRows() == 5);

    click(By.id("room-suspend"));
    waitFor(() -> notice().startsWith("Suspended: the room admits nobody now"));
    waitFor(() -> text(By.id("room-state")).equals("suspended"));
    assertThat(admin.get("/v1/rooms/bulk/sale").json().get("suspended").asBoolean()).isTrue();
    click(By.id("room-resume"));
    waitFor(() -> notice().startsWith("Resumed: the room admits again."));

    browser.findElement(By.id("revoke-jti")).sendKeys(passId);
    click(By.id("revoke-pass"));
    waitFor(() -> text(By.id("revoke-pass")).equals("Press again to revoke " + passId));
    click(By.id("revoke-pass"));
    waitFor(() -> notice().startsWith("Revoked pass " + passId));
    Reply ticket = admin.get("/v1/rooms/bulk/sale/tickets/" + admitted.get("ticket").asText());
    assertThat(ticket.json().get("status").asText()).as(ticket.toString()).isEqualTo("gone");
    chrome.assertAccessible("room with its tickets");
    screenshotWholePage("room-controls");
  }

  @Test
  @Order(7)
  void aReadTokenSeesTheListsButNoActionButton() {
    String reader = RoomFixtures.token(admin, "bulk", "[\"read\"]", 0);
    logIn(reader);
    open("#/queue/bulk/orders");
    waitFor(() -> jobRows().size() == 20);
    waitFor(() -> runningRows() > 0);
    assertThat(browser.findElements(By.cssSelector("#jobs-section input[type='checkbox']")))
        .isEmpty();
    assertThat(browser.findElements(By.cssSelector("#jobs-body button"))).isEmpty();
    assertThat(browser.findElements(By.cssSelector("#jobs-bulk button"))).isEmpty();
    click(By.id("jobs-state-dead"));
    waitFor(() -> jobRows().size() == 20 && jobRows().get(0).startsWith("x-"));
    assertThat(browser.findElements(By.cssSelector("[data-action]"))).isEmpty();

    open("#/endpoint/bulk/flaky");
    waitFor(() -> taskRows() > 0);
    assertThat(browser.findElements(By.cssSelector("#endpoint-actions button"))).isEmpty();
    open("#/room/bulk/sale");
    waitFor(() -> ticketRows() > 0);
    assertThat(browser.findElements(By.cssSelector("#room-actions button"))).isEmpty();
    assertThat(browser.findElements(By.id("revoke-pass"))).isEmpty();
  }

  // ---- seeding ----

  /**
   * The queue bulk/orders with jobs in every state (over 10,000 in all) and 1,000 queues of a job
   * each, through the HTTP API in batches of up to 1,000.
   */
  static void seed() throws Exception {
    // Finished: published, leased and acked.
    publish(FINISHED, i -> String.format("{\"id\": \"f-%04d\", \"payload\": %d}", i, i));
    List<JsonNode> finished = lease(FINISHED, null);
    for (int from = 0; from < finished.size(); from += 1000) {
      StringBuilder acks = new StringBuilder("{\"acks\": [");
      for (int i = from; i < Math.min(finished.size(), from + 1000); i++) {
        JsonNode job = finished.get(i);
        acks.append(i == from ? "" : ",")
            .append("{\"id\": \"")
            .append(job.get("id").asText())
            .append("\", \"token\": \"")
            .append(job.get("token").asText())
            .append("\"}");
      }
      Reply reply = admin.post(QUEUE + "/acks", acks.append("]}").toString());
      assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }
    // Dead: a lease that ran out with no attempt left; and a few that failed with an error.
    publish(
        EXPIRED_DEAD,
        i ->
            String.format(
                "{\"id\": \"x-%04d\", \"payload\": %d, \"max_attempts\": 1, \"ttr_ms\": 100}",
                i, i));
    lease(EXPIRED_DEAD, null);
    await().atMost(PATIENCE).until(() -> counts().get("dead").asInt() == EXPIRED_DEAD);
    publish(
        FAILED_DEAD,
        i -> String.format("{\"id\": \"e-%04d\", \"payload\": %d, \"max_attempts\": 1}", i, i));
    for (JsonNode job : lease(FAILED_DEAD, null)) {
      Reply nack =
          admin.post(
              QUEUE + "/jobs/" + job.get("id").asText() + "/nack",
              "{\"token\": \""
                  + job.get("token").asText()
                  + "\", \"error\": \"upstream timeout after 30 s\"}");
      assertThat(nack.status()).as(nack.toString()).isEqualTo(200);
    }
    // Leased now by a named consumer, for a long time.
    publish(
        LEASED,
        i -> String.format("{\"id\": \"l-%04d\", \"payload\": %d, \"ttr_ms\": 3600000}", i, i));
    lease(LEASED, "worker-7");
    publish(
        DELAYED,
        i -> String.format("{\"id\": \"d-%04d\", \"payload\": %d, \"delay_ms\": 3600000}", i, i));
    // Ready: r-0000 to r-0099 last in line (priority 0), the others ahead of them.
    publish(
        READY,
        i ->
            String.format(
                "{\"id\": \"r-%04d\", \"payload\": %d, \"priority\": %d}",
                i, i, i < 100 ? 0 : 1 + i % 3));
    JsonNode counts = counts();
    assertThat(counts.get("ready").asInt()).isEqualTo(READY);
    assertThat(counts.get("delayed").asInt()).isEqualTo(DELAYED);
    assertThat(counts.get("leased").asInt()).isEqualTo(LEASED);
    assertThat(counts.get("dead").asInt()).isEqualTo(EXPIRED_DEAD + FAILED_DEAD);
    assertThat(counts.get("finished").asInt()).isEqualTo(FINISHED);
    assertThat(READY + DELAYED + LEASED + EXPIRED_DEAD + FAILED_DEAD + FINISHED)
        .isGreaterThanOrEqualTo(10_000);

    try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
      List<Future<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < QUEUES - 1; i++) {
        String path = String.format("/v1/queues/scale/q-%04d/jobs", i);
        replies.add(pool.submit(() -> admin.post(path, "{\"payload\": 1}")));
      }
      for (Future<Reply> reply : replies) {
        assertThat(reply.get().status()).as(reply.get().toString()).isEqualTo(201);
      }
    }
  }

  static JsonNode counts() {
    return admin.get(QUEUE).json().get("counts");
  }

  /** Publishes n jobs to the queue, 1,000 a call; job(i) is the i-th job's JSON. */
  static void publish(int n, IntFunction<String> job) {
    for (int from = 0; from < n; from += 1000) {
      StringBuilder body = new StringBuilder("[");
      for (int i = from; i < Math.min(n, from + 1000); i++) {
        body.append(i == from ? "" : ",").append(job.apply(i));
      }
      Reply reply = admin.post(QUEUE + "/jobs", body.append("]").toString());
      assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }
  }

  /** Leases n jobs of the queue (the first n in line), 1,000 a call, as the consumer if given. */
  static List<JsonNode> lease(int n, String consumer) {
    List<JsonNode> jobs = new ArrayList<>();
    while (jobs.size() < n) {
      int count = Math.min(1000, n - jobs.size());
      Reply reply =
          admin.post(
              QUEUE + "/leases",
              "{\"count\": "
                  + count
                  + (consumer == null ? "" : ", \"consumer\": \"" + consumer + "\"")
                  + "}");
      assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
      reply.json().get("jobs").forEach(jobs::add);
    }
    return jobs;
  }

  /** Leases n ready jobs as this consumer (the first in line), without acking them. */
  void leaseAs(String consumer, int n) {
    lease(n, consumer);
  }

  // ---- the overview at this size ----

  /** Opens the overview afresh and prints its fill time and longest task, measured in the page. */
  void measureOverview() {
    waitForElement(By.cssSelector("#queues-body tr[data-queue]"));
    // From another page back to the overview, so the overview is built afresh; the longest task
    // is observed from the moment the overview is asked for.
    js("location.hash = '#/queue/scale/q-0000'");
    waitForElement(By.id("queue-name"));
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
    JsonNode overview = admin.get("/v1/overview").json();
    long jobs = 0;
    for (JsonNode q : overview.get("queues")) {
      for (JsonNode count : q.get("counts")) {
        jobs += count.asLong();
      }
    }
    System.out.printf(
        "DashboardActionsBrowserTest: overview of %d queues holding %d jobs filled in %.0f ms"
            + " (GET /v1/overview took %.0f ms); longest task %.0f ms; %d rows in the page%n",
        overview.get("queues").size(), jobs, fill, answer, longest, rows);
    assertThat(rows).isLessThanOrEqualTo(100L);
    screenshot("overview");
  }

  // ---- helpers ----

  void open(String hash) {
    browser.get(server.baseUrl() + "/ui" + hash);
  }

  List<String> jobRows() {
    return browser.findElements(By.cssSelector("#jobs-body tr[data-job-row]")).stream()
        .map(row -> row.getAttribute("data-job-row"))
        .toList();
  }

  long runningRows() {
    return (Long) js("return document.querySelectorAll('#running-body tr[data-running]').length");
  }

  long taskRows() {
    return (Long) js("return document.querySelectorAll('#tasks-body tr[data-task]').length");
  }

  long ticketRows() {
    return (Long) js("return document.querySelectorAll('#tickets-body tr[data-ticket]').length");
  }

  By rowAction(String id, String action) {
    return By.cssSelector(
        "#jobs-body tr[data-job-row='" + id + "'] button[data-action='" + action + "']");
  }

  String tab(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  String text(By by) {
    return browser.findElement(by).getText();
  }

  String notice() {
    return browser.findElement(By.id("notice")).getText();
  }

  /** The job's state as the server holds it. */
  String state(String id) {
    return admin.get(QUEUE + "/jobs/" + id).json().get("state").asText();
  }

  void logIn(String token) {
    WebElement input = waitForElement(By.id("token"));
    input.sendKeys(token);
    browser.findElement(By.id("login-button")).click();
    waitForElement(By.id("who-text"));
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

  /** A screenshot of the whole page at the window's width (the window grows, then shrinks). */
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
