package io.lineup.client;

import com.fasterxml.jackson.databind.node.TextNode;
import io.lineup.api.TraceContext;
import io.lineup.api.resource.LeasedJob;
import io.lineup.consumer.Failure;
import io.lineup.consumer.IdleWait;
import io.lineup.consumer.LeaseCall;
import io.lineup.consumer.LeaseReply;
import io.lineup.consumer.LeaseSource;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.observation.ProcessContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A server's side of a consumer loop over HTTP: long-polls the lease route of one queue (answered
 * at once when a job is ready; a refusal by a queue limit advises the time the server names), and
 * acks, nacks and extends each job with one call. A job given back is nacked with no retry delay,
 * so another consumer gets it at once (the HTTP API has no release route, so that delivery counts
 * as an attempt).
 *
 * <p>The times a lease has left are read against this machine's clock, which is assumed to be
 * within a fraction of the jobs' time-to-run of the Redis server's.
 */
public final class RemoteLeaseSource implements LeaseSource<LeasedJob> {
  private final LineupClient client;
  private final QueueName queue;
  private final Duration wait;

  /**
   * A source of jobs of one queue.
   *
   * @param client the server's client
   * @param queue the queue to lease from
   * @param wait how long one lease call waits for a job (up to {@link LineupClient#MAX_LEASE_WAIT})
   */
  public RemoteLeaseSource(LineupClient client, QueueName queue, Duration wait) {
    this.client = client;
    this.queue = queue;
    this.wait = wait;
  }

  /** Long-polls for up to {@code count} jobs (at most {@link LineupClient#MAX_BATCH}). */
  @Override
  public LeaseCall<LeasedJob> lease(int count) {
    if (count <= 0) {
      return null;
    }
    try {
      List<LeasedJob> jobs = client.lease(queue, count, wait);
      return LeaseCall.answered(count, LeaseReply.of(jobs));
    } catch (LeaseRefusedException refused) {
      return LeaseCall.answered(count, new LeaseReply<>(List.of(), refused.retryAfter()));
    }
  }

  /** The lease calls wait for jobs themselves: an empty answer calls again at once. */
  @Override
  public IdleWait openIdleWait() {
    return IdleWait.advisedOnly();
  }

  @Override
  public String id(LeasedJob job) {
    return job.id();
  }

  @Override
  public Duration leaseLeft(LeasedJob job) {
    return untilNow(job.leaseDeadlineAt());
  }

  @Override
  public Duration extend(LeasedJob job) {
    return untilNow(client.extend(job, null).toEpochMilli());
  }

  private static Duration untilNow(long epochMillis) {
    return Duration.ofMillis(Math.max(0, epochMillis - System.currentTimeMillis()));
  }

  @Override
  public void ack(LeasedJob job, byte[] result) {
    client.ack(job, resultJson(result));
  }

  /** Nacks the job, after the delay a {@link RetryLaterException} names. */
  @Override
  public void fail(LeasedJob job, Throwable error) {
    Duration delay = error instanceof RetryLaterException later ? later.delay() : null;
    client.nack(job, String.valueOf(error), delay);
  }

  @Override
  public void giveBack(LeasedJob job) {
    client.nack(job, "the worker closed before the handler finished", Duration.ZERO);
  }

  /** The job's queue, id, attempt and the trace context the server returned with it. */
  @Override
  public ProcessContext processContext(LeasedJob job) {
    Map<String, String> fields = new HashMap<>(2);
    if (job.traceparent() != null) {
      fields.put(TraceContext.TRACEPARENT, job.traceparent());
      if (job.tracestate() != null) {
        fields.put(TraceContext.TRACESTATE, job.tracestate());
      }
    }
    return new ProcessContext(fields, queue.namespace(), queue.name(), job.id(), job.attempt());
  }

  @Override
  public Failure classify(RuntimeException error) {
    if (error instanceof LeaseLostException || error instanceof NotFoundException) {
      return Failure.LOST;
    }
    if (error instanceof ServerUnreachableException
        || error instanceof ServiceUnavailableException) {
      return Failure.UNAVAILABLE;
    }
    return Failure.REFUSED;
  }

  /**
   * A handler's result as the JSON the ack route keeps: JSON as it is, other text as a JSON string.
   *
   * @param result the handler's result, or null
   * @return the JSON, or null for none
   */
  public static String resultJson(byte[] result) {
    if (result == null) {
      return null;
    }
    if (Json.isJson(result)) {
      return new String(result, StandardCharsets.UTF_8);
    }
    return Json.write(TextNode.valueOf(new String(result, StandardCharsets.UTF_8)));
  }
}
