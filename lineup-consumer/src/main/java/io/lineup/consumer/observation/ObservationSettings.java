package io.lineup.consumer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Where and how Lineup's observations go: the registry ({@link ObservationRegistry#NOOP} by
 * default: nothing is measured and no context is made), whether they carry the tenant tag, and
 * conventions that replace the defaults.
 *
 * @param registry the registry the observations are made in
 * @param tenantTags whether the default conventions tag the namespace ({@code lineup.namespace})
 * @param publishConvention replaces the default publish convention, or null
 * @param processConvention replaces the default process convention, or null
 */
public record ObservationSettings(
    ObservationRegistry registry,
    boolean tenantTags,
    PublishObservationConvention publishConvention,
    ProcessObservationConvention processConvention) {
  /** No registry: nothing observed. */
  public static final ObservationSettings NOOP =
      new ObservationSettings(ObservationRegistry.NOOP, false, null, null);

  /**
   * Checks the registry.
   *
   * @throws NullPointerException when the registry is null
   */
  public ObservationSettings {
    Objects.requireNonNull(registry, "registry");
  }

  /** Settings of this registry, without tenant tags, with the default conventions. */
  public static ObservationSettings of(ObservationRegistry registry) {
    return new ObservationSettings(registry, false, null, null);
  }

  /** Whether anything is observed: false for the no-op registry, so callers skip every context. */
  public boolean enabled() {
    return !registry.isNoop();
  }

  /** A publish observation, not started, for this context. */
  public Observation publish(PublishContext context) {
    return Observation.createNotStarted(
        publishConvention,
        tenantTags
            ? new DefaultPublishObservationConvention(true)
            : DefaultPublishObservationConvention.INSTANCE,
        () -> context,
        registry);
  }

  /** A process observation, not started, for this context. */
  public Observation process(ProcessContext context) {
    return Observation.createNotStarted(
        processConvention,
        tenantTags
            ? new DefaultProcessObservationConvention(true)
            : DefaultProcessObservationConvention.INSTANCE,
        () -> context,
        registry);
  }
}
