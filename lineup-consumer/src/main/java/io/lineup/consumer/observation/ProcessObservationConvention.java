package io.lineup.consumer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags {@code lineup.process} observations. Implement it to change them, and give it to
 * the engine's or the client's builder, or register it with the registry as a global convention;
 * {@link DefaultProcessObservationConvention} is the default.
 */
public interface ProcessObservationConvention extends ObservationConvention<ProcessContext> {
  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ProcessContext;
  }
}
