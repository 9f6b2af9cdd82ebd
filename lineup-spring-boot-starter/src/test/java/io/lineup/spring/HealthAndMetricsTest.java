package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.testing.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code lineup} health indicator and the meters bound to the application's registry. */
class HealthAndMetricsTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final String NAMESPACE = RedisServerExtension.uniqueName("health");

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LineupAutoConfiguration.class,
                  LineupHealthAutoConfiguration.class,
                  LineupMetricsAutoConfiguration.class))
          .withPropertyValues(
              "lineup.redis.url=" + redis.uri(),
              "lineup.worker.idle-wait=1s",
              "lineup.worker.shutdown-grace=1s",
              "test.namespace=" + NAMESPACE);

  static class Counter {
    @LineupHandler(queue = "${test.namespace}/count")
    public void count(String payload) {
      if (payload.equals("bad")) {
        throw new IllegalArgumentException("bad payload");
      }
    }
  }

  @Test
  void healthIsUpWhenRedisAnswersAndEveryHandlerHasItsWorker() {
    runner
        .withBean(Counter.class)
        .run(context -> {
          Health health = context.getBean(LineupHealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.UP);
          assertThat(health.getDetails())
              .containsEntry("mode", "embedded")
              .containsEntry("handlers", 1L)
              .containsEntry("workersRunning", 1);
        });
  }

  @Test
  void healthIsDownWhenTheWorkersAreStopped() {
    runner
        .withBean(Counter.class)
        .run(context -> {
          context.getSourceApplicationContext().stop();
          Health health = context.getBean(LineupHealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.DOWN);
          assertThat(health.getDetails()).containsEntry("error", "workers are not running");
        });
  }

  @Test
  void healthIsDownWhenTheServerDoesNotAnswer() {
    runner
        .withPropertyValues("lineup.mode=client", "lineup.client.url=http://127.0.0.1:9")
        .run(context -> {
          Health health = context.getBean(LineupHealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.DOWN);
          assertThat(health.getDetails()).containsEntry("mode", "client");
          assertThat((String) health.getDetails().get("error"))
              .startsWith("the server does not answer");
        });
  }

  @Test
  void theHealthIndicatorCanBeSwitchedOff() {
    runner
        .withPropertyValues("management.health.lineup.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(LineupHealthIndicator.class));
  }

  @Test
  void handlerCountsAndRedisCommandLatenciesAreBoundToTheApplicationsRegistry() {
    runner
        .withBean(Counter.class)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> {
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          String queue = NAMESPACE + "/count";
          LineupPublisher publisher = context.getBean(LineupPublisher.class);
          publisher.publish(queue, "good");
          publisher.publish(queue, "bad", PublishOptions.defaults().withMaxAttempts(1));

          await()
              .atMost(Duration.ofSeconds(10))
              .until(() ->
                  registry
                              .get(LineupMetricsAutoConfiguration.PROCESSED)
                              .tag("queue", queue)
                              .functionCounter()
                              .count()
                          == 1
                      && registry
                              .get(LineupMetricsAutoConfiguration.FAILED)
                              .tag("queue", queue)
                              .functionCounter()
                              .count()
                          == 1);
          // A job is counted when its handler ends and leaves the in-flight set after its
          // settlement: wait for that too rather than read the gauge in between.
          await()
              .atMost(Duration.ofSeconds(10))
              .untilAsserted(() ->
                  assertThat(
                          registry
                              .get(LineupMetricsAutoConfiguration.IN_FLIGHT)
                              .tag("queue", queue)
                              .gauge()
                              .value())
                      .isZero());
          assertThat(
                  registry.get(LineupMetricsAutoConfiguration.REDIS_COMMANDS).timers().stream()
                      .mapToLong(timer -> timer.count())
                      .sum())
              .isPositive();
        });
  }
}
