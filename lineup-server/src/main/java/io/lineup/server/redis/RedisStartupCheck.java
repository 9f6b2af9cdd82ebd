package io.lineup.server.redis;

import io.lineup.core.Lineup;
import io.lineup.core.RedisServerInfo;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up checks of the Redis server: logs its version and mode, and a warning for each setting
 * that can lose jobs (eviction, no persistence, snapshots only).
 */
public final class RedisStartupCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RedisStartupCheck.class);

  private RedisStartupCheck() {}

  /**
   * Reads the server's settings and logs what it finds.
   *
   * @return the warnings logged (empty when every setting is safe)
   * @throws io.lineup.core.RedisUnavailableException when Redis cannot be reached
   */
  public static List<String> run(Lineup lineup) {
    RedisServerInfo info = lineup.redisInfo();
    LOG.info("Connected to Redis {} ({})", info.version(), info.mode());
    List<String> warnings = warningsFor(info);
    warnings.forEach(LOG::warn);
    return warnings;
  }

  /** The warnings for a server's settings. */
  public static List<String> warningsFor(RedisServerInfo info) {
    List<String> warnings = new ArrayList<>();
    if (info.maxmemoryPolicy() == null) {
      warnings.add(
          "Could not read Redis's maxmemory-policy (CONFIG is not allowed); make sure it is"
              + " noeviction, or Redis may evict jobs under memory pressure");
    } else if (info.mayEvict()) {
      warnings.add(
          "Redis maxmemory-policy is "
              + info.maxmemoryPolicy()
              + ": Redis may evict job keys under memory pressure and lose jobs; set"
              + " maxmemory-policy noeviction");
    }
    if (info.persistsNothing()) {
      warnings.add(
          "Redis persists nothing (appendonly no and no snapshots): a Redis restart loses every"
              + " job; set appendonly yes");
    } else if (!info.appendOnly() && Boolean.TRUE.equals(info.snapshots())) {
      warnings.add(
          "Redis persists by snapshots only (appendonly no): a Redis crash loses the jobs"
              + " published since the last snapshot; set appendonly yes");
    }
    return warnings;
  }
}
