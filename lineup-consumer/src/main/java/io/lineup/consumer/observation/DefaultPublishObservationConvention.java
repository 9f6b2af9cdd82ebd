package io.lineup.consumer.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a publish: name {@value #NAME}, contextual name {@code publish
 * <namespace/queue>}; low cardinality {@code messaging.system}, {@code messaging.operation.name},
 * {@code messaging.operation.type}, {@code messaging.destination.name}, {@code lineup.outcome}
 * ({@code published} or {@code failed}) and, with tenant tags, {@code lineup.namespace}; high
 * cardinality {@code messaging.message.id} (a call of one job) or {@code
 * messaging.batch.message_count} (a call of more). See {@link LineupKeyNames}.
 */
public class DefaultPublishObservationConvention implements PublishObservationConvention {
  /** The observation's name (a timer {@code lineup.publish} with a metrics handler). */
  public static final String NAME = "lineup.publish";

  /** Without tenant tags. */
  public static final DefaultPublishObservationConvention INSTANCE =
      new DefaultPublishObservationConvention(false);

  private final boolean tenantTags;

  /**
   * A convention.
   *
   * @param tenantTags whether to tag the namespace ({@code lineup.namespace}); off by default, as
   *     it multiplies the tag combinations by the number of tenants
   */
  public DefaultPublishObservationConvention(boolean tenantTags) {
    this.tenantTags = tenantTags;
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(PublishContext context) {
    return "publish " + context.destination();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(PublishContext context) {
    KeyValues values =
        KeyValues.of(
            KeyValue.of(LineupKeyNames.MESSAGING_SYSTEM, LineupKeyNames.SYSTEM_LINEUP),
            KeyValue.of(LineupKeyNames.OPERATION_NAME, "publish"),
            KeyValue.of(LineupKeyNames.OPERATION_TYPE, "send"),
            KeyValue.of(LineupKeyNames.DESTINATION_NAME, context.destination()),
            KeyValue.of(
                LineupKeyNames.OUTCOME, context.getError() == null ? "published" : "failed"));
    return tenantTags
        ? values.and(KeyValue.of(LineupKeyNames.NAMESPACE, context.namespace()))
        : values;
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(PublishContext context) {
    if (context.jobCount() > 1) {
      return KeyValues.of(
          KeyValue.of(LineupKeyNames.BATCH_MESSAGE_COUNT, Integer.toString(context.jobCount())));
    }
    String id = context.jobId();
    return id == null ? KeyValues.empty() : KeyValues.of(LineupKeyNames.MESSAGE_ID, id);
  }
}
