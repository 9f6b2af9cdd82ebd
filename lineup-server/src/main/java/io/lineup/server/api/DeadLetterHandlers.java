package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** List, respawn and purge a queue's dead letters. */
public final class DeadLetterHandlers {
  /** Dead letters per page when the request names no count. */
  static final int DEFAULT_PAGE = 100;

  /** Highest offset accepted. */
  static final int MAX_OFFSET = 1_000_000_000;

  private static final Set<String> RESPAWN_FIELDS = Set.of("ids", "count", "all", "ttl_ms");

  private final ApiContext api;
  private final QueueHandlers queues;

  public DeadLetterHandlers(ApiContext api, QueueHandlers queues) {
    this.api = api;
    this.queues = queues;
  }

  /** {@code GET /v1/queues/{ns}/{queue}/dead?offset=&count=}: a page, oldest death first. */
  public void list(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    int offset = queryInt(ctx, "offset", 0, MAX_OFFSET, 0);
    int count = queryInt(ctx, "count", 1, Limits.MAX_BATCH, DEFAULT_PAGE);
    queues.requireKnown(queue);
    DeadPage page = api.lineup().deadLetters(queue, offset, count);
    Responses.json(ctx, 200, Views.deadPage(page, encoding));
  }

  /**
   * {@code POST /v1/queues/{ns}/{queue}/dead/respawn}: puts dead jobs back in line, named by {@code
   * ids}, the {@code count} oldest, or {@code all}; optional fresh {@code ttl_ms}.
   */
  public void respawn(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", RESPAWN_FIELDS);
    List<String> ids = f.optionalTextList("ids", Limits.MAX_BATCH, Limits.MAX_ID_LENGTH);
    for (int i = 0; ids != null && i < ids.size(); i++) {
      if (!PathNames.isJobId(ids.get(i))) {
        throw ApiException.invalidField("ids[" + i + "]", PathNames.JOB_ID_RULE);
      }
    }
    Long count = f.optionalLong("count", 1, Long.MAX_VALUE);
    Boolean all = f.optionalBoolean("all");
    Long ttl = f.optionalLong("ttl_ms", 1, Limits.MAX_TTL_MS);
    int given =
        (ids != null ? 1 : 0) + (count != null ? 1 : 0) + (Boolean.TRUE.equals(all) ? 1 : 0);
    if (given != 1) {
      throw ApiException.invalidField(
          "ids", "give exactly one of ids (a list), count (the oldest n) or all (true)");
    }
    queues.requireKnown(queue);
    Duration ttlDuration = ttl == null ? null : Duration.ofMillis(ttl);
    long respawned;
    if (ids != null) {
      respawned = api.lineup().respawn(queue, ids, ttlDuration);
    } else {
      respawned =
          api.lineup().respawnOldest(queue, count != null ? count : Long.MAX_VALUE, ttlDuration);
    }
    ObjectNode answer = Json.object();
    answer.put("respawned", respawned);
    Responses.json(ctx, 200, answer);
  }

  /** {@code DELETE /v1/queues/{ns}/{queue}/dead}: deletes every dead letter. */
  public void purge(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    queues.requireKnown(queue);
    ObjectNode answer = Json.object();
    answer.put("purged", api.lineup().purgeDead(queue));
    Responses.json(ctx, 200, answer);
  }

  static int queryInt(Context ctx, String name, int min, int max, int defaultValue) {
    String text = ctx.queryParam(name);
    if (text == null || text.isEmpty()) {
      return defaultValue;
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw ApiException.invalidField(name, "must be an integer between " + min + " and " + max);
    }
    if (value < min || value > max) {
      throw ApiException.invalidField(
          name, "must be an integer between " + min + " and " + max + ", got " + value);
    }
    return (int) value;
  }
}
