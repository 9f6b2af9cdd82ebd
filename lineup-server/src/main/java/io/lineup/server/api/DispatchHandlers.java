package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.api.TraceContext;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobState;
import io.lineup.dispatch.Dispatcher;
import io.lineup.dispatch.EndpointKey;
import io.lineup.dispatch.EndpointSpec;
import io.lineup.dispatch.Tasks;
import io.lineup.server.auth.Principal;
import io.lineup.server.auth.Scope;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * API dispatch: endpoints, tasks and the callback settings of a namespace. Reads request JSON into
 * the dispatch module's typed values and writes its answers through {@link EndpointJson}, {@link
 * TaskJson} and {@link CallbackJson}.
 */
public final class DispatchHandlers {
  private final ApiContext api;

  public DispatchHandlers(ApiContext api) {
    this.api = api;
  }

  private Dispatcher dispatch() {
    return api.dispatch();
  }

  /** The {@code {ns}/{endpoint}} of the path. */
  static EndpointKey endpoint(Context ctx) {
    return endpoint(PathNames.namespace(ctx), ctx.pathParam("endpoint"));
  }

  private static EndpointKey endpoint(String ns, String name) {
    try {
      return new EndpointKey(ns, name);
    } catch (InvalidArgumentException e) {
      throw new ApiException(ErrorCode.INVALID_NAME, "endpoint", e.reason());
    }
  }

