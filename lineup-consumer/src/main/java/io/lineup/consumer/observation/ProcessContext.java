package io.lineup.consumer.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Map;
import java.util.Objects;

/**
 * The context of a {@code lineup.process} observation: one leased job run by a worker's handler. A
 * consumer's context: a tracing handler extracts the trace context stored with the job, so the
 * consumer span continues the producer's trace.
 */
public final class ProcessContext extends ReceiverContext<Map<String, String>> {
  private final String namespace;
  private final String queue;
  private final String jobId;
  private final int attempt;
  private volatile ProcessOutcome outcome;

  /**
   * A context for one job handled.
   *
   * @param traceFields the job's stored propagation fields ({@code traceparent}, {@code
   *     tracestate}); empty when it has none
   * @param namespace the queue's namespace
   * @param queue the queue's name within it
   * @param jobId the job's id
   * @param attempt which delivery this is, from 1 (0 when unknown)
   */
  public ProcessContext(
      Map<String, String> traceFields, String namespace, String queue, String jobId, int attempt) {
    super(Map::get, Kind.CONSUMER);
    setCarrier(Objects.requireNonNull(traceFields, "traceFields"));
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.queue = Objects.requireNonNull(queue, "queue");
    this.jobId = Objects.requireNonNull(jobId, "jobId");
    this.attempt = attempt;
  }

  /** The queue's namespace. */
  public String namespace() {
    return namespace;
  }

  /** The queue's name within its namespace. */
  public String queue() {
    return queue;
  }

  /** The queue as {@code namespace/queue}: the messaging destination. */
  public String destination() {
    return namespace + "/" + queue;
  }

  /** The job's id. */
  public String jobId() {
    return jobId;
  }

  /** Which delivery this is, from 1 (0 when unknown). */
  public int attempt() {
    return attempt;
  }

  /** How the job ended, or null while its handler runs. */
  public ProcessOutcome outcome() {
    return outcome;
  }

  /** Sets how the job ended, before the observation stops. */
  public void outcome(ProcessOutcome value) {
    this.outcome = value;
  }
}
