package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.net.URI;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Without {@code lineup.redis.url}, the engine uses the Redis that Spring Data Redis is configured
 * for: host, port, user, password and database.
 */
class SpringDataRedisReuseTest {
  private static final String USER = "shop";
  private static final String PASSWORD = "s3cret/pass";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** A user that only answers with its password (a wrong one fails every connection). */
  @BeforeAll
  static void addUser() {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      connection
          .sync()
          .aclSetuser(
              USER,
              AclSetuserArgs.Builder.on()
                  .addPassword(PASSWORD)
                  .allKeys()
                  .allChannels()
                  .allCommands());
    } finally {
      client.shutdown();
    }
  }

  private ApplicationContextRunner runner() {
    int port = URI.create(redis.uri()).getPort();
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(DataRedisAutoConfiguration.class, LineupAutoConfiguration.class))
        .withPropertyValues(
            "spring.data.redis.host=127.0.0.1",
            "spring.data.redis.port=" + port,
            "spring.data.redis.username=" + USER,
            "spring.data.redis.password=" + PASSWORD,
            "spring.data.redis.database=3");
  }

  @Test
  void theEngineConnectsWithSpringDataRedisHostPortPasswordAndDatabase() {
    int port = URI.create(redis.uri()).getPort();
    runner()
        .run(context -> {
          Lineup lineup = context.getBean(Lineup.class);
          assertThat(lineup.options().redisUri())
              .isEqualTo("redis://shop:s3cret%2Fpass@127.0.0.1:" + port + "/3");
          String queue = RedisServerExtension.uniqueName("reuse") + "/jobs";
          context
              .getBean(LineupPublisher.class)
              .publish(queue, "hello", PublishOptions.defaults().withId("in-db-3"));

          // The job is in database 3, and only there.
          String base = "redis://shop:s3cret%2Fpass@127.0.0.1:" + port;
          try (Lineup db3 = Lineup.connect(noLoops(base + "/3"));
              Lineup db0 = Lineup.connect(noLoops(base + "/0"))) {
            assertThat(db3.exists(QueueName.parse(queue), "in-db-3")).isTrue();
            assertThat(db0.exists(QueueName.parse(queue), "in-db-3")).isFalse();
          }
        });
  }

  @Test
  void lineupRedisUrlWinsOverSpringDataRedis() {
    String own = "redis://shop:s3cret%2Fpass@127.0.0.1:" + URI.create(redis.uri()).getPort() + "/5";
    runner()
        .withPropertyValues("lineup.redis.url=" + own)
        .run(context ->
            assertThat(context.getBean(Lineup.class).options().redisUri()).isEqualTo(own));
  }

  private static LineupOptions noLoops(String uri) {
    return LineupOptions.builder(uri).maintenance(false).build();
  }
}
