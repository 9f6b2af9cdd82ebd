package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueEvent;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import io.lineup.server.auth.Principal;
import io.lineup.server.auth.Scope;
import io.lineup.server.history.EtaCheck;
import io.lineup.server.history.HistoryRange;
import io.lineup.server.history.QueueHistory;
import io.lineup.server.history.QueueSample;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the web dashboard reads beyond the other routes: who the token is, an overview of everything
 * it may see, a queue's recent history, the next jobs in line, a fair queue's keys and a job's
 * timeline.
 */
public final class DashboardHandlers {
  /** Jobs in line per page when the request names no count. */
  static final int DEFAULT_LINE_PAGE = 20;

  /** Most jobs in line per page. */
  public static final int MAX_LINE_PAGE = 100;

  /** Keys per list of a fair queue's page when the request names no limit. */
  static final int DEFAULT_KEYS_PAGE = 20;

  /** Most keys per list of a fair queue's page. */
  public static final int MAX_KEYS_PAGE = 100;

  /** Most entries of a queue's event stream read for one job's timeline. */
  public static final int MAX_EVENTS_SCANNED = 1000;

  private final ApiContext api;
  private final QueueHandlers queues;

  public DashboardHandlers(ApiContext api, QueueHandlers queues) {
    this.api = api;
    this.queues = queues;
  }

  /** {@code GET /v1/me}: the token's kind, namespace, scopes and what it may do. */
  public void me(Context ctx, Principal principal) {
    ObjectNode answer = Json.object();
    answer.put("admin", principal.admin());
    answer.put("namespace", principal.namespace());
    answer.put("token_id", principal.tokenId());
    ArrayNode scopes = answer.putArray("scopes");
    for (Scope scope : Scope.values()) {
      if (principal.scopes().contains(scope)) {
        scopes.add(scope.jsonName());
      }
    }
    if (principal.admin()) {
      answer.putNull("max_priority");
    } else {
      answer.put("max_priority", principal.maxPriority());
    }
    ObjectNode may = answer.putObject("may");
    may.put("read", true);
    may.put("publish", principal.scopes().contains(Scope.PUBLISH));
    may.put("consume", principal.scopes().contains(Scope.CONSUME));
    may.put("manage", principal.scopes().contains(Scope.MANAGE));
    may.put("cancel", principal.hasAny(Set.of(Scope.PUBLISH, Scope.MANAGE)));
    may.put("administer", principal.admin());
    Responses.json(ctx, 200, answer);
  }

  /**
   * {@code GET /v1/overview}: every queue the token may see with its counts and recent rates, and,
   * for a token that may manage, the endpoints and rooms of those namespaces.
   */
  public void overview(Context ctx, Principal principal) {
    ObjectNode answer = Json.object();
    answer.put("read_at", System.currentTimeMillis());
    answer.put("history_interval_ms", api.history().intervalMs());
    ArrayNode list = answer.putArray("queues");
    Set<String> namespaces = new TreeSet<>();
    int shown = 0;
    boolean truncated = false;
    for (QueueName queue : api.lineup().queues()) {
      if (!principal.covers(queue.namespace())) {
        continue;
      }
      namespaces.add(queue.namespace());
      if (shown == QueueHistory.MAX_QUEUES) {
        truncated = true;
        continue;
      }
      shown++;
      list.add(queueSummary(api.lineup().stats(queue)));
    }
    answer.put("truncated", truncated);
    boolean manage = principal.hasAny(Set.of(Scope.MANAGE, Scope.READ));
    ArrayNode endpoints = answer.putArray("endpoints");
    ArrayNode rooms = answer.putArray("rooms");
    if (manage) {
      for (String ns : namespaces) {
        api.dispatch().endpoints().list(ns).forEach(e -> endpoints.addPOJO(EndpointJson.view(e)));
        api.rooms().list(ns).forEach(info -> rooms.addPOJO(RoomJson.info(info)));
      }
    }
    Responses.json(ctx, 200, answer);
  }

  private ObjectNode queueSummary(QueueStats stats) {
    QueueName queue = stats.queue();
    ObjectNode node = Views.queueCounts(stats);
    node.put("kind", kind(queue));
    node.put("paused", Boolean.TRUE.equals(stats.settings().paused()));
    node.put("service_rate", stats.serviceRate());
    putMillis(node, "drain_eta_ms", stats.drainEta() == null ? null : stats.drainEta().point());
    Optional<QueueSample> latest = api.history().latest(queue);
    if (latest.isPresent()) {
      ObjectNode rates = node.putObject("rates");
      rates.put("published_per_s", latest.get().publishedPerSecond());
      rates.put("completed_per_s", latest.get().completedPerSecond());
      rates.put("failed_per_s", latest.get().failedPerSecond());
      rates.put("at", latest.get().at());
    } else {
      node.putNull("rates");
    }
    putMillis(node, "lateness_p99_ms", api.state().metrics().latenessP99(queue).orElse(null));
    return node;
  }

