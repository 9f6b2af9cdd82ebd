package io.lineup.core.internal.store;

import io.lettuce.core.RedisURI;
import io.lineup.core.model.InvalidArgumentException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a Redis address: one URI ({@code redis://}, {@code rediss://}, {@code redis-sentinel://})
 * for a server or Sentinel group, or a comma list of nodes for a Redis Cluster, e.g. {@code
 * redis://10.0.0.1:7000,10.0.0.2:7000} (items without a scheme take the first item's). A {@code
 * redis-sentinel://} URI may list several sentinels separated by commas ({@code
 * redis-sentinel://h1:26379,h2:26379,h3:26379/0#mymaster}); it names one Sentinel group.
 *
 * @param uris the parsed URIs
 * @param cluster whether the address names a Redis Cluster
 */
public record RedisEndpoints(List<RedisURI> uris, boolean cluster) {
  /**
   * @throws InvalidArgumentException when an item is not a valid Redis URI
   */
  public static RedisEndpoints parse(String address) {
    if (address == null || address.isBlank()) {
      throw new InvalidArgumentException("redisUrl", "must not be empty");
    }
    String trimmed = address.trim();
    if (trimmed.startsWith("redis-sentinel://") || trimmed.startsWith("rediss-sentinel://")) {
      // One Sentinel group, whatever the number of sentinels it lists
      // (redis-sentinel://h1:26379,h2:26379/0#master): its commas do not name Cluster nodes.
      try {
        return new RedisEndpoints(List.of(RedisURI.create(trimmed)), false);
      } catch (IllegalArgumentException e) {
        throw new InvalidArgumentException(
            "redisUrl", "not a Redis Sentinel URI: " + trimmed + " (" + e.getMessage() + ")");
      }
    }
    String[] items = address.split(",");
    String scheme = null;
    List<RedisURI> uris = new ArrayList<>();
    for (String raw : items) {
      String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      int separator = item.indexOf("://");
      if (separator > 0) {
        scheme = item.substring(0, separator);
      } else if (scheme != null) {
        item = scheme + "://" + item;
      } else {
        item = "redis://" + item;
      }
      try {
        uris.add(RedisURI.create(item));
      } catch (IllegalArgumentException e) {
        throw new InvalidArgumentException(
            "redisUrl", "not a Redis URI: " + item + " (" + e.getMessage() + ")");
      }
    }
    if (uris.isEmpty()) {
      throw new InvalidArgumentException("redisUrl", "names no Redis node");
    }
    return new RedisEndpoints(List.copyOf(uris), uris.size() > 1);
  }
}
