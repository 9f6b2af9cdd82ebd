package io.lineup.consumer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags {@code lineup.publish} observations. Implement it to change them, and give it to
 * the engine's or the client's builder, or register it with the registry as a global convention;
 * {@link DefaultPublishObservationConvention} is the default.
 */
public interface PublishObservationConvention extends ObservationConvention<PublishContext> {
  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof PublishContext;
  }
}
