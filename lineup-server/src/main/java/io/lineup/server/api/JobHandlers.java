package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.TraceContext;
import io.lineup.core.model.Durability;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.RequestBody;
import java.util.List;

/** Publish, read and cancel jobs. */
public final class JobHandlers {
  private final ApiContext api;
  private final NewJobReader reader;

  /** The publish body's field read as compact text (the payload): see {@link #publish}. */
  public static final String PAYLOAD_FIELD = NewJobReader.PAYLOAD;

  public JobHandlers(ApiContext api) {
    this.api = api;
    this.reader = new NewJobReader(api.limits().maxPayloadBytes());
  }

  /**
   * {@code POST /v1/queues/{ns}/{queue}/jobs}: one job (an object) or many (an array); {@code
   * ?durable_replicas=&durable_timeout_ms=} ask for replicas ({@link DurabilityQuery}).
   */
  public void publish(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    Durability durability = DurabilityQuery.read(ctx);
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true, PAYLOAD_FIELD);
    Responses.jsonText(
        ctx, 201, publish(queue, durability, body, principal, TraceHeaders.of(ctx::header)));
  }

  /**
   * {@code POST /v1/queues/{ns}/{queue}/jobs} on the server's core lane (no query): answers as
   * {@link #publish(Context, Principal)} does.
   */
  public LaneAction.Answer publishOnLane(
      String ns, String queue, LaneAction.Body body, Principal principal) {
    QueueName name = PathNames.publicQueue(PathNames.namespace(ns), queue);
    return new LaneAction.Answer(
        201,
        publish(name, null, body.json(PAYLOAD_FIELD), principal, TraceHeaders.of(body::header)));
  }

  /**
   * Publishes what a request asks for, however it came in (the route above, or the server's core
   * lane, which serves this route without the servlet layer).
   *
   * @param queue the path's queue, checked
   * @param durability the replicas asked for in the query, or null for the queue's setting
   * @param body the request body: one job (an object) or many (an array), its payloads read as
   *     compact text ({@link RequestBody#parse(byte[], boolean, String)} with {@link
   *     #PAYLOAD_FIELD})
   * @param principal who called
   * @param trace the trace context of the request's {@code traceparent} and {@code tracestate}
   *     headers, given to every job of the body; null when absent or invalid (the W3C says a
   *     receiver restarts the trace then, so an invalid header is ignored, not refused)
   * @return the answer's body, JSON text sent with status 201: the job's view, or an array of them
   *     when the body is an array
   * @throws ApiException 4xx for bad input; engine exceptions as {@link
   *     io.lineup.server.http.ErrorMapper} maps them
   */
  public byte[] publish(
      QueueName queue,
      Durability durability,
      JsonNode body,
      Principal principal,
      TraceContext trace) {
    List<NewJob> jobs = reader.read(body, principal);
    if (trace != null) {
      for (NewJob job : jobs) {
        job.traceparent(trace.traceparent()).tracestate(trace.tracestate());
      }
    }
    api.archive().beforePublish(queue);
    List<PublishResult> results =
        durability == null
            ? api.lineup().publishAll(queue, jobs)
            : api.lineup().publishAll(queue, jobs, durability);
    return answer(body.isArray(), results);
  }

  /** The publish's answer: the job's view, or an array of them when the body was an array. */
  private static byte[] answer(boolean many, List<PublishResult> results) {
    if (!many) {
      return Json.write(Views.published(results.get(0)));
    }
    return Json.write(results.stream().map(Views::published).toList());
  }

  /** {@code GET /v1/queues/{ns}/{queue}/jobs/{id}}. */
  public void get(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    // Redis first; a job whose record is gone is answered from the archive (when it is on).
    JobInfo job =
        api.archive()
            .find(queue, id)
            .orElseThrow(() -> ApiException.notFound("no job " + id + " in queue " + queue));
    Responses.json(ctx, 200, Views.job(job, encoding));
  }

  /** {@code DELETE /v1/queues/{ns}/{queue}/jobs/{id}}: cancels the job. */
  public void cancel(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    JobState before = api.lineup().cancel(queue, id);
    ObjectNode answer = Json.object();
    answer.put("id", id);
    answer.put("state", JobState.CANCELLED.name());
    answer.put("previous_state", before.name());
    Responses.json(ctx, 200, answer);
  }
}
