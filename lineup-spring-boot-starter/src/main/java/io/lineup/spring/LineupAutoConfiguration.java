package io.lineup.spring;

import io.lineup.client.LineupClient;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Lineup for a Spring Boot application (docs/spring.md): the embedded engine ({@code
 * lineup.mode=embedded}, the default) or the client of a server ({@code lineup.mode=client}), a
 * {@link LineupPublisher} that waits for the transaction's commit, the workers of the {@link
 * LineupHandler} methods and the {@link LineupSchedule} declarations, with the application's {@link
 * ObservationRegistry} when it has one. Every bean backs off when the application declares its own.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
      // Spring Boot's ObservationRegistry, which the observation customizers need to see.
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
    })
@EnableConfigurationProperties(LineupProperties.class)
public class LineupAutoConfiguration {
  /** Where the embedded engine connects when nothing says otherwise. */
  public static final String DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

  /**
   * The order of the customizers that pass the application's {@link ObservationRegistry}: the
   * first, so an application's own {@link LineupOptionsCustomizer} or {@link
   * LineupClientCustomizer} (of any other order) is applied after them and can change what they
   * set.
   */
  public static final int OBSERVATION_CUSTOMIZER_ORDER = Ordered.HIGHEST_PRECEDENCE;

  private static final String SPRING_DATA_REDIS =
      "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";
  private static final String SPRING_TX =
      "org.springframework.transaction.support.TransactionSynchronizationManager";

  /** The engine in this process, on Redis. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(
      prefix = "lineup",
      name = "mode",
      havingValue = "embedded",
      matchIfMissing = true)
  static class EmbeddedConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Lineup lineup(
        LineupProperties properties,
        ConfigurableListableBeanFactory beans,
        ObjectProvider<LineupOptionsCustomizer> customizers) {
      LineupOptions.Builder builder = LineupOptions.builder(redisUrl(properties, beans));
      // The context's ObservationRegistry arrives here too, as the first customizer
      // (ObservationConfiguration): the application's own customizers, applied after it, win.
      customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
      return Lineup.connect(builder.build());
    }

    @Bean
    @ConditionalOnMissingBean
    LineupBackend lineupBackend(Lineup lineup) {
      return new EmbeddedBackend(lineup);
    }

    /** {@code lineup.redis.url}, else Spring Data Redis's settings, else the local default. */
    static String redisUrl(LineupProperties properties, ConfigurableListableBeanFactory beans) {
      String url = properties.getRedis().getUrl();
      if (url != null && !url.isBlank()) {
        return url.strip();
      }
      if (ClassUtils.isPresent(SPRING_DATA_REDIS, beans.getBeanClassLoader())) {
        String reused = SpringRedisUrl.of(beans);
        if (reused != null) {
          return reused;
        }
      }
      return DEFAULT_REDIS_URL;
    }
  }

  /** The client of a Lineup server. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "lineup", name = "mode", havingValue = "client")
  static class ClientConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LineupClient lineupClient(
        LineupProperties properties, ObjectProvider<LineupClientCustomizer> customizers) {
      String url = properties.getClient().getUrl();
      if (url == null || url.isBlank()) {
        throw new IllegalStateException(
            "lineup.mode=client needs lineup.client.url, the Lineup server's address"
                + " (e.g. http://lineup:7700)");
      }
      LineupClient.Builder builder =
          LineupClient.builder(url).token(properties.getClient().getToken());
      // As for the engine, the registry comes with the first customizer.
      customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
      return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    LineupBackend lineupBackend(LineupClient client) {
      return new ClientBackend(client);
    }
  }

  /**
   * The application's {@link ObservationRegistry} for the engine or the client, unless {@code
   * lineup.observation.enabled=false}: publishes and handled jobs become observations ({@code
   * lineup.publish}, {@code lineup.process}), spans with a tracer. Without a registry bean nothing
   * is made and Lineup observes nothing (its default no-op registry).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ObservationRegistry.class)
  @ConditionalOnBean(ObservationRegistry.class)
  @ConditionalOnBooleanProperty(name = "lineup.observation.enabled", matchIfMissing = true)
  static class ObservationConfiguration {
    @Bean
    @Order(OBSERVATION_CUSTOMIZER_ORDER)
    LineupOptionsCustomizer lineupObservationOptions(
        ObservationRegistry registry, LineupProperties properties) {
      boolean tenantTags = properties.getObservation().isTenantTags();
      return builder -> builder.observationRegistry(registry).observationTenantTags(tenantTags);
    }

    @Bean
    @Order(OBSERVATION_CUSTOMIZER_ORDER)
    LineupClientCustomizer lineupObservationClient(
        ObservationRegistry registry, LineupProperties properties) {
      boolean tenantTags = properties.getObservation().isTenantTags();
      return builder -> builder.observationRegistry(registry).observationTenantTags(tenantTags);
    }
  }

  /** Payloads with the context's Jackson 3 mapper (Spring Boot 4's {@code JsonMapper}). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "tools.jackson.databind.ObjectMapper")
  static class Jackson3CodecConfiguration {
    @Bean
    @ConditionalOnMissingBean
    PayloadCodec lineupPayloadCodec(ObjectProvider<tools.jackson.databind.ObjectMapper> mapper) {
      return new JacksonPayloadCodec(
          mapper.getIfAvailable(() -> tools.jackson.databind.json.JsonMapper.builder().build()));
    }
  }

  /** Payloads with Jackson 2 when the application has no Jackson 3. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingClass("tools.jackson.databind.ObjectMapper")
  static class Jackson2CodecConfiguration {
    @Bean
    @ConditionalOnMissingBean
    PayloadCodec lineupPayloadCodec(
        ObjectProvider<com.fasterxml.jackson.databind.ObjectMapper> mapper) {
      return new Jackson2PayloadCodec(
          mapper.getIfAvailable(com.fasterxml.jackson.databind.ObjectMapper::new));
    }
  }

  /**
   * The publisher of both modes, with Spring's transactions on the class path: inside a transaction
   * it publishes after the commit unless {@code lineup.publish.after-commit=false}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = SPRING_TX)
  static class TransactionalPublisherConfiguration {
    @Bean
    @ConditionalOnMissingBean
    LineupPublisher lineupPublisher(
        LineupBackend backend, PayloadCodec codec, LineupProperties properties) {
      DirectPublisher direct = new DirectPublisher(backend, codec);
      return properties.getPublish().isAfterCommit() ? AfterCommitPublisher.wrap(direct) : direct;
    }
  }

  /** The publisher of both modes without Spring's transactions: it publishes at once. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingClass(SPRING_TX)
  static class DirectPublisherConfiguration {
    @Bean
    @ConditionalOnMissingBean
    LineupPublisher lineupPublisher(LineupBackend backend, PayloadCodec codec) {
      return new DirectPublisher(backend, codec);
    }
  }

  /** Finds the annotated methods; static, as a bean post-processor must be. */
  @Bean
  static LineupHandlerRegistrar lineupHandlerRegistrar(Environment environment) {
    return new LineupHandlerRegistrar(environment);
  }

  @Bean
  @ConditionalOnMissingBean
  LineupWorkers lineupWorkers(
      LineupBackend backend,
      LineupHandlerRegistrar registrar,
      PayloadCodec codec,
      LineupProperties properties,
      ObjectProvider<LineupWorkerListener> listeners) {
    return new LineupWorkers(
        backend, registrar, codec, properties, listeners.orderedStream().toList());
  }
}
