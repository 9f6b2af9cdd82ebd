package io.lineup.examples;

import io.lineup.api.resource.Task;
import io.lineup.api.resource.TaskStatus;
import io.lineup.client.EndpointName;
import io.lineup.client.EndpointSettings;
import io.lineup.client.LineupClient;
import io.lineup.client.NewTask;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Protect an upstream at 300 requests per second: the upstream is registered once as a Lineup
 * endpoint with {@code rate} 300 per 1 s; callers hand Lineup their requests as tasks (with an
 * idempotency key, so a retried submit is harmless) and read the upstream's answers back with a
 * long-poll. However many tasks arrive at once (here: all that queued while the upstream was down),
 * Lineup never starts more than 300 requests in any second, across all its instances.
 *
 * <p>Run: {@code LINEUP_URL=http://127.0.0.1:7700 LINEUP_TOKEN=... java ... ProtectUpstream
 * [tasks]} (default 3,000: ten seconds at 300 per second); it starts a fake upstream on 127.0.0.1
 * that counts what it receives.
 */
public final class ProtectUpstream {
  /** The endpoint the upstream is registered as. */
  public static final EndpointName ENDPOINT = EndpointName.of("shop", "quotes");

  /** Requests per second the upstream can take. */
  public static final int RATE = 300;

  private final LineupClient client;

  /**
   * @param client a client whose token may manage endpoints and submit tasks in {@code shop}
   */
  public ProtectUpstream(LineupClient client) {
    this.client = client;
  }

  /**
   * Registers (or updates) the endpoint: 300 requests per second, 16 at once, 3 attempts.
   *
   * @param paused true while the upstream is down for maintenance: tasks are accepted and wait
   */
  public void register(String upstreamUrl, boolean paused) {
    client
        .dispatch()
        .putEndpoint(
            ENDPOINT,
            EndpointSettings.of(upstreamUrl + "/api")
                .rate(RATE, Duration.ofSeconds(1))
                .concurrency(16)
                .maxAttempts(3)
                .expectedService(Duration.ofMillis(5))
                .paused(paused));
  }

  /** Submits one quote request per item, each keyed by its item; returns the task ids. */
  public List<String> submitQuotes(int items) {
    List<String> ids = new ArrayList<>(items);
    for (int item = 0; item < items; item++) {
      NewTask quote =
          NewTask.post("/quote")
              .jsonBody("{\"item\":" + item + "}")
              .idempotencyKey("quote-" + item);
      ids.add(client.dispatch().submit(ENDPOINT, quote).task().id());
    }
    return ids;
  }

  /**
   * Waits for each task's end (up to {@code wait} each) and returns the upstream's answers.
   *
   * @throws IllegalStateException when a task did not succeed in time
   */
  public List<String> answers(List<String> ids, Duration wait) {
    List<String> answers = new ArrayList<>(ids.size());
    for (String id : ids) {
      Task task = client.dispatch().task(ENDPOINT, id, wait);
      if (task.status() != TaskStatus.SUCCEEDED) {
        throw new IllegalStateException("task " + id + " ended " + task.status());
      }
      answers.add(new String(task.response().bodyBytes(), StandardCharsets.UTF_8));
    }
    return answers;
  }

  /** Sends the quotes through Lineup to a fake upstream and prints what the upstream saw. */
  public static void main(String[] args) throws Exception {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
    try (LineupClient client =
            LineupClient.connect(
                System.getenv().getOrDefault("LINEUP_URL", "http://127.0.0.1:7700"),
                System.getenv("LINEUP_TOKEN"));
        FakeUpstream upstream = FakeUpstream.start()) {
      ProtectUpstream shop = new ProtectUpstream(client);
      // The upstream is "down for maintenance" while the quotes are submitted, so they all wait;
      // when it is back, Lineup sends them no faster than its rate.
      shop.register(upstream.url(), true);
      List<String> ids = shop.submitQuotes(tasks);
      System.out.println("submitted " + ids.size() + " quote requests; the upstream is back");
      shop.register(upstream.url(), false);
      List<String> answers = shop.answers(ids, Duration.ofSeconds(60));
      System.out.println("first answer: " + answers.get(0));
      System.out.printf(
          "the upstream received %d requests (%d distinct keys) over %.1f s;"
              + " busiest second: %d requests (limit %d)%n",
          upstream.requests(),
          upstream.distinctKeys(),
          upstream.spanSeconds(),
          upstream.busiestSecond(),
          RATE);
    }
  }
}
