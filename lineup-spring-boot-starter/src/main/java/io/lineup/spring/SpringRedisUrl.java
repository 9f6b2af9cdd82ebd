package io.lineup.spring;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis URI of Spring Data Redis's Lettuce connection factory: its host, port, user, password,
 * database and SSL, so an application that configured {@code spring.data.redis.*} need not repeat
 * it for Lineup. Loaded only when Spring Data Redis is on the class path.
 */
final class SpringRedisUrl {
  private SpringRedisUrl() {}

  /** The URI of the context's one Lettuce connection factory, or null (none, or not standalone). */
  static String of(ListableBeanFactory beans) {
    RedisConnectionFactory factory =
        beans.getBeanProvider(RedisConnectionFactory.class).getIfUnique();
    return factory == null ? null : of(factory);
  }

  /**
   * The factory's standalone Redis as a URI, or null when it is not a Lettuce factory or points at
   * a Sentinel group or a cluster (then {@code lineup.redis.url} must be set).
   */
  static String of(RedisConnectionFactory factory) {
    if (!(factory instanceof LettuceConnectionFactory lettuce)
        || lettuce.getSentinelConfiguration() != null
        || lettuce.getClusterConfiguration() != null) {
      return null;
    }
    RedisStandaloneConfiguration standalone = lettuce.getStandaloneConfiguration();
    StringBuilder uri = new StringBuilder(lettuce.isUseSsl() ? "rediss://" : "redis://");
    String password = standalone.getPassword().toOptional().map(String::new).orElse(null);
    String user = standalone.getUsername();
    if (password != null || user != null) {
      if (user != null) {
        uri.append(encode(user));
      }
      if (password != null) {
        uri.append(':').append(encode(password));
      }
      uri.append('@');
    }
    String host = standalone.getHostName();
    uri.append(host.contains(":") ? "[" + host + "]" : host)
        .append(':')
        .append(standalone.getPort())
        .append('/')
        .append(standalone.getDatabase());
    return uri.toString();
  }

  /** Percent-encodes a user-info part (a space as %20, which a URI decodes). */
  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
