package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The Redis URI made from a Lettuce connection factory's settings, without connecting. */
class SpringRedisUrlTest {
  @Test
  void sslUserPasswordAndDatabaseGoIntoTheUriWithTheUserInfoEncoded() {
    RedisStandaloneConfiguration standalone =
        new RedisStandaloneConfiguration("redis.example", 6380);
    standalone.setUsername("app user");
    standalone.setPassword("p@ss:word");
    standalone.setDatabase(4);
    LettuceConnectionFactory factory =
        new LettuceConnectionFactory(
            standalone, LettuceClientConfiguration.builder().useSsl().build());

    assertThat(SpringRedisUrl.of(factory))
        .isEqualTo("rediss://app%20user:p%40ss%3Aword@redis.example:6380/4");
  }

  @Test
  void withoutCredentialsTheUriHasNoUserInfo() {
    LettuceConnectionFactory factory =
        new LettuceConnectionFactory(new RedisStandaloneConfiguration("10.0.0.5", 6379));
    assertThat(SpringRedisUrl.of(factory)).isEqualTo("redis://10.0.0.5:6379/0");
  }

  @Test
  void aClusterConfigurationIsNotCopied() {
    LettuceConnectionFactory factory =
        new LettuceConnectionFactory(new RedisClusterConfiguration(List.of("10.0.0.5:7000")));
    assertThat(SpringRedisUrl.of(factory)).isNull();
  }
}