  /** {@code queue}, {@code endpoint} or {@code room}: what the queue holds. */
  static String kind(QueueName queue) {
    if (queue.name().startsWith("dispatch.")) {
      return "endpoint";
    }
    if (queue.name().startsWith("room.")) {
      return "room";
    }
    return "queue";
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/history?range=}: the readings of the last 15 minutes (a
   * reading per second, the default), hour or day (a reading per minute).
   */
  public void history(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    String asked = ctx.queryParam("range");
    HistoryRange range =
        asked == null || asked.isEmpty() ? HistoryRange.MINUTES_15 : HistoryRange.of(asked);
    if (range == null) {
      throw ApiException.invalidField("range", "must be 15m, 1h or 24h");
    }
    queues.requireKnown(queue);
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    answer.put("range", range.text());
    answer.put("interval_ms", api.history().intervalMs(range));
    answer.put("window_ms", api.history().windowMs(range));
    List<QueueSample> kept = api.history().samples(queue, range);
    ArrayNode samples = answer.putArray("samples");
    for (QueueSample s : kept) {
      ObjectNode node = samples.addObject();
      node.put("at", s.at());
      node.put("ready", s.ready());
      node.put("delayed", s.delayed());
      node.put("leased", s.leased());
      node.put("dead", s.dead());
      node.put("published", s.published());
      node.put("completed", s.completed());
      node.put("failed", s.failed());
      node.put("leased_total", s.leasedTotal());
      if (s.drainEtaMs() < 0) {
        node.putNull("drain_eta_ms");
      } else {
        node.put("drain_eta_ms", s.drainEtaMs());
      }
      node.put("published_per_s", s.publishedPerSecond());
      node.put("completed_per_s", s.completedPerSecond());
      node.put("failed_per_s", s.failedPerSecond());
    }
    EtaCheck check = EtaCheck.of(kept);
    ObjectNode eta = answer.putObject("eta_check");
    eta.put("checked", check.checked());
    if (check.checked() == 0) {
      eta.putNull("mean_error_percent");
      eta.putNull("last_estimate_ms");
      eta.putNull("last_actual_ms");
    } else {
      eta.put("mean_error_percent", check.meanErrorPercent());
      eta.put("last_estimate_ms", check.lastEstimateMs());
      eta.put("last_actual_ms", check.lastActualMs());
    }
    Responses.json(ctx, 200, answer);
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/line?offset=&count=}: the next ready jobs in lease order,
   * each with its position and ETA.
   */
  public void line(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    int offset = DeadLetterHandlers.queryInt(ctx, "offset", 0, DeadLetterHandlers.MAX_OFFSET, 0);
    int count = DeadLetterHandlers.queryInt(ctx, "count", 1, MAX_LINE_PAGE, DEFAULT_LINE_PAGE);
    queues.requireKnown(queue);
    QueueStats stats = api.lineup().stats(queue);
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    answer.put("ready", stats.ready());
    answer.put("paused", Boolean.TRUE.equals(stats.settings().paused()));
    ArrayNode jobs = answer.putArray("jobs");
    List<PeekedJob> peeked = api.lineup().peek(queue, offset, count);
    for (PeekedJob job : peeked) {
      // Read one by one: a job leased meanwhile is left out rather than shown at a stale place.
      Optional<JobInfo> info = api.lineup().get(queue, job.id());
      if (info.isEmpty() || info.get().position() < 0) {
        continue;
      }
      ObjectNode node = jobs.addObject();
      node.put("id", job.id());
      node.put("position", info.get().position());
      node.put("priority", job.priority());
      node.put("attempts", job.attempts());
      node.put("created_at", job.createdAt().toEpochMilli());
      var eta = info.get().eta();
      putMillis(node, "eta_ms", eta == null ? null : eta.point());
      putMillis(node, "eta_low_ms", eta == null ? null : eta.low());
      putMillis(node, "eta_high_ms", eta == null ? null : eta.high());
    }
    Responses.json(ctx, 200, answer);
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/fairness?limit=}: for a fair queue, the keys with jobs
   * waiting and leased, and the {@code limit} keys (1 to {@value #MAX_KEYS_PAGE}, default {@value
   * #DEFAULT_KEYS_PAGE}) with most jobs waiting and most leased, each with its share of the waiting
   * jobs, effective weight and limits and paused state; for another queue, {@code fair: false}.
   */
  public void fairness(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    int limit = DeadLetterHandlers.queryInt(ctx, "limit", 1, MAX_KEYS_PAGE, DEFAULT_KEYS_PAGE);
    queues.requireKnown(queue);
    QueueStats stats = api.lineup().stats(queue);
    Responses.json(ctx, 200, new DashboardKeys(api.lineup().fairness()).view(stats, limit));
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/jobs/{id}/events}: the entries of the queue's event stream
   * that name the job, oldest first.
   */
  public void jobEvents(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    String id = PathNames.jobId(ctx);
    if (!api.lineup().exists(queue, id)) {
      throw ApiException.notFound("no job " + id + " in " + queue);
    }
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    answer.put("id", id);
    ArrayNode events = answer.putArray("events");
    int scanned = 0;
    String after = null;
    while (scanned < MAX_EVENTS_SCANNED) {
      List<QueueEvent> page =
          api.lineup().events(queue, after, Math.min(500, MAX_EVENTS_SCANNED - scanned));
      if (page.isEmpty()) {
        break;
      }
      for (QueueEvent event : page) {
        if (event.jobIds().contains(id)) {
          ObjectNode node = events.addObject();
          node.put("kind", event.kind());
          node.put("at", event.at().toEpochMilli());
          node.put("stream_id", event.streamId());
        }
      }
      scanned += page.size();
      after = page.get(page.size() - 1).streamId();
    }
    answer.put("scanned", scanned);
    Responses.json(ctx, 200, answer);
  }

  /** {@code GET /v1/rooms/{ns}}: the namespace's rooms with their settings and counts. */
  public void rooms(Context ctx, Principal principal) {
    String ns = PathNames.namespace(ctx);
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("rooms");
    api.rooms().list(ns).forEach(info -> list.addPOJO(RoomJson.info(info)));
    Responses.json(ctx, 200, answer);
  }

  private static void putMillis(ObjectNode node, String name, Duration duration) {
    if (duration == null) {
      node.putNull(name);
    } else {
      node.put(name, duration.toMillis());
    }
  }
}
