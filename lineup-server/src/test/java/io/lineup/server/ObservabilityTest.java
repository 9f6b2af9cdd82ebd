package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.api.ApiContext;
import io.lineup.server.api.Route;
import io.lineup.server.api.RouteTable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** Metrics, request ids in answers and log lines, and the OpenAPI document. */
class ObservabilityTest {
  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.onItsOwnRedis().withSettings(settings -> settings.logRequests(true));

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void metricsShowQueueCountersDepthsLatenessProcessingHttpAndRedisLatency() {
    String q = "/v1/queues/obs/q";
    api.post(
        q + "/jobs", "[{\"payload\": 1}, {\"payload\": 2}, {\"payload\": 3, \"delay_ms\": 60000}]");
    JsonNode first = api.post(q + "/leases", "{\"wait_ms\": 1000}").json().get("jobs").get(0);
    api.post(
        q + "/jobs/" + first.get("id").asText() + "/ack",
        "{\"token\": \"" + first.get("token").asText() + "\"}");

    Reply metrics = api.as(null).get("/metrics");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.header("Content-Type")).startsWith("text/plain");
    String text = metrics.text();
    assertThat(sample(text, "lineup_queue_jobs_total", "queue=\"obs/q\"", "event=\"published\""))
        .isEqualTo(3);
    assertThat(sample(text, "lineup_queue_jobs_total", "queue=\"obs/q\"", "event=\"acked\""))
        .isEqualTo(1);
    assertThat(sample(text, "lineup_queue_depth", "queue=\"obs/q\"", "state=\"ready\""))
        .isEqualTo(1);
    assertThat(sample(text, "lineup_queue_depth", "queue=\"obs/q\"", "state=\"delayed\""))
        .isEqualTo(1);
    assertThat(sample(text, "lineup_job_lateness_seconds_count", "queue=\"obs/q\"")).isEqualTo(1);
    assertThat(text).contains("lineup_job_lateness_seconds_bucket{");
    assertThat(
            sample(
                text,
                "lineup_job_processing_seconds_count",
                "queue=\"obs/q\"",
                "outcome=\"acked\""))
        .isEqualTo(1);
    assertThat(
            sample(
                text,
                "lineup_http_server_requests_seconds_count",
                "route=\"/v1/queues/{ns}/{queue}/jobs\"",
                "method=\"POST\"",
                "status=\"201\""))
        .isGreaterThanOrEqualTo(1);
    // A script's first call goes the script way (EVALSHA) while its library loads, then FCALL.
    assertThat(scriptCommandSamples(text)).isPositive();
    assertThat(text).contains("lineup_lease_waiters").contains("lineup_redis_up 1.0");
  }

  @Test
  void leaseWaitersReportsTheLongPollsWaitingNowEvenAfterAGarbageCollection() {
    String q = "/v1/queues/obs/waiters";
    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(
            () -> api.send("POST", q + "/leases", "{\"wait_ms\": 60000}", Duration.ofSeconds(90)));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.running().waitingLeases() == 1);
    // Micrometer holds a gauge's object weakly: one nobody else holds reads NaN after a collection.
    System.gc();

    assertThat(unlabelled(api.as(null).get("/metrics").text(), "lineup_lease_waiters"))
        .isEqualTo(1.0);

    api.post(q + "/jobs", "{\"payload\": 1}");
    assertThat(waiting.join().status()).isEqualTo(200);
    assertThat(unlabelled(api.as(null).get("/metrics").text(), "lineup_lease_waiters"))
        .isEqualTo(0.0);
  }

  @Test
  void everyAnswerCarriesARequestIdAndKeepsTheCallersOne() {
    Reply generated = api.get("/health");
    assertThat(generated.header("X-Request-Id")).matches("[0-9a-f]{16}");
    Reply kept = api.withHeader("X-Request-Id", "caller-id-42").get("/v1/queues");
    assertThat(kept.header("X-Request-Id")).isEqualTo("caller-id-42");
    Reply refused = api.withHeader("X-Request-Id", "bad id with spaces").as(null).get("/v1/queues");
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.header("X-Request-Id")).matches("[0-9a-f]{16}");
    assertThat(api.get("/no/such/route").header("X-Request-Id")).isNotBlank();
  }

  @Test
  void logLinesOfARequestCarryItsRequestId() {
    Logger access = (Logger) LoggerFactory.getLogger("io.lineup.server.access");
    ContextCapturingAppender appender = new ContextCapturingAppender();
    appender.start();
    access.addAppender(appender);
    try {
      api.withHeader("X-Request-Id", "trace-me-7").get("/v1/queues");
      // The access line is written after the answer has reached the client, so it is awaited.
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() ->
              assertThat(appender.events())
                  .anySatisfy(event -> {
                    assertThat(event.getFormattedMessage()).contains("GET /v1/queues 200");
                    assertThat(event.getMDCPropertyMap()).containsEntry("request_id", "trace-me-7");
                  }));
    } finally {
      access.detachAppender(appender);
    }
  }

  /**
   * Keeps events with their logging context read on the thread that logged them: logback reads an
   * event's context lazily, on the first call, from the calling thread, so reading it later from
   * the test's thread would see the test's (empty) context.
   */
  private static final class ContextCapturingAppender extends ListAppender<ILoggingEvent> {
    @Override
    protected void append(ILoggingEvent event) {
      event.prepareForDeferredProcessing();
      super.append(event);
    }

    /** The events so far; logback appends while holding this appender's lock. */
    synchronized List<ILoggingEvent> events() {
      return List.copyOf(list);
    }
  }

  @Test
  void theOpenApiDocumentDescribesEveryRoute() {
    JsonNode paths = api.as(null).get("/openapi.json").json().get("paths");
    ApiContext none =
        new ApiContext(
            null, null, null, new ApiContext.RequestLimits(0, 0), null, null, null, null);
    for (Route route : RouteTable.routes(none)) {
      JsonNode path = paths.get(route.path());
      assertThat(path).as(route.path()).isNotNull();
      assertThat(path.get(route.method().name().toLowerCase(Locale.ROOT)))
          .as(route.method() + " " + route.path())
          .isNotNull();
    }
  }

  /** The value of a metric without labels. */
  static double unlabelled(String exposition, String metric) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(metric + " ")) {
        return Double.parseDouble(line.substring(metric.length() + 1).trim());
      }
    }
    throw new AssertionError("no sample of " + metric);
  }

  /** The value of the sample of {@code metric} whose labels include all of {@code labels}. */
  /** The timed script calls, FCALL and EVALSHA together. */
  private static double scriptCommandSamples(String exposition) {
    double sum = 0;
    for (String command : List.of("FCALL", "EVALSHA")) {
      if (exposition.contains("command=\"" + command + "\"")) {
        sum +=
            sample(
                exposition, "lineup_redis_commands_seconds_count", "command=\"" + command + "\"");
      }
    }
    return sum;
  }

  static double sample(String exposition, String metric, String... labels) {
    for (String line : exposition.split("\n")) {
      if (!line.startsWith(metric + "{")) {
        continue;
      }
      String labelPart = line.substring(metric.length(), line.lastIndexOf('}') + 1);
      boolean all = true;
      for (String label : labels) {
        all &= labelPart.contains(label);
      }
      if (all) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no sample of " + metric + " with " + List.of(labels));
  }
}
