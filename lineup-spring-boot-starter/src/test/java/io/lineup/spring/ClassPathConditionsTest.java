package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.testing.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** What the starter makes when an optional library is not on the application's class path. */
class ClassPathConditionsTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LineupAutoConfiguration.class,
                  LineupHealthAutoConfiguration.class,
                  LineupMetricsAutoConfiguration.class))
          .withPropertyValues("lineup.redis.url=" + redis.uri());

  @Test
  void withJackson3PayloadsUseItsMapper() {
    runner.run(context ->
        assertThat(context.getBean(PayloadCodec.class)).isInstanceOf(JacksonPayloadCodec.class));
  }

  @Test
  void withoutJackson3PayloadsUseJackson2() {
    runner
        .withClassLoader(new FilteredClassLoader("tools.jackson"))
        .run(context ->
            assertThat(context.getBean(PayloadCodec.class))
                .isInstanceOf(Jackson2PayloadCodec.class));
  }

  @Test
  void withSpringTxThePublisherWaitsForCommits() {
    runner.run(context ->
        assertThat(context.getBean(LineupPublisher.class))
            .isInstanceOf(AfterCommitPublisher.class));
  }

  @Test
  void withoutSpringTxThePublisherPublishesAtOnce() {
    runner
        .withClassLoader(new FilteredClassLoader(TransactionSynchronizationManager.class))
        .run(context ->
            assertThat(context.getBean(LineupPublisher.class)).isInstanceOf(DirectPublisher.class));
  }

  @Test
  void withoutSpringBootsHealthSupportThereIsNoHealthIndicator() {
    runner
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(LineupHealthIndicator.class);
        });
  }

  @Test
  void withoutMicrometerNoMetersAreMade() {
    runner
        .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(LineupWorkerListener.class);
          assertThat(context).doesNotHaveBean(LineupOptionsCustomizer.class);
        });
  }
}
