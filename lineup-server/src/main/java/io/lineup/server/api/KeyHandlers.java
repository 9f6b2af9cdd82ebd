package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.KeyFields;
import io.lineup.api.PublishFields;
import io.lineup.core.Fairness;
import io.lineup.core.model.FairnessKey;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.RequestBody;

/**
 * The fairness keys of a fair queue over HTTP ({@code /v1/queues/{ns}/{queue}/keys}): the keys with
 * most jobs, one key's settings and counts, setting a key's own weight and limits, pausing and
 * resuming one key, and deleting one key's waiting jobs. The engine ({@link Fairness}) does each in
 * Redis; a key never seen reads as one with the queue's settings and no jobs.
 */
public final class KeyHandlers {
  private final ApiContext api;

  public KeyHandlers(ApiContext api) {
    this.api = api;
  }

  private Fairness fairness() {
    return api.lineup().fairness();
  }

  /**
   * The {@code {key}} of the path.
   *
   * @throws ApiException 400 {@code invalid_field} naming {@code key} when it breaks the rule
   */
  static String key(Context ctx) {
    String key = ctx.pathParam("key");
    try {
      return FairnessKey.check(PublishFields.KEY, key);
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(PublishFields.KEY, e.reason());
    }
  }

  /**
   * {@code GET /v1/queues/{ns}/{queue}/keys?by=waiting|leased&limit=}: the keys with most jobs
   * waiting (default) or leased, most first; limit 1 to 1000, default 20.
   */
  public void top(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    KeyCounts.By by = KeyJson.by(ctx.queryParam(KeyFields.BY));
    int limit =
        DeadLetterHandlers.queryInt(
            ctx, KeyFields.LIMIT, 1, KeyFields.MAX_LIMIT, KeyFields.DEFAULT_LIMIT);
    Responses.json(ctx, 200, KeyJson.view(fairness().top(queue, by, limit), by));
  }

  /** {@code GET /v1/queues/{ns}/{queue}/keys/{key}}: the key's settings and counts. */
  public void get(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String key = key(ctx);
    Responses.json(ctx, 200, KeyJson.view(fairness().key(queue, key)));
  }

  /**
   * {@code PUT /v1/queues/{ns}/{queue}/keys/{key}}: sets all of the key's own settings at once (an
   * absent value takes the queue's; an absent {@code paused} resumes it).
   */
  public void put(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String key = key(ctx);
    var settings = KeyJson.settings(RequestBody.read(ctx, api.limits().maxBodyBytes(), false));
    Responses.json(ctx, 200, KeyJson.view(fairness().configure(queue, key, settings)));
  }

  /** {@code POST /v1/queues/{ns}/{queue}/keys/{key}/pause}: its own settings are kept. */
  public void pause(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String key = key(ctx);
    Responses.json(ctx, 200, KeyJson.view(fairness().pause(queue, key)));
  }

  /** {@code POST /v1/queues/{ns}/{queue}/keys/{key}/resume}: its held jobs go back to the line. */
  public void resume(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String key = key(ctx);
    Responses.json(ctx, 200, KeyJson.view(fairness().resume(queue, key)));
  }

  /**
   * {@code DELETE /v1/queues/{ns}/{queue}/keys/{key}/jobs}: deletes the key's waiting jobs (ready,
   * delayed or held by a pause); its leased jobs run on. Answers {@code {"deleted": n}}.
   */
  public void deleteWaiting(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String key = key(ctx);
    ObjectNode answer = Json.object();
    answer.put("deleted", fairness().deleteWaiting(queue, key));
    Responses.json(ctx, 200, answer);
  }
}
