package io.lineup.consumer.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.Objects;

/**
 * The context of a {@code lineup.publish} observation: one publish call of one or more jobs to a
 * queue. A producer's context: a tracing handler injects the span's trace context through the
 * {@link TraceCarrier} into the jobs, which store it.
 */
public final class PublishContext extends SenderContext<TraceCarrier> {
  private final String namespace;
  private final String queue;
  private final int jobCount;
  private volatile String jobId;

  /**
   * A context for a publish call.
   *
   * @param carrier sets the propagated fields on the jobs being published
   * @param namespace the queue's namespace
   * @param queue the queue's name within it
   * @param jobCount how many jobs the call publishes
   */
  public PublishContext(TraceCarrier carrier, String namespace, String queue, int jobCount) {
    super((c, key, value) -> c.put(key, value), Kind.PRODUCER);
    setCarrier(Objects.requireNonNull(carrier, "carrier"));
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.queue = Objects.requireNonNull(queue, "queue");
    this.jobCount = jobCount;
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

  /** How many jobs the call publishes. */
  public int jobCount() {
    return jobCount;
  }

  /** The id of the job published, once known, for a call of one job; else null. */
  public String jobId() {
    return jobId;
  }

  /** Sets the id of the job a call of one job published. */
  public void jobId(String id) {
    this.jobId = id;
  }
}
