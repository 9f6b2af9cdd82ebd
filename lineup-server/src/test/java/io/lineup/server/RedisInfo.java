package io.lineup.server;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads figures from a test Redis's INFO. */
final class RedisInfo {
  private RedisInfo() {}

  /** Clients blocked in BLPOP and friends right now. */
  static int blockedClients(RedisProcess redis) {
    try {
      String info = redis.command("INFO clients");
      for (String line : info.split("\r?\n")) {
        if (line.startsWith("blocked_clients:")) {
          return Integer.parseInt(line.substring("blocked_clients:".length()).trim());
        }
      }
      throw new IllegalStateException("INFO clients has no blocked_clients: " + info);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Bytes Redis has allocated ({@code used_memory}), the figure {@code maxmemory} is held to. */
  static long usedMemory(RedisProcess redis) {
    return field(redis, "memory", "used_memory");
  }

  /** A whole-number field of one INFO section. */
  static long field(RedisProcess redis, String section, String name) {
    try {
      String info = redis.command("INFO " + section);
      for (String line : info.split("\r?\n")) {
        if (line.startsWith(name + ":")) {
          return Long.parseLong(line.substring(name.length() + 1).trim());
        }
      }
      throw new IllegalStateException("INFO " + section + " has no " + name + ": " + info);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
