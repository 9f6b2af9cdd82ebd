package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.api.Names;
import io.lineup.api.ScheduleFields;
import io.lineup.core.Schedules;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleNotFoundException;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.dispatch.DispatchInputException;
import io.lineup.dispatch.EndpointKey;
import io.lineup.dispatch.EndpointSpec;
import io.lineup.dispatch.RecurringTask;
import io.lineup.dispatch.TaskSubmission;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Recurring schedules over HTTP: a queue's ({@code /v1/queues/{ns}/{queue}/schedules}), whose ticks
 * publish a job, and an endpoint's ({@code /v1/endpoints/{ns}/{endpoint}/schedules}), whose ticks
 * submit a task. An endpoint's schedule is a schedule on the endpoint's queue whose job payload is
 * the encoded task ({@link io.lineup.dispatch.Tasks#recurring}); the dispatcher sends each tick's
 * task as any other, its egress checks included. The engine ({@link Schedules}) decides in Redis
 * which server publishes a tick, so each tick makes one job however many servers run.
 */
public final class ScheduleHandlers {
  private final ApiContext api;
  private final NewJobReader reader;

  public ScheduleHandlers(ApiContext api) {
    this.api = api;
    this.reader = new NewJobReader(api.limits().maxPayloadBytes());
  }

  private Schedules schedules() {
    return api.lineup().schedules();
  }

  /**
   * The {@code {name}} of the path.
   *
   * @throws ApiException 400 {@code invalid_name} naming {@code name}
   */
  static String name(Context ctx) {
    String name = ctx.pathParam("name");
    String problem = Names.scheduleProblem(name);
    if (problem != null) {
      throw new ApiException(ErrorCode.INVALID_NAME, "name", "schedule name " + problem);
    }
    return name;
  }

  /** The 404 of a schedule that is not there. */
  static ApiException notFound(String where, String name) {
    return new ApiException(
        ErrorCode.SCHEDULE_NOT_FOUND, "name", "no schedule " + name + " in " + where);
  }

  // ---- a queue's schedules

  /** {@code PUT /v1/queues/{ns}/{queue}/schedules/{name}}: creates (201) or changes (200) it. */
  public void put(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    JsonFields f =
        ScheduleJson.fields(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), false);
    ScheduleSpec spec =
        ScheduleJson.read(name, f, builder -> ScheduleJson.job(f, reader, principal, builder));
    Optional<Schedule> before = schedules().get(queue, name);
    Schedule after =
        schedules().upsert(queue, ScheduleJson.keepingPause(f, spec, before.orElse(null)));
    Responses.json(
        ctx,
        before.isPresent() ? 200 : 201,
        ScheduleJson.view(after, history(queue, name), PayloadEncoding.of(ctx)));
  }

  /** {@code GET /v1/queues/{ns}/{queue}/schedules/{name}}: the schedule with its latest runs. */
  public void get(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    Schedule schedule =
        schedules().get(queue, name).orElseThrow(() -> notFound("queue " + queue, name));
    Responses.json(
        ctx, 200, ScheduleJson.view(schedule, history(queue, name), PayloadEncoding.of(ctx)));
  }

  /** {@code GET /v1/queues/{ns}/{queue}/schedules}: the queue's schedules, by name. */
  public void list(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("schedules");
    for (Schedule schedule : schedules().list(queue)) {
      list.addPOJO(ScheduleJson.view(schedule, history(queue, schedule.name()), encoding));
    }
    Responses.json(ctx, 200, answer);
  }

  /** {@code DELETE /v1/queues/{ns}/{queue}/schedules/{name}}: the jobs it published stay. */
  public void delete(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    if (!schedules().delete(queue, name)) {
      throw notFound("queue " + queue, name);
    }
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/queues/{ns}/{queue}/schedules/{name}/pause}. */
  public void pause(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    Schedule after = found(() -> schedules().pause(queue, name), "queue " + queue, name);
    Responses.json(
        ctx, 200, ScheduleJson.view(after, history(queue, name), PayloadEncoding.of(ctx)));
  }

  /** {@code POST /v1/queues/{ns}/{queue}/schedules/{name}/resume}. */
  public void resume(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    Schedule after = found(() -> schedules().resume(queue, name), "queue " + queue, name);
    Responses.json(
        ctx, 200, ScheduleJson.view(after, history(queue, name), PayloadEncoding.of(ctx)));
  }

  /** {@code GET /v1/queues/{ns}/{queue}/schedules/{name}/next?count=}: 1 to 100, default 5. */
  public void next(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String name = name(ctx);
    Responses.json(ctx, 200, next(ctx, queue, name, "queue " + queue));
  }

  // ---- an endpoint's schedules

  /** {@code PUT /v1/endpoints/{ns}/{endpoint}/schedules/{name}}: each tick submits the task. */
  public void putForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = DispatchHandlers.endpoint(ctx);
    String name = name(ctx);
    // An unknown endpoint is a 404 before the body is read.
    EndpointSpec endpoint = api.dispatch().endpoints().spec(key);
    JsonFields f =
        ScheduleJson.fields(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), true);
    QueueName queue = key.queue();
    ScheduleSpec spec =
        ScheduleJson.read(
            name,
            f,
            builder -> {
              TaskSubmission submission =
                  TaskJson.template(
                      f.raw(ScheduleFields.TASK),
                      endpoint,
                      principal,
                      api.dispatch().tasks().maxBodyBytes());
              RecurringTask task;
              try {
                // The last checks: the callback URL against the namespace's prefixes.
                task = api.dispatch().tasks().recurring(key, submission);
              } catch (DispatchInputException e) {
                ApiException refused =
                    new ApiException(
                        e.code(),
                        e.field() == null
                            ? ScheduleFields.TASK
                            : ScheduleFields.TASK + "." + e.field(),
                        e.getMessage());
                e.details().forEach(refused::with);
                throw refused;
              }
              builder.payload(task.payload()).priority(task.priority()).ttl(task.ttl());
            });
    Optional<Schedule> before = schedules().get(queue, name);
    Schedule after =
        schedules().upsert(queue, ScheduleJson.keepingPause(f, spec, before.orElse(null)));
    Responses.json(
        ctx,
        before.isPresent() ? 200 : 201,
        ScheduleJson.endpointView(after, key.name(), history(queue, name)));
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}/schedules/{name}}. */
  public void getForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    String name = name(ctx);
    Schedule schedule =
        schedules().get(key.queue(), name).orElseThrow(() -> notFound(where(key), name));
    Responses.json(
        ctx, 200, ScheduleJson.endpointView(schedule, key.name(), history(key.queue(), name)));
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}/schedules}. */
  public void listForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("schedules");
    for (Schedule schedule : schedules().list(key.queue())) {
      list.addPOJO(
          ScheduleJson.endpointView(schedule, key.name(), history(key.queue(), schedule.name())));
    }
    Responses.json(ctx, 200, answer);
  }

  /** {@code DELETE /v1/endpoints/{ns}/{endpoint}/schedules/{name}}: its tasks stay. */
  public void deleteForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    String name = name(ctx);
    if (!schedules().delete(key.queue(), name)) {
      throw notFound(where(key), name);
    }
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/endpoints/{ns}/{endpoint}/schedules/{name}/pause}. */
  public void pauseForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    String name = name(ctx);
    Schedule after = found(() -> schedules().pause(key.queue(), name), where(key), name);
    Responses.json(
        ctx, 200, ScheduleJson.endpointView(after, key.name(), history(key.queue(), name)));
  }

  /** {@code POST /v1/endpoints/{ns}/{endpoint}/schedules/{name}/resume}. */
  public void resumeForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    String name = name(ctx);
    Schedule after = found(() -> schedules().resume(key.queue(), name), where(key), name);
    Responses.json(
        ctx, 200, ScheduleJson.endpointView(after, key.name(), history(key.queue(), name)));
  }

  /** {@code GET /v1/endpoints/{ns}/{endpoint}/schedules/{name}/next?count=}. */
  public void nextForEndpoint(Context ctx, Principal principal) {
    EndpointKey key = knownEndpoint(ctx);
    String name = name(ctx);
    Responses.json(ctx, 200, next(ctx, key.queue(), name, where(key)));
  }

  // ---- shared

  private EndpointKey knownEndpoint(Context ctx) {
    EndpointKey key = DispatchHandlers.endpoint(ctx);
    api.dispatch().endpoints().spec(key);
    return key;
  }

  private static String where(EndpointKey key) {
    return "endpoint " + key.namespace() + "/" + key.name();
  }

  private ObjectNode next(Context ctx, QueueName queue, String name, String where) {
    int count =
        DeadLetterHandlers.queryInt(
            ctx,
            ScheduleFields.COUNT,
            1,
            ScheduleFields.MAX_NEXT_COUNT,
            ScheduleFields.DEFAULT_NEXT_COUNT);
    List<Instant> ticks = found(() -> schedules().next(queue, name, count), where, name);
    ObjectNode answer = Json.object();
    answer.put("name", name);
    ArrayNode list = answer.putArray(ScheduleFields.TICKS_AT);
    ticks.forEach(tick -> list.add(tick.toEpochMilli()));
    return answer;
  }

  /** The schedule's latest runs; none when it was deleted since it was read. */
  private List<io.lineup.core.model.ScheduleRun> history(QueueName queue, String name) {
    try {
      return schedules().history(queue, name);
    } catch (ScheduleNotFoundException e) {
      return List.of();
    }
  }

  private static <T> T found(java.util.function.Supplier<T> call, String where, String name) {
    try {
      return call.get();
    } catch (ScheduleNotFoundException e) {
      throw notFound(where, name);
    }
  }
}
