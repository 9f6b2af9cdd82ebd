package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.resource.Endpoint;
import io.lineup.api.resource.Task;
import io.lineup.api.resource.TaskStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * API dispatch ({@code /v1/endpoints}): endpoints that Lineup calls at their rate and concurrency,
 * and the tasks callers hand it. Get it from {@link LineupClient#dispatch()}.
 *
 * <pre>{@code
 * DispatchClient dispatch = client.dispatch();
 * EndpointName images = EndpointName.of("shop", "images");
 * dispatch.putEndpoint(images, EndpointSettings.of("https://render.example/api").rate(300, Duration.ofSeconds(1)));
 * Task task = dispatch.submit(images, NewTask.post("/render").jsonBody("{}")).task();
 * Task done = dispatch.task(images, task.id(), Duration.ofSeconds(30)); // waits for its end
 * }</pre>
 */
public final class DispatchClient {
  /** Longest wait of one {@link #task(EndpointName, String, Duration)}, as the server allows. */
  public static final Duration MAX_TASK_WAIT = Duration.ofMillis(300_000);

  private final Transport transport;
  private final Duration requestTimeout;

  DispatchClient(Transport transport, Duration requestTimeout) {
    this.transport = transport;
    this.requestTimeout = requestTimeout;
  }

  private static String endpointPath(EndpointName endpoint) {
    return "/v1/endpoints/"
        + Transport.segment(endpoint.namespace())
        + "/"
        + Transport.segment(endpoint.name());
  }

  private static String taskPath(EndpointName endpoint, String id) {
    return endpointPath(endpoint) + "/tasks/" + Transport.segment(Objects.requireNonNull(id, "id"));
  }

  // ---- endpoints

  /**
   * Creates or replaces an endpoint (scope {@code manage}); every server instance follows the
   * change within a second.
   *
   * @return the endpoint as stored
   * @throws InvalidRequestException when a setting is out of range ({@link
   *     LineupClientException#field()} names it)
   * @throws ForbiddenException when the token may not manage the namespace
   */
  public Endpoint putEndpoint(EndpointName endpoint, EndpointSettings settings) {
    return Json.read(
        transport.put(endpointPath(endpoint), settings.toJson()).body(), Endpoint.class);
  }

  /**
   * An endpoint with its breaker state and task counts (scope {@code manage}).
   *
   * @throws NotFoundException when there is no such endpoint
   */
  public Endpoint endpoint(EndpointName endpoint) {
    return Json.read(transport.get(endpointPath(endpoint)).body(), Endpoint.class);
  }

  /** The endpoints of a namespace (scope {@code manage}). */
  public List<Endpoint> endpoints(String namespace) {
    List<Endpoint> list = new ArrayList<>();
    transport
        .get("/v1/endpoints/" + Transport.segment(namespace))
        .body()
        .path("endpoints")
        .forEach(item -> list.add(Json.read(item, Endpoint.class)));
    return List.copyOf(list);
  }

  /**
   * Deletes an endpoint (scope {@code manage}): its dispatchers stop; its queued tasks stay in its
   * queue.
   *
   * @throws NotFoundException when there is no such endpoint
   */
  public void deleteEndpoint(EndpointName endpoint) {
    transport.delete(endpointPath(endpoint));
  }

  /**
   * Pauses an endpoint (scope {@code manage}): its tasks are accepted and none is sent until it is
   * resumed.
   *
   * @return the endpoint as stored afterwards ({@code paused} true)
   * @throws NotFoundException when there is no such endpoint
   */
  public Endpoint pauseEndpoint(EndpointName endpoint) {
    return Json.read(
        transport.post(endpointPath(endpoint) + "/pause", null).body(), Endpoint.class);
  }

  /**
   * Resumes an endpoint (scope {@code manage}).
   *
   * @return the endpoint as stored afterwards ({@code paused} false)
   * @throws NotFoundException when there is no such endpoint
   * @throws ServerErrorException with code {@code circuit_open} (409) while its circuit breaker is
   *     open or half open: nothing changed; {@link #resetCircuit} resumes it
   */
  public Endpoint resumeEndpoint(EndpointName endpoint) {
    return Json.read(
        transport.post(endpointPath(endpoint) + "/resume", null).body(), Endpoint.class);
  }

  /**
   * Closes an endpoint's circuit breaker and clears its count of failures (scope {@code manage});
   * its tasks are sent again unless the endpoint itself is paused.
   *
   * @return the endpoint as stored afterwards
   * @throws NotFoundException when there is no such endpoint
   */
  public Endpoint resetCircuit(EndpointName endpoint) {
    return Json.read(
        transport.post(endpointPath(endpoint) + "/circuit/reset", null).body(), Endpoint.class);
  }

  // ---- tasks

  /**
   * Submits a task (scope {@code publish}): Lineup sends it when its turn comes, within the
   * endpoint's rate and concurrency.
   *
   * @return the task, and whether it was created now or found by its idempotency key
   * @throws NotFoundException when there is no such endpoint
   * @throws InvalidRequestException when a field is refused (the field names it); nothing is queued
   * @throws ForbiddenException when the priority is above the token's maximum ({@code
   *     priority_not_allowed})
   * @throws PayloadTooLargeException when the body is over the server's limit
   */
  public TaskSubmission submit(EndpointName endpoint, NewTask task) {
    Transport.Reply reply = transport.post(endpointPath(endpoint) + "/tasks", task.toJson());
    return new TaskSubmission(reply.status() == 202, Json.read(reply.body(), Task.class));
  }

  /**
   * The task as it stands now: status, position, ETA, attempts, and once it ended the response
   * (scope {@code publish} or {@code manage}).
   *
   * @throws NotFoundException when there is no such task (or its record was dropped)
   */
  public Task task(EndpointName endpoint, String id) {
    return Json.read(transport.get(taskPath(endpoint, id)).body(), Task.class);
  }

  /**
   * The task once it ended, or as it stands after {@code wait} (a long-poll: the answer comes as
   * soon as it ends).
   *
   * @param wait 0 to {@link #MAX_TASK_WAIT}; millisecond precision
   * @throws IllegalArgumentException when the wait is out of range
   * @throws NotFoundException when there is no such task
   */
  public Task task(EndpointName endpoint, String id, Duration wait) {
    if (wait.isNegative() || wait.compareTo(MAX_TASK_WAIT) > 0) {
      throw new IllegalArgumentException("a task read waits 0 to 300 s; got " + wait);
    }
    JsonNode body =
        transport
            .send(
                "GET",
                taskPath(endpoint, id) + "?wait_ms=" + wait.toMillis(),
                null,
                wait.plus(requestTimeout))
            .body();
    return Json.read(body, Task.class);
  }

  /**
   * Cancels a task (scope {@code publish} or {@code manage}): a queued task is never sent, a
   * running one has its request aborted and its result discarded.
   *
   * @throws NotFoundException when there is no such task
   * @throws JobFinishedException when it had ended already
   */
  public TaskCancelResult cancel(EndpointName endpoint, String id) {
    JsonNode body = transport.delete(taskPath(endpoint, id)).body();
    String previous = Json.text(body, "previous_status");
    // The server names the state a waiting task was in (ready, delayed); for a caller it was
    // queued.
    return new TaskCancelResult(
        Json.text(body, "id"), "running".equals(previous) ? TaskStatus.RUNNING : TaskStatus.QUEUED);
  }

  // ---- callbacks

  /**
   * Sets the URL prefixes a task's callback URL may start with in a namespace (scope {@code
   * manage}); a namespace without prefixes refuses every callback URL. The first call makes the
   * namespace's signing secret and answers it: the only time it is shown.
   *
   * @param prefixes 1 to 32 http(s) URLs with a host and a path starting with {@code /}
   * @param rotateSecret true to make a new signing secret (the previous one keeps signing too)
   * @return the new signing secret ({@code whsec_...}) when one was made, else null
   * @throws InvalidRequestException when a prefix is refused
   */
  public String allowCallbacks(String namespace, List<String> prefixes, boolean rotateSecret) {
    com.fasterxml.jackson.databind.node.ObjectNode body = Json.object();
    com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray("allowed_prefixes");
    prefixes.forEach(list::add);
    if (rotateSecret) {
      body.put("rotate_secret", true);
    }
    return Json.text(
        transport.put("/v1/callbacks/" + Transport.segment(namespace), body).body(), "secret");
  }
}
