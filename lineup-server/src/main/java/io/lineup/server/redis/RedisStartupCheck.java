package io.lineup.server.redis;

import io.lineup.core.Lineup;
import io.lineup.core.model.RedisServerInfo;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up checks of the Redis server: logs its version and mode, a warning for each setting that
 * can lose jobs (eviction, no persistence, snapshots only), and a note for a setting that costs
 * memory ({@code hash-max-listpack-value} below 128).
 */
public final class RedisStartupCheck {
  private static final Logger LOG = LoggerFactory.getLogger(RedisStartupCheck.class);

  private RedisStartupCheck() {}

  /**
   * Reads the server's settings and logs what it finds.
   *
   * @return the warnings logged (empty when every setting is safe)
   * @throws io.lineup.core.model.RedisUnavailableException when Redis cannot be reached
   */
  public static List<String> run(Lineup lineup) {
    RedisServerInfo info = lineup.redisInfo();
    LOG.info("Connected to Redis {} ({})", info.version(), info.mode());
    List<String> warnings = warningsFor(info);
    warnings.forEach(LOG::warn);
    notesFor(info).forEach(LOG::info);
    return warnings;
  }

  /** Notes on settings that cost memory but lose nothing. */
  public static List<String> notesFor(RedisServerInfo info) {
    if (!info.listpackValueBelowRecommended()) {
      return List.of();
    }
    return List.of(
        "Redis hash-max-listpack-value is "
            + info.listpackValueBytes()
            + ": waiting jobs with payloads over about "
            + Math.max(0, info.listpackValueBytes() - 14)
            + " bytes take about 45 bytes more each than with "
            + RedisServerInfo.RECOMMENDED_LISTPACK_VALUE_BYTES
            + " (docs/operations.md)");
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
