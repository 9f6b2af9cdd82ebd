package io.lineup.consumer.observation;

/**
 * The key names Lineup's observations carry, after the OpenTelemetry messaging conventions where
 * one fits (https://opentelemetry.io/docs/specs/semconv/messaging/). Low-cardinality keys become
 * metric tags and span attributes; high-cardinality ones only span attributes.
 */
public final class LineupKeyNames {
  /** Always {@value #SYSTEM_LINEUP} (low cardinality). */
  public static final String MESSAGING_SYSTEM = "messaging.system";

  /** The value of {@link #MESSAGING_SYSTEM}. */
  public static final String SYSTEM_LINEUP = "lineup";

  /** {@code publish} or {@code process} (low cardinality). */
  public static final String OPERATION_NAME = "messaging.operation.name";

  /** {@code send} for a publish, {@code process} for a job handled (low cardinality). */
  public static final String OPERATION_TYPE = "messaging.operation.type";

  /** The queue, as {@code namespace/queue} (low cardinality: bounded by the number of queues). */
  public static final String DESTINATION_NAME = "messaging.destination.name";

  /**
   * How it ended: {@code published} or {@code failed} for a publish; {@code acked}, {@code nacked},
   * {@code failed} or {@code abandoned} for a job handled (low cardinality).
   */
  public static final String OUTCOME = "lineup.outcome";

  /** The queue's namespace: the tenant; only with tenant tags on (low cardinality). */
  public static final String NAMESPACE = "lineup.namespace";

  /** The job id (high cardinality). */
  public static final String MESSAGE_ID = "messaging.message.id";

  /** Jobs published by one call, when more than one (high cardinality). */
  public static final String BATCH_MESSAGE_COUNT = "messaging.batch.message_count";

  /** Which delivery of the job this is, from 1 (high cardinality). */
  public static final String DELIVERY_ATTEMPT = "lineup.delivery.attempt";

  private LineupKeyNames() {}
}
