package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.testing.RedisServerExtension;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The application's {@link ObservationRegistry} reaches the embedded engine: publishes and handled
 * jobs are observed in it, only when it exists and the property leaves it on, with the tenant tag
 * only when asked, and the application's own customizers still have the last word. (Client mode:
 * {@link ClientModeTest}.) No tracer is on this module's test class path: the registries here
 * record observations and make no spans, as in an application without Micrometer Tracing.
 */
class ObservationTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final String NAMESPACE = RedisServerExtension.uniqueName("observed");
  static final String QUEUE = NAMESPACE + "/greet";

  /** Where the tests without a handler publish, so no other test's handler sees their jobs. */
  static final String UNHANDLED = NAMESPACE + "/unhandled";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LineupAutoConfiguration.class))
          .withPropertyValues(
              "lineup.redis.url=" + redis.uri(),
              "lineup.worker.idle-wait=1s",
              "lineup.worker.shutdown-grace=1s",
              "test.queue=" + QUEUE);

  static class Greeter {
    final List<String> greeted = new CopyOnWriteArrayList<>();

    @LineupHandler(queue = "${test.queue}")
    public void greet(String name) {
      greeted.add(name);
    }
  }

  @Test
  void withARegistryBeanAPublishAndTheJobItsHandlerRanAreObserved() {
    runner
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withBean(Greeter.class)
        .run(context -> {
          TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
          context
              .getBean(LineupPublisher.class)
              .publish(QUEUE, "ada", PublishOptions.defaults().withId("hello-ada"));

          await()
              .atMost(Duration.ofSeconds(20))
              .untilAsserted(() ->
                  TestObservationRegistryAssert.assertThat(registry)
                      .hasObservationWithNameEqualTo("lineup.process")
                      .that()
                      .hasBeenStopped());
          TestObservationRegistryAssert.assertThat(registry)
              .hasObservationWithNameEqualTo("lineup.publish")
              .that()
              .hasBeenStopped()
              .hasContextualNameEqualTo("publish " + QUEUE)
              .hasLowCardinalityKeyValue("messaging.destination.name", QUEUE)
              .hasLowCardinalityKeyValue("lineup.outcome", "published")
              .hasHighCardinalityKeyValue("messaging.message.id", "hello-ada")
              .doesNotHaveLowCardinalityKeyValueWithKey("lineup.namespace");
          TestObservationRegistryAssert.assertThat(registry)
              .hasObservationWithNameEqualTo("lineup.process")
              .that()
              .hasContextualNameEqualTo("process " + QUEUE)
              .hasLowCardinalityKeyValue("messaging.destination.name", QUEUE)
              .hasLowCardinalityKeyValue("lineup.outcome", "acked")
              .hasHighCardinalityKeyValue("messaging.message.id", "hello-ada")
              .hasHighCardinalityKeyValue("lineup.delivery.attempt", "1");
          assertThat(context.getBean(Greeter.class).greeted).containsExactly("ada");
        });
  }

  @Test
  void theRegistryOfSpringBootsObservationAutoConfigurationIsPassedToTheEngine() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LineupAutoConfiguration.class, ObservationAutoConfiguration.class))
        .withPropertyValues("lineup.redis.url=" + redis.uri())
        .run(context -> {
          ObservationRegistry registry = context.getBean(ObservationRegistry.class);
          assertThat(context).hasBean("lineupObservationOptions");
          assertThat(context.getBean(Lineup.class).options().observation().registry())
              .isSameAs(registry);
        });
  }

  @Test
  void withoutARegistryBeanNothingIsObservedAndJobsStillRun() {
    runner
        .withBean(Greeter.class)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(LineupOptionsCustomizer.class);
          assertThat(context).doesNotHaveBean(LineupClientCustomizer.class);
          assertThat(context.getBean(Lineup.class).options().observation().registry().isNoop())
              .isTrue();

          context.getBean(LineupPublisher.class).publish(QUEUE, "grace");
          await()
              .atMost(Duration.ofSeconds(20))
              .until(() -> context.getBean(Greeter.class).greeted.contains("grace"));
        });
  }

  @Test
  void observationsSwitchedOffLeaveTheRegistryUntouched() {
    runner
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withPropertyValues("lineup.observation.enabled=false")
        .run(context -> {
          assertThat(context).doesNotHaveBean(LineupOptionsCustomizer.class);
          assertThat(context).doesNotHaveBean(LineupClientCustomizer.class);
          assertThat(context.getBean(Lineup.class).options().observation().registry().isNoop())
              .isTrue();

          context.getBean(LineupPublisher.class).publish(UNHANDLED, "unobserved");
          TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
              .doesNotHaveAnyObservation();
        });
  }

  @Test
  void theNamespaceIsATagOnlyWhenTenantTagsAreOn() {
    runner
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withPropertyValues("lineup.observation.tenant-tags=true")
        .run(context -> {
          assertThat(context.getBean(Lineup.class).options().observation().tenantTags()).isTrue();
          context.getBean(LineupPublisher.class).publish(UNHANDLED, "tagged");
          TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
              .hasObservationWithNameEqualTo("lineup.publish")
              .that()
              .hasLowCardinalityKeyValue("lineup.namespace", NAMESPACE);
        });
  }

  @Test
  void theApplicationsOwnCustomizerIsAppliedAfterTheRegistryAndWins() {
    runner
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withBean(
            "ownObservationSettings",
            LineupOptionsCustomizer.class,
            () -> builder -> builder.observationRegistry(ObservationRegistry.NOOP))
        .run(context -> {
          assertThat(context.getBean(Lineup.class).options().observation().registry())
              .isSameAs(ObservationRegistry.NOOP);
          context.getBean(LineupPublisher.class).publish(UNHANDLED, "own settings");
          TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
              .doesNotHaveAnyObservation();
        });
  }
}
