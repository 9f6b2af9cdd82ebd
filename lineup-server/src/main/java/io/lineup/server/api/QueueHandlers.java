package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSetting;
import io.lineup.core.model.QueueSettings;
import io.lineup.dispatch.EndpointKey;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.util.Map;

/** List queues, read a queue's counts and settings, change its settings. */
public final class QueueHandlers {
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

  /**
   * {@code PATCH /v1/queues/{ns}/{queue}}: changes the settings given (a {@code backoff} given in
   * part keeps its other fields); answers the new state. The engine checks the values.
   */
  public void patch(Context ctx, Principal principal) {
    refuseEndpointQueue(PathNames.queue(ctx));
    QueueName queue = PathNames.publicQueue(ctx);
    JsonFields f =
        JsonFields.of(
            RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", SettingsJson.FIELDS);
    Map<QueueSetting, Object> values = SettingsJson.read(f);
    if (values.isEmpty()) {
      throw ApiException.invalidField(
          null,
          "give at least one setting: "
              + String.join(", ", SettingsJson.FIELDS.stream().sorted().toList()));
    }
    QueueSettings change = QueueSettings.change(values, () -> api.lineup().stats(queue).settings());
    api.lineup().configure(queue, change);
    Responses.json(ctx, 200, Views.queue(api.lineup().stats(queue)));
  }

  /**
   * Refuses to change an endpoint's queue through the queue route: its settings ({@code rate},
   * {@code rate_period}, {@code ttr}, {@code paused}, ...) are derived from the endpoint's and its
   * circuit breaker's, and a change here would be undone at the next sync or hide an open breaker.
   *
   * @throws ApiException 403 {@code reserved_queue} naming the endpoint and its routes
   */
  private static void refuseEndpointQueue(QueueName queue) {
    if (!queue.name().startsWith(EndpointKey.QUEUE_PREFIX)) {
      return;
    }
    String endpoint = queue.name().substring(EndpointKey.QUEUE_PREFIX.length());
    String path = "/v1/endpoints/" + queue.namespace() + "/" + endpoint;
    throw new ApiException(
            ErrorCode.RESERVED_QUEUE,
            "queue",
            "queue "
                + queue.name()
                + " holds the tasks of endpoint "
                + endpoint
                + " and its settings follow the endpoint's: change them with PUT "
                + path
                + ", pause and resume with POST "
                + path
                + "/pause and /resume, reset its circuit breaker with POST "
                + path
                + "/circuit/reset")
        .with("endpoint", endpoint);
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
