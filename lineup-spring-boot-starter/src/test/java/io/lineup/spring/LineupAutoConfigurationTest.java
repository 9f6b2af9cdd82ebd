package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.client.LineupClient;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Which beans the starter makes, from which properties, and when it backs off. */
class LineupAutoConfigurationTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LineupAutoConfiguration.class))
          .withPropertyValues("lineup.redis.url=" + redis.uri());

  @Test
  void embeddedModeIsTheDefaultAndMakesTheEngineThePublisherAndTheWorkers() {
    runner.run(context -> {
      assertThat(context).hasSingleBean(Lineup.class);
      assertThat(context).hasSingleBean(LineupPublisher.class);
      assertThat(context).hasSingleBean(LineupWorkers.class);
      assertThat(context).hasSingleBean(PayloadCodec.class);
      assertThat(context).doesNotHaveBean(LineupClient.class);
      assertThat(context.getBean(Lineup.class).options().redisUri()).isEqualTo(redis.uri());
    });
  }

  @Test
  void thePublisherWritesObjectsAsJsonTextAsItIsAndKeepsTheGivenId() {
    runner.run(context -> {
      LineupPublisher publisher = context.getBean(LineupPublisher.class);
      Lineup lineup = context.getBean(Lineup.class);
      String queue = RedisServerExtension.uniqueName("shop") + "/orders";

      PublishReceipt receipt =
          publisher.publish(
              queue, Map.of("order", 42), PublishOptions.defaults().withId("order-42"));
      publisher.publish(queue, "plain text", PublishOptions.defaults().withId("text-1"));

      assertThat(receipt).isEqualTo(new PublishReceipt(queue, "order-42", true, false));
      JobInfo json = lineup.get(QueueName.parse(queue), "order-42").orElseThrow();
      assertThat(new String(json.payload())).isEqualTo("{\"order\":42}");
      JobInfo text = lineup.get(QueueName.parse(queue), "text-1").orElseThrow();
      assertThat(new String(text.payload())).isEqualTo("plain text");
    });
  }

  @Test
  void aMalformedQueueNameIsRefusedWithItsName() {
    runner.run(context ->
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> context.getBean(LineupPublisher.class).publish("no-slash", "x"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("no-slash"));
  }

  @Test
  void theApplicationsOwnEngineIsUsedInsteadOfTheStartersOne() {
    runner
        .withUserConfiguration(OwnEngine.class)
        .run(context -> {
          assertThat(context).hasSingleBean(Lineup.class);
          assertThat(context.getBean(Lineup.class).options().commandTimeout())
              .isEqualTo(Duration.ofSeconds(7));
        });
  }

  @Test
  void theApplicationsOwnPublisherAndCodecAreUsed() {
    runner
        .withUserConfiguration(OwnPublisherAndCodec.class)
        .run(context -> {
          assertThat(context.getBean(LineupPublisher.class))
              .isSameAs(OwnPublisherAndCodec.PUBLISHER);
          assertThat(context.getBean(PayloadCodec.class)).isSameAs(OwnPublisherAndCodec.CODEC);
        });
  }

  @Test
  void optionsCustomizersChangeTheEnginesOptions() {
    runner
        .withBean(
            LineupOptionsCustomizer.class,
            () -> builder -> builder.commandTimeout(Duration.ofSeconds(3)))
        .run(context ->
            assertThat(context.getBean(Lineup.class).options().commandTimeout())
                .isEqualTo(Duration.ofSeconds(3)));
  }

  @Test
  void withoutARedisUrlOrAConnectionFactoryTheEngineUsesTheLocalDefault() {
    // Resolved without connecting: the tests never touch a Redis on the default port.
    String url =
        LineupAutoConfiguration.EmbeddedConfiguration.redisUrl(
            new LineupProperties(),
            new org.springframework.beans.factory.support.DefaultListableBeanFactory());
    assertThat(url).isEqualTo(LineupAutoConfiguration.DEFAULT_REDIS_URL);
  }

  @Test
  void clientModeWithoutAServerUrlFailsToStartNamingTheProperty() {
    runner
        .withPropertyValues("lineup.mode=client")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .rootCause()
              .hasMessageContaining("lineup.client.url");
        });
  }

  @Test
  void anUnknownModeFailsToStart() {
    runner
        .withPropertyValues("lineup.mode=cluster")
        .run(context -> assertThat(context).hasFailed());
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnEngine {
    @Bean(destroyMethod = "close")
    Lineup myLineup() {
      return Lineup.connect(
          LineupOptions.builder(redis.uri()).commandTimeout(Duration.ofSeconds(7)).build());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnPublisherAndCodec {
    static final LineupPublisher PUBLISHER =
        (queue, payload, options) -> new PublishReceipt(queue, "mine", true, false);
    static final PayloadCodec CODEC =
        new PayloadCodec() {
          @Override
          public byte[] encode(Object value) {
            return new byte[0];
          }

          @Override
          public Object decode(byte[] bytes, java.lang.reflect.Type type) {
            return null;
          }
        };

    @Bean
    LineupPublisher myPublisher() {
      return PUBLISHER;
    }

    @Bean
    PayloadCodec myCodec() {
      return CODEC;
    }
  }
}
