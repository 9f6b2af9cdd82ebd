package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.AckOutcome;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.Limits;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.NackResult;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.Principal;
import io.lineup.server.consumers.ConsumerActivity;
import io.lineup.server.consumers.ConsumerNames;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.DisconnectWatch;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Lease jobs (long-polling), and ack, nack or extend them. */
public final class LeaseHandlers {
  /** Longest lease token read, in characters. */
  static final int MAX_TOKEN_LENGTH = 64;

  private static final Set<String> LEASE_FIELDS = Set.of("count", "wait_ms", "consumer");
  private static final Set<String> ACK_FIELDS = Set.of("token", "result");
  private static final Set<String> ACKS_FIELDS = Set.of("acks");
  private static final Set<String> ACKS_ITEM_FIELDS = Set.of("id", "token", "result");
  private static final Set<String> NACK_FIELDS = Set.of("token", "error", "retry_delay_ms");
  private static final Set<String> EXTEND_FIELDS = Set.of("token", "ttr_ms");

  private static final Logger LOG = LoggerFactory.getLogger(LeaseHandlers.class);

  private final ApiContext api;

  public LeaseHandlers(ApiContext api) {
    this.api = api;
  }

  /**
   * {@code POST /v1/queues/{ns}/{queue}/leases}: 200 with jobs, 204 when none came within {@code
   * wait_ms}, 429 when a rate or concurrency limit refused.
   */
  public void lease(Context ctx, Principal principal) {
    List<QueueName> queues = PathNames.publicQueues(ctx);
    PayloadEncoding encoding = PayloadEncoding.of(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), false), "", LEASE_FIELDS);
    int count = (int) f.longOr("count", 1, Limits.MAX_BATCH, 1);
    long waitMs = f.longOr("wait_ms", 0, Limits.MAX_WAIT_MS, 0);
    String given = f.optionalText("consumer", ConsumerNames.MAX_LENGTH);
    String consumer =
        given != null
            ? ConsumerNames.checked("consumer", given)
            : ConsumerNames.derived(principal, ctx.ip());
    if (api.state().draining().isOn()) {
      Responses.noContent(ctx);
      return;
    }
    Leases leases;
    ConsumerActivity consumers = api.state().consumers();
    consumers.waitStarted(queues, consumer);
    try {
      leases =
          waitMs == 0
              ? api.lineup().lease(queues, count, Duration.ZERO)
              : leaseWatched(ctx, queues, count, waitMs);
    } finally {
      consumers.waitEnded(queues, consumer);
    }
    if (leases == null) {
      Responses.noContent(ctx);
      return;
    }
    if (waitMs > 0 && !leases.isEmpty()) {
      requireStillIssued(principal, leases);
    }
    recordLeased(consumer, leases);
    answer(ctx, leases, encoding);
  }

  /** Counts the jobs leased for the consumer and records it as their holder, per queue. */
  private void recordLeased(String consumer, Leases leases) {
    Map<QueueName, Map<String, String>> byQueue = new LinkedHashMap<>();
    for (LeasedJob job : leases.jobs()) {
      byQueue.computeIfAbsent(job.queue(), q -> new LinkedHashMap<>()).put(job.id(), job.token());
    }
    byQueue.forEach((queue, jobs) -> api.state().consumers().leased(queue, consumer, jobs));
  }

  /**
   * The token was checked when the long-poll began; it may have been revoked during the wait. Jobs
   * leased for a revoked token are handed back rather than answered.
   *
   * @throws ApiException 401 when the token was revoked
   */
  private void requireStillIssued(Principal principal, Leases leases) {
    if (principal.admin()) {
      return; // The admin token is configured, not stored: it cannot be revoked at run time.
    }
    boolean issued;
    try {
      issued = api.auth().tokens().isIssued(principal.tokenId());
    } catch (RuntimeException e) {
      handBack(leases.jobs());
      throw e;
    }
    if (!issued) {
      handBack(leases.jobs());
      throw new ApiException(
          ErrorCode.UNAUTHORIZED, null, "the token was revoked while this lease waited");
    }
  }

  /**
   * A lease that may wait, ended early when the client goes away or the server stops.
   *
   * @return the leases, or null when the wait was ended early without a job
   */
  private Leases leaseWatched(Context ctx, List<QueueName> queues, int count, long waitMs) {
    try (DisconnectWatch watch = DisconnectWatch.start(ctx, waitMs, api.state().waiters())) {
      if (watch.cause() != DisconnectWatch.Cause.NONE) {
        return null; // The shutdown began between the draining check and the watch's start.
      }
      Leases leases;
      try {
        leases = api.lineup().lease(queues, count, Duration.ofMillis(waitMs));
      } catch (LineupException e) {
        if (watch.cause() != DisconnectWatch.Cause.NONE) {
          return null; // The engine ended the wait without taking a job.
        }
        throw e;
      }
      if (watch.cause() == DisconnectWatch.Cause.CLIENT_GONE && !leases.isEmpty()) {
        handBack(leases.jobs());
        return null;
      }
      if (watch.mustCloseConnection()) {
        ctx.header("Connection", "close");
      }
      return leases;
    }
  }

  /**
   * Puts back jobs leased for a client that went away as they came: released to their place in
   * line, the attempt not counted, so the next consumer gets them at once.
   */
  private void handBack(List<LeasedJob> jobs) {
    for (LeasedJob job : jobs) {
      try {
        api.lineup().release(job);
      } catch (RuntimeException e) {
        LOG.warn("Could not hand back job {} of {}: {}", job.id(), job.queue(), e.getMessage());
      }
    }
  }

  private void answer(Context ctx, Leases leases, PayloadEncoding encoding) {
    if (!leases.isEmpty()) {
      api.state().metrics().recordLeased(leases.jobs());
      Responses.json(
          ctx,
          200,
          Map.of("jobs", leases.jobs().stream().map(job -> Views.leased(job, encoding)).toList()));
      return;
    }
    if (leases.refusal() == Leases.Refusal.RATE_LIMITED
        || leases.refusal() == Leases.Refusal.CONCURRENCY_LIMITED) {
      // Rounded up: a retry at the whole ms below would come before the window opens.
      long retryMs = Math.max(1, (leases.retryAfter().toNanos() + 999_999) / 1_000_000);
      boolean rate = leases.refusal() == Leases.Refusal.RATE_LIMITED;
      throw new ApiException(
              rate ? ErrorCode.RATE_LIMITED : ErrorCode.CONCURRENCY_LIMITED,
              null,
              (rate ? "the queue's rate limit" : "the queue's concurrency limit")
                  + " allows no lease now; retry in "
                  + retryMs
                  + " ms")
          .with("retry_after_ms", retryMs)
          .header("Retry-After", Long.toString((retryMs + 999) / 1000));
    }
    Responses.noContent(ctx);
  }

  /** {@code POST .../jobs/{id}/ack}: 204. */
  public void ack(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", ACK_FIELDS);
    String token = f.requiredText("token", MAX_TOKEN_LENGTH);
    JsonNode result = f.has("result") ? f.raw("result") : null;
    byte[] bytes = result == null ? null : Json.write(result);
    if (bytes != null && bytes.length > Limits.MAX_RESULT_BYTES) {
      throw new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          "result",
          "the result is " + bytes.length + " bytes, over the limit of " + Limits.MAX_RESULT_BYTES);
    }
    api.lineup().ack(queue, id, token, bytes);
    api.state().metrics().recordSettled(token, "acked");
    api.state()
        .consumers()
        .acked(queue, Map.of(id, token), ConsumerNames.derived(principal, ctx.ip()));
    Responses.noContent(ctx);
  }

  /**
   * {@code POST .../acks}: acknowledges 1 to {@link Limits#MAX_BATCH} leased jobs of the queue in
   * one engine call; 200 with one outcome per ack, in order. A lost lease or an unknown job fails
   * only its own ack (its outcome carries the error body {@code ack} would have answered); bad
   * input refuses the whole request with 400 and acknowledges nothing.
   */
  public void ackAll(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    JsonFields body =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", ACKS_FIELDS);
    JsonNode items = body.raw("acks");
    if (items == null || !items.isArray() || items.isEmpty() || items.size() > Limits.MAX_BATCH) {
      throw ApiException.invalidField(
          "acks",
          "is required: an array of 1 to "
              + Limits.MAX_BATCH
              + " acks {id, token, result}"
              + (items != null && items.isArray() ? ", got " + items.size() : ""));
    }
    List<AckRequest> acks = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      JsonFields f = JsonFields.of(items.get(i), "acks[" + i + "]", ACKS_ITEM_FIELDS);
      String id = f.requiredText("id", Limits.MAX_ID_LENGTH);
      if (!PathNames.isJobId(id)) {
        throw new ApiException(ErrorCode.INVALID_NAME, f.path("id"), PathNames.JOB_ID_RULE);
      }
      String token = f.requiredText("token", MAX_TOKEN_LENGTH);
      JsonNode result = f.has("result") ? f.raw("result") : null;
      byte[] bytes = result == null ? null : Json.write(result);
      if (bytes != null && bytes.length > Limits.MAX_RESULT_BYTES) {
        throw new ApiException(
            ErrorCode.PAYLOAD_TOO_LARGE,
            f.path("result"),
            "the result is "
                + bytes.length
                + " bytes, over the limit of "
                + Limits.MAX_RESULT_BYTES);
      }
      acks.add(new AckRequest(id, token, bytes));
    }
    List<AckOutcome> outcomes = api.lineup().ackAll(queue, acks);
    ObjectNode answer = Json.object();
    ArrayNode results = answer.putArray("results");
    int acked = 0;
    Map<String, String> settled = new LinkedHashMap<>();
    for (int i = 0; i < outcomes.size(); i++) {
      AckOutcome outcome = outcomes.get(i);
      ObjectNode item = results.addObject();
      item.put("id", outcome.id());
      item.put("acked", outcome.acked());
      if (outcome.acked()) {
        acked++;
        api.state().metrics().recordSettled(acks.get(i).token(), "acked");
        settled.put(outcome.id(), acks.get(i).token());
      } else {
        item.set("error", ErrorMapper.body(ErrorMapper.toApiException(outcome.failure())));
      }
    }
    answer.put("acked", acked);
    api.state().consumers().acked(queue, settled, ConsumerNames.derived(principal, ctx.ip()));
    Responses.json(ctx, 200, answer);
  }

  /** {@code POST .../jobs/{id}/nack}: 200 with where the job went. */
  public void nack(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", NACK_FIELDS);
    String token = f.requiredText("token", MAX_TOKEN_LENGTH);
    String error = f.optionalText("error", Integer.MAX_VALUE);
    Long retryDelay = f.optionalLong("retry_delay_ms", 0, Limits.MAX_DELAY_MS);
    NackResult result =
        api.lineup()
            .nack(
                queue, id, token, error, retryDelay == null ? null : Duration.ofMillis(retryDelay));
    api.state().metrics().recordSettled(token, "nacked");
    ObjectNode answer = Json.object();
    answer.put("state", result.state().name());
    answer.put("due_at", result.dueAt() == null ? null : result.dueAt().toEpochMilli());
    Responses.json(ctx, 200, answer);
  }

  /** {@code POST .../jobs/{id}/extend}: 200 with the new deadline. */
  public void extend(Context ctx, Principal principal) {
    QueueName queue = PathNames.publicQueue(ctx);
    String id = PathNames.jobId(ctx);
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", EXTEND_FIELDS);
    String token = f.requiredText("token", MAX_TOKEN_LENGTH);
    Long ttr = f.optionalLong("ttr_ms", Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    Instant deadline =
        api.lineup().extend(queue, id, token, ttr == null ? null : Duration.ofMillis(ttr));
    ObjectNode answer = Json.object();
    answer.put("lease_deadline_at", deadline.toEpochMilli());
    Responses.json(ctx, 200, answer);
  }
}
