package io.lineup.dispatch.egress;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The Redis servers a Redis URL names, as unresolved host and port pairs, for the egress policy to
 * refuse: {@code redis://[user:password@]host[:port][/db]}, {@code rediss://…}, {@code
 * redis-sentinel://h1:26379,h2:26379/0#master} and comma lists of cluster nodes, with or without a
 * scheme each. A missing port is 6379 (26379 for a sentinel).
 */
public final class RedisServers {
  private RedisServers() {}

  /**
   * The host and port of each server in the URL.
   *
   * @param redisUrl a Redis URL as the engine takes it; null gives none
   */
  public static List<InetSocketAddress> of(String redisUrl) {
    List<InetSocketAddress> servers = new ArrayList<>();
    if (redisUrl == null || redisUrl.isBlank()) {
      return servers;
    }
    int defaultPort = redisUrl.trim().startsWith("redis-sentinel") ? 26379 : 6379;
    for (String piece : redisUrl.split(",")) {
      String text = piece.trim();
      int scheme = text.indexOf("://");
      if (scheme >= 0) {
        text = text.substring(scheme + 3);
      }
      int end = text.length();
      for (char stop : new char[] {'/', '?', '#'}) {
        int at = text.indexOf(stop);
        if (at >= 0) {
          end = Math.min(end, at);
        }
      }
      text = text.substring(0, end);
      int at = text.lastIndexOf('@');
      if (at >= 0) {
        text = text.substring(at + 1);
      }
      if (text.isEmpty()) {
        continue;
      }
      String host = text;
      int port = defaultPort;
      if (text.startsWith("[")) {
        int close = text.indexOf(']');
        host = close < 0 ? text : text.substring(1, close);
        String rest = close < 0 ? "" : text.substring(close + 1);
        if (rest.startsWith(":")) {
          port = parsePort(rest.substring(1), defaultPort);
        }
      } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
        host = text.substring(0, text.indexOf(':'));
        port = parsePort(text.substring(text.indexOf(':') + 1), defaultPort);
      }
      servers.add(InetSocketAddress.createUnresolved(host, port));
    }
    return servers;
  }

  private static int parsePort(String text, int fallback) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException notAPort) {
      return fallback;
    }
  }
}
