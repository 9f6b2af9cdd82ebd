package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.core.Backoff;
import io.lineup.core.Limits;
import io.lineup.core.QueueName;
import io.lineup.core.QueueSettings;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/** List queues, read a queue's counts and settings, change its settings. */
public final class QueueHandlers {
  /** Longest retention that may be set: 30 days, in ms. */
  static final long MAX_RETENTION_MS = Limits.MAX_UNIQUE_WINDOW_MS;

  /** Most finished records a queue may be set to keep. */
  static final int MAX_RETENTION_RECORDS = 10_000_000;

  /** Longest backoff wait, in ms (one day). */
  static final long MAX_BACKOFF_MS = 24L * 3600 * 1000;

  private static final Set<String> SETTINGS_FIELDS =
      Set.of(
          "paused",
          "rate_limit",
          "concurrency_limit",
          "max_attempts",
          "ttr_ms",
          "backoff",
          "retention_ms",
          "retention_max");
  private static final Set<String> BACKOFF_FIELDS =
      Set.of("kind", "initial_ms", "max_ms", "jitter");

  private final ApiContext api;

  public QueueHandlers(ApiContext api) {
    this.api = api;
  }

  /** {@code GET /v1/queues}: the queues the token may see (all for the admin). */
  public void list(Context ctx, Principal principal) {
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("queues");
    for (QueueName queue : api.lineup().queues()) {
      if (principal.covers(queue.namespace())) {
        ObjectNode item = list.addObject();
        item.put("queue", queue.toString());
        item.put("namespace", queue.namespace());
        item.put("name", queue.name());
      }
    }
    Responses.json(ctx, 200, answer);
  }

  /** {@code GET /v1/queues/{ns}/{queue}}: counts per state, rate, settings, counters. */
  public void get(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    requireKnown(queue);
    Responses.json(ctx, 200, Views.queue(api.lineup().stats(queue)));
  }

  /** {@code PATCH /v1/queues/{ns}/{queue}}: changes the fields given; answers the new state. */
  public void patch(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    JsonFields f =
        JsonFields.of(
            RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", SETTINGS_FIELDS);
    if (f.isEmpty()) {
      throw ApiException.invalidField(
          null,
          "give at least one setting: "
              + String.join(", ", SETTINGS_FIELDS.stream().sorted().toList()));
    }
    QueueSettings change = QueueSettings.change();
    Boolean paused = f.optionalBoolean("paused");
    if (paused != null) {
      change = change.withPaused(paused);
    }
    Integer rate = f.optionalInt("rate_limit", 0, QueueSettings.MAX_RATE_LIMIT);
    if (rate != null) {
      change = change.withRateLimit(rate);
    }
    Integer concurrency =
        f.optionalInt("concurrency_limit", 0, QueueSettings.MAX_CONCURRENCY_LIMIT);
    if (concurrency != null) {
      change = change.withConcurrencyLimit(concurrency);
    }
    Integer maxAttempts = f.optionalInt("max_attempts", 1, Limits.MAX_ATTEMPTS);
    if (maxAttempts != null) {
      change = change.withMaxAttempts(maxAttempts);
    }
    Long ttr = f.optionalLong("ttr_ms", Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    if (ttr != null) {
      change = change.withTimeToRun(Duration.ofMillis(ttr));
    }
    Long retention = f.optionalLong("retention_ms", 0, MAX_RETENTION_MS);
    if (retention != null) {
      change = change.withRetention(Duration.ofMillis(retention));
    }
    Integer retentionMax = f.optionalInt("retention_max", 0, MAX_RETENTION_RECORDS);
    if (retentionMax != null) {
      change = change.withRetentionMax(retentionMax);
    }
    JsonFields backoff = f.optionalObject("backoff", BACKOFF_FIELDS);
    if (backoff != null) {
      change = change.withBackoff(backoff(queue, backoff));
    }
    api.lineup().configure(queue, change);
    Responses.json(ctx, 200, Views.queue(api.lineup().stats(queue)));
  }

  /** A backoff from the fields given, the others kept from the queue's current backoff. */
  private Backoff backoff(QueueName queue, JsonFields f) {
    String kindText = f.optionalText("kind", 20);
    Backoff.Kind kind = null;
    if (kindText != null) {
      try {
        kind = Backoff.Kind.valueOf(kindText.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw ApiException.invalidField(f.path("kind"), "must be fixed or exponential");
      }
    }
    Long initial = f.optionalLong("initial_ms", 0, MAX_BACKOFF_MS);
    Long max = f.optionalLong("max_ms", 0, MAX_BACKOFF_MS);
    Double jitter = f.optionalNumber("jitter", 0, 1);
    Backoff current =
        kind != null && initial != null && max != null && jitter != null
            ? null
            : api.lineup().stats(queue).settings().backoff();
    return new Backoff(
        kind != null ? kind : current.kind(),
        initial != null ? Duration.ofMillis(initial) : current.initial(),
        max != null ? Duration.ofMillis(max) : current.max(),
        jitter != null ? jitter : current.jitter());
  }

  /**
   * Checks the queue was ever published to or configured.
   *
   * @throws ApiException 404 when it was not
   */
  void requireKnown(QueueName queue) {
    if (!api.lineup().isKnown(queue)) {
      throw ApiException.notFound("no queue " + queue + " (never published to or configured)");
    }
  }
}