  /** {@code PUT /v1/endpoints/{ns}/{endpoint}}: creates (201) or replaces (200) an endpoint. */
  public void putEndpoint(Context ctx, Principal principal) {
    EndpointKey key = endpoint(ctx);
    EndpointSpec spec =
        EndpointJson.parse(RequestBody.read(ctx, api.limits().maxBodyBytes(), true));
    boolean created = dispatch().endpoints().put(key, spec);
    Responses.json(
        ctx,
        created ? 201 : 200,
        EndpointJson.view(dispatch().endpoints().find(key).orElseThrow()));
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}}. */
  public void getEndpoint(Context ctx, Principal principal) {
    EndpointKey key = endpoint(ctx);
    Responses.json(
        ctx,
        200,
        dispatch()
            .endpoints()
            .find(key)
            .map(EndpointJson::view)
            .orElseThrow(() ->
                ApiException.notFound(
                    "no endpoint " + key.name() + " in namespace " + key.namespace())));
  }

  /** {@code GET /v1/endpoints/{ns}}. */
  public void listEndpoints(Context ctx, Principal principal) {
    String ns = PathNames.namespace(ctx);
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("endpoints");
    dispatch().endpoints().list(ns).forEach(e -> list.addPOJO(EndpointJson.view(e)));
    Responses.json(ctx, 200, answer);
  }

  /** {@code DELETE /v1/endpoints/{ns}/{endpoint}}, with its recurring schedules. */
  public void deleteEndpoint(Context ctx, Principal principal) {
    EndpointKey key = endpoint(ctx);
    if (!dispatch().endpoints().delete(key)) {
      throw ApiException.notFound("no endpoint " + key.name() + " in namespace " + key.namespace());
    }
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/endpoints/{ns}/{endpoint}/tasks}: 202 queued, 200 for a repeated key. */
  public void submit(Context ctx, Principal principal) {
    Tasks.Submitted submitted =
        submit(
            endpoint(ctx),
            () -> RequestBody.read(ctx, api.limits().maxBodyBytes(), true),
            principal,
            TraceHeaders.of(ctx::header));
    Responses.jsonText(ctx, status(submitted), TaskJson.write(submitted.task()));
  }

  /**
   * {@code POST /v1/endpoints/{ns}/{endpoint}/tasks} on the server's core lane (no query): answers
   * as {@link #submit(Context, Principal)} does.
   */
  public LaneAction.Answer submitOnLane(
      String ns, String endpoint, LaneAction.Body body, Principal principal) {
    Tasks.Submitted submitted =
        submit(
            endpoint(PathNames.namespace(ns), endpoint),
            () -> body.json(null),
            principal,
            TraceHeaders.of(body::header));
    return new LaneAction.Answer(status(submitted), TaskJson.write(submitted.task()));
  }

  private Tasks.Submitted submit(
      EndpointKey key, Supplier<JsonNode> body, Principal principal, TraceContext trace) {
    // An unknown endpoint is a 404 before the body is read.
    EndpointSpec spec = dispatch().endpoints().spec(key);
    return dispatch()
        .tasks()
        .submit(
            key,
            TaskJson.parse(body.get(), spec, principal, dispatch().tasks().maxBodyBytes()),
            trace);
  }

  /** 202 for a new task, 200 for a repeated idempotency key (the first task's answer). */
  private static int status(Tasks.Submitted submitted) {
    return submitted.created() ? 202 : 200;
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}/tasks/{id}?wait_ms=}. */
  public void getTask(Context ctx, Principal principal) throws InterruptedException {
    EndpointKey key = endpoint(ctx);
    String id = PathNames.jobId(ctx);
    long waitMs = 0;
    String wait = ctx.queryParam("wait_ms");
    if (wait != null) {
      try {
        waitMs = Long.parseLong(wait);
      } catch (NumberFormatException e) {
        waitMs = -1;
      }
      if (waitMs < 0 || waitMs > Tasks.MAX_WAIT_MS) {
        throw ApiException.invalidField(
            "wait_ms", "must be an integer from 0 to " + Tasks.MAX_WAIT_MS);
      }
    }
    // Only the task's own caller reading its result starts the read grace: a token that may
    // submit tasks (the publish scope; the admin holds every scope), unless it asks for a peek, as
    // the dashboard always does. A read- or manage-only token never starts it.
    boolean callerRead =
        principal.scopes().contains(Scope.PUBLISH) && !"true".equals(ctx.queryParam("peek"));
    Responses.jsonText(
        ctx, 200, TaskJson.write(dispatch().tasks().task(key, id, waitMs, callerRead)));
  }

  /**
   * {@code GET /v1/endpoints/{ns}/{endpoint}/dead?offset=&count=}: the tasks that ran out of
   * attempts, oldest death first (the dashboard's view of an endpoint's dead letters, whose queue
   * the queue routes refuse).
   */
  public void deadTasks(Context ctx, Principal principal) {
    EndpointKey key = endpoint(ctx);
    int offset = DeadLetterHandlers.queryInt(ctx, "offset", 0, DeadLetterHandlers.MAX_OFFSET, 0);
    int count =
        DeadLetterHandlers.queryInt(ctx, "count", 1, Tasks.MAX_DEAD_PAGE, Tasks.MAX_DEAD_PAGE);
    Responses.json(ctx, 200, TaskJson.deadTasks(dispatch().tasks().deadTasks(key, offset, count)));
  }

  /** {@code DELETE /v1/endpoints/{ns}/{endpoint}/tasks/{id}}: cancels the task. */
  public void cancelTask(Context ctx, Principal principal) {
    EndpointKey key = endpoint(ctx);
    String id = PathNames.jobId(ctx);
    JobState before = dispatch().tasks().cancel(key, id);
    ObjectNode answer = Json.object();
    answer.put("id", id);
    answer.put("status", "cancelled");
    answer.put(
        "previous_status",
        before == JobState.LEASED ? "running" : before.name().toLowerCase(Locale.ROOT));
    Responses.json(ctx, 200, answer);
  }

  /** {@code PUT /v1/callbacks/{ns}}: allowed prefixes; a new signing secret shown once. */
  public void putCallbacks(Context ctx, Principal principal) {
    String ns = PathNames.namespace(ctx);
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    JsonFields f = JsonFields.of(body, "", Set.of("allowed_prefixes", "rotate_secret"));
    List<String> prefixes = CallbackJson.prefixes(f.raw("allowed_prefixes"));
    boolean rotate = Boolean.TRUE.equals(f.optionalBoolean("rotate_secret"));
    Responses.json(ctx, 200, CallbackJson.view(dispatch().callbacks().put(ns, prefixes, rotate)));
  }

  /** {@code GET /v1/callbacks/{ns}}: the prefixes and how many secrets, never the secrets. */
  public void getCallbacks(Context ctx, Principal principal) {
    String ns = PathNames.namespace(ctx);
    Responses.json(ctx, 200, CallbackJson.view(dispatch().callbacks().view(ns)));
  }
}
