package io.lineup.consumer.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a job handled: name {@value #NAME}, contextual name {@code process
 * <namespace/queue>}; low cardinality {@code messaging.system}, {@code messaging.operation.name},
 * {@code messaging.operation.type}, {@code messaging.destination.name}, {@code lineup.outcome}
 * ({@link ProcessOutcome}) and, with tenant tags, {@code lineup.namespace}; high cardinality {@code
 * messaging.message.id} and {@code lineup.delivery.attempt}. See {@link LineupKeyNames}.
 */
public class DefaultProcessObservationConvention implements ProcessObservationConvention {
  /** The observation's name (a timer {@code lineup.process} with a metrics handler). */
  public static final String NAME = "lineup.process";

  /** Without tenant tags. */
  public static final DefaultProcessObservationConvention INSTANCE =
      new DefaultProcessObservationConvention(false);

  private final boolean tenantTags;

  /**
   * A convention.
   *
   * @param tenantTags whether to tag the namespace ({@code lineup.namespace}); off by default, as
   *     it multiplies the tag combinations by the number of tenants
   */
  public DefaultProcessObservationConvention(boolean tenantTags) {
    this.tenantTags = tenantTags;
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(ProcessContext context) {
    return "process " + context.destination();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ProcessContext context) {
    ProcessOutcome outcome = context.outcome();
    // The tag is there from the start, so every timer of the name has the same keys.
    KeyValues values =
        KeyValues.of(
            KeyValue.of(LineupKeyNames.MESSAGING_SYSTEM, LineupKeyNames.SYSTEM_LINEUP),
            KeyValue.of(LineupKeyNames.OPERATION_NAME, "process"),
            KeyValue.of(LineupKeyNames.OPERATION_TYPE, "process"),
            KeyValue.of(LineupKeyNames.DESTINATION_NAME, context.destination()),
            KeyValue.of(LineupKeyNames.OUTCOME, outcome == null ? "running" : outcome.tag()));
    return tenantTags
        ? values.and(KeyValue.of(LineupKeyNames.NAMESPACE, context.namespace()))
        : values;
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ProcessContext context) {
    return KeyValues.of(
        KeyValue.of(LineupKeyNames.MESSAGE_ID, context.jobId()),
        KeyValue.of(LineupKeyNames.DELIVERY_ATTEMPT, Integer.toString(context.attempt())));
  }
}
