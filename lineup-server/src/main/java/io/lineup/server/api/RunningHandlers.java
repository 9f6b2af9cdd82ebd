package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseEntry;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.consumers.ConsumerActivity;
import io.lineup.server.consumers.ConsumerSeen;
import io.lineup.server.http.Json;
import java.util.List;
import java.util.Optional;

/**
 * What runs now on a queue: the jobs leased, with who holds them, and the consumers seen in the
 * last minute. Neither shows a payload, so both serve Lineup's own queues too.
 */
public final class RunningHandlers {
  /** Leased jobs per page when the request names no limit. */
  static final int DEFAULT_RUNNING_PAGE = 50;

  /** Most leased jobs per page. */
  public static final int MAX_RUNNING_PAGE = 100;

  private final ApiContext api;
  private final QueueHandlers queues;

  public RunningHandlers(ApiContext api, QueueHandlers queues) {
    this.api = api;
    this.queues = queues;
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/running?cursor=&limit=}: the leased jobs, soonest lease
   * deadline first, each with its consumer, attempt, lease start and deadline; {@code next_cursor}
   * gives the next page (null on the last).
   */
  public void running(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    int limit =
        DeadLetterHandlers.queryInt(ctx, "limit", 1, MAX_RUNNING_PAGE, DEFAULT_RUNNING_PAGE);
    LeaseCursor cursor = LeaseCursor.decode(ctx.queryParam("cursor"));
    queues.requireKnown(queue);
    List<LeaseEntry> page =
        api.lineup()
            .leased(
                queue,
                cursor == null ? 0 : cursor.deadlineMs(),
                cursor == null ? null : cursor.id(),
                limit);
    List<String> holders =
        api.state().consumers().holders(queue, page.stream().map(LeaseEntry::id).toList());
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    ArrayNode jobs = answer.putArray("jobs");
    for (int i = 0; i < page.size(); i++) {
      LeaseEntry entry = page.get(i);
      // Read one by one: a job settled meanwhile is left out rather than shown as running.
      Optional<JobInfo> info = api.lineup().get(queue, entry.id());
      if (info.isEmpty() || info.get().state() != JobState.LEASED) {
        continue;
      }
      JobInfo job = info.get();
      ObjectNode node = jobs.addObject();
      node.put("id", job.id());
      node.put("consumer", holders.get(i));
      node.put("attempt", job.attempts());
      node.put("max_attempts", job.maxAttempts());
      node.put("priority", job.priority());
      putTime(node, "leased_at", job.startedAt());
      putTime(
          node,
          "lease_deadline_at",
          job.leaseDeadline() != null ? job.leaseDeadline() : entry.leaseDeadline());
    }
    if (page.size() == limit) {
      LeaseEntry last = page.get(page.size() - 1);
      answer.put(
          "next_cursor", new LeaseCursor(last.leaseDeadline().toEpochMilli(), last.id()).encode());
    } else {
      answer.putNull("next_cursor");
    }
    Responses.json(ctx, 200, answer);
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/consumers}: the consumers seen in the last minute on any
   * instance, most recently seen first: long-polls waiting now, jobs leased and acked in the last
   * minute.
   */
  public void consumers(Context ctx, Principal principal) {
    QueueName queue = PathNames.queue(ctx);
    queues.requireKnown(queue);
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    answer.put("window_ms", ConsumerActivity.WINDOW_MS);
    ArrayNode list = answer.putArray("consumers");
    for (ConsumerSeen seen : api.state().consumers().seen(queue)) {
      ObjectNode node = list.addObject();
      node.put("name", seen.name());
      node.put("last_seen_at", seen.lastSeenMs());
      node.put("waiting", seen.waiting());
      node.put("leased_last_minute", seen.leased());
      node.put("acked_last_minute", seen.acked());
      node.put("leased_per_s", Math.round(seen.leased() / 60.0 * 100) / 100.0);
    }
    Responses.json(ctx, 200, answer);
  }

  private static void putTime(ObjectNode node, String name, java.time.Instant at) {
    if (at == null) {
      node.putNull(name);
    } else {
      node.put(name, at.toEpochMilli());
    }
  }
}
